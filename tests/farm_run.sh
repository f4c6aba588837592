#!/bin/sh
# The task farm end to end on a private pvmd, policy none (whose nodes
# run in lb/ like every policy's): both workloads verified by the master;
# a master-ordered migration moves started processes through the node's
# TRANSFER, packed by the codec, and they resume elsewhere and verify,
# their results coming home by RESULT; bad input exits 2.
. "${LB_TOP_SRCDIR:-.}/tests/lib.sh"
farm_lock
pvm_private
m="$top_builddir/master/lbmaster"
csv="$PVM_TMP/out.csv"
hosts="$PVM_TMP/hosts.csv"


for wl in "primes --size 400000" "matmul --size 300"; do
  rm -f "$csv"
  out=$($m --workload $wl --hosts 4 --procs 12 --init one --seed 5 --out "$csv" 2>&1)
  rc=$?
  [ $rc -eq 0 ] && ok "$wl: exit 0" || { printf '%s\n' "$out"; fail "$wl: exit $rc"; }
  [ "$(col verified)" = yes ] && ok "$wl: verified" || fail "$wl: not verified"
  [ "$(col msgs_RESULT)" = 12 ] && ok "$wl: 12 results" || fail "$wl: $(col msgs_RESULT) results"
  [ "$(col migrated)" = 0 ] && ok "$wl: none moves nothing" || fail "$wl: none migrated"
  # ring:4, 12 on host 0: 3 each, 3 x (1 + 2 + 1) process-hops at best.
  [ "$(col hops_optimal),$(col hops_ratio)" = 12,0 ] && ok "$wl: optimum 12 process-hops, none used" \
    || fail "$wl: optimum $(col hops_optimal), ratio $(col hops_ratio)"
done

# --csv: stdout is the header and one verified row, nothing else; the
# lines for people went to stderr.
out=$($m --csv --workload primes --size 100000 --hosts 2 --procs 6 --seed 2 2>"$PVM_TMP/err")
[ "$(printf '%s\n' "$out" | wc -l)" = 2 ] && [ "$(printf '%s\n' "$out" | head -1 | cut -d, -f1)" = driver ] \
  && [ "$(printf '%s\n' "$out" | tail -1 | awk -F, '{ print $NF }')" = yes ] \
  && grep -q "results verified: yes" "$PVM_TMP/err" && ok "--csv: only the CSV on stdout" \
  || { printf '%s\n' "$out"; fail "--csv: stdout is not just the CSV"; }

# The farm's header is the simulator's, byte for byte (one schema), and
# the row holds the run's settings: the derived hop time, the periods,
# every host's C.
[ "$(printf '%s\n' "$out" | head -1)" = "$("$top_builddir/sim/lbsim" --csv-header)" ] \
  && ok "lbmaster --csv prints lbsim's header" || fail "lbmaster --csv header differs from lbsim's"
printf '%s\n' "$out" >"$PVM_TMP/one.csv"
got=$(csv="$PVM_TMP/one.csv"; for c in driver workload size procs nodes seed hop_time dasud.period capacities capacity quantum_s; do
  printf '%s=%s ' "$c" "$(col "$c")"; done)
[ "$got" = "driver=lbmaster workload=primes size=100000 procs=6 nodes=2 seed=2 hop_time=0.012 dasud.period=0.050000000000000003 capacities=3 capacity= quantum_s=0.01 " ] \
  && ok "the farm's row holds its settings" || fail "farm row: $got"

# Random start on six hosts, a torus-free ring: still verified.
rm -f "$csv"
$m --workload matmul --size 120 --procs 30 --init random --seed 9 --out "$csv" >/dev/null 2>&1
[ "$(col verified)" = yes ] && [ "$(col nodes)" = 6 ] && ok "random start on 6 hosts verified" || fail "random start"

# Contiguous starts, read from the per-host CSV: share puts processes in
# proportion to speed (OPT_LOAD_SHARE, every host open from the start),
# skewed 2^-k; both are exact here.
inits() { rm -f "$hosts"; $m "$@" --policy none --seed 3 --hosts-csv "$hosts" >/dev/null 2>&1; hostcol init; }
got=$(inits --workload primes --size 200000 --hosts 3 --procs 35 --speeds 1,0.5,0.25 --init share)
[ "$got" = "20 10 5 " ] && ok "--init share: 20 10 5 for speeds 1, 0.5, 0.25" || fail "--init share gave '$got'"
got=$(inits --workload primes --size 200000 --hosts 6 --procs 63 --init skewed)
[ "$got" = "32 16 8 4 2 1 " ] && ok "--init skewed: 32 16 8 4 2 1" || fail "--init skewed gave '$got'"

# Master-ordered migration: host 0 holds everything and, after its first
# result, sends 2 processes to each of its 2 ring neighbours.  Its
# processes time-share the host, so by then every one has started.
for mode in origin direct; do
  rm -f "$csv"
  out=$($m --workload primes --size 10000000 --hosts 3 --procs 9 --init one --order 2 --results $mode \
    --out "$csv" --trace "$PVM_TMP/trace.csv" 2>&1)
  [ "$(col verified)" = yes ] && ok "$mode: migrated run verified" || { printf '%s\n' "$out"; fail "$mode: not verified"; }
  [ "$(col migrated)" = 4 ] && ok "$mode: 4 processes migrated" || fail "$mode: $(col migrated) migrated"
  [ "$(col migrated_started)" = 4 ] && ok "$mode: all 4 had started and resumed elsewhere" \
    || fail "$mode: $(col migrated_started) of them had started"
  [ "$(col lb_TRANSFER)" = 2 ] && ok "$mode: in 2 TRANSFERs" || fail "$mode: $(col lb_TRANSFER) TRANSFERs"
  # Balancing 9 on one host of ring:3 moves 6, one hop each; the order moved 4.
  [ "$(col hops),$(col hops_optimal)" = 4,6 ] && ok "$mode: 4 process-hops against an optimum of 6" \
    || fail "$mode: $(col hops) process-hops, optimum $(col hops_optimal)"
  [ "$(col lb_RESULT)" = 4 ] && ok "$mode: 4 results home by RESULT" || fail "$mode: $(col lb_RESULT) RESULTs"
  [ "$(col msgs_RESULT)" = 9 ] && ok "$mode: 9 results delivered" || fail "$mode: $(col msgs_RESULT) delivered"
  [ "$(grep -c ',TRANSFER,.*,send,' "$PVM_TMP/trace.csv")" = 2 ] && grep -q '^[0-9.]*,0,TRANSFER,0,[12],.*,send,' "$PVM_TMP/trace.csv" \
    && [ "$(grep -c '^[0-9.]*,[12],TRANSFER,0,[12],.*,recv,' "$PVM_TMP/trace.csv")" = 2 ] \
    && ok "$mode: trace has the 2 TRANSFERs from host 0, each received" || fail "$mode: trace lacks the TRANSFERs: $(grep TRANSFER "$PVM_TMP/trace.csv")"
done
# The bytes of the moved results: relayed to the origin, or not at all.
[ "$(col msgs_PAYLOAD)" = 0 ] && ok "direct: no payload relayed" || fail "direct: $(col msgs_PAYLOAD) payloads relayed"

# A damaged context (garbage, or one that names another origin) does not
# end the run: its host hands the process back and it runs again.
rm -f "$csv"
out=$($m --workload primes --size 400000 --hosts 3 --procs 12 --init even --inject-damage 2 --out "$csv" 2>&1)
[ "$(col verified),$(col reruns)" = yes,2 ] && ok "2 damaged contexts run again, all verified" \
  || { printf '%s\n' "$out"; fail "damaged: verified $(col verified), reruns $(col reruns)"; }
[ "$(printf '%s\n' "$out" | grep -c 'handed back to the master')" = 2 ] && ok "each handed back with a message" \
  || fail "hand-back messages: $out"

expect_status 2 "--workload" $m --workload fft
expect_status 2 "--policy: unknown policy 'fastest'" $m --policy fastest
expect_status 2 "has 4 nodes but --hosts is 3" $m --hosts 3 --topology ring:4
expect_status 2 "2 values for 3 hosts" $m --hosts 3 --speeds 1,0.5
expect_status 2 "--speeds" $m --speeds 2
expect_status 2 "--init: unknown value" $m --init all
expect_status 2 "processes" $m --workload matmul --size 10 --procs 11
for i in 1 2 3 4 5 6 7 8 9 10; do [ -z "$(pvmd_pids)" ] && break; sleep 0.3; done
[ -z "$(pvmd_pids)" ] && ok "pvmd halted" || fail "pvmd still running"
finish
