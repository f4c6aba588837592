#!/bin/sh
# lbmpi, the farm over MPI, on this machine (7 ranks, oversubscribed):
# both workloads under RMTLB, DASUD (a periodic policy), steal, pool and
# dasud-ring verified with processes migrating; a traced run's trace
# holds what lbmaster's does (tests/trace_check.py); with policy none and
# an even start every host
# runs exactly the units it runs under lbmaster on PVM; junk is dropped;
# a rank count that does not fit --hosts is bad input; a rank frozen
# (SIGSTOP) leaves no host-speed cgroup when lbmpi ends the job.  SKIP (77) where
# mpirun or lbmpi is missing.
. "${LB_TOP_SRCDIR:-.}/tests/lib.sh"
mpi="$top_builddir/mpi/lbmpi"
[ -x "$mpi" ] || { echo "SKIP: lbmpi not built (configure found no MPI: apt-get install libopenmpi-dev openmpi-bin)"; exit 77; }
command -v mpirun >/dev/null || { echo "SKIP: no mpirun (apt-get install openmpi-bin)"; exit 77; }
farm_lock
# Open MPI refuses root without these; one machine runs 7 ranks on 2 cores.
[ "$(id -u)" -eq 0 ] && export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lbfarm-mpi.XXXXXX")
at_exit 'rm -rf "$tmp"'
run() { n=$1; shift; timeout -k 10 120 mpirun --oversubscribe -np "$n" "$mpi" "$@"; }
csv="$tmp/out.csv"

for pol in rmtlb dasud steal pool dasud-ring; do
  # matmul at 2000, as farm_policies.sh: a shorter run can end before a
  # periodic policy has had its first period.
  for wl in "primes --size 3000000" "matmul --size 2000"; do
    rm -f "$csv"
    out=$(run 7 --policy $pol --workload $wl --procs 24 --init one --speeds 0.3 --seed 4 --out "$csv" 2>&1)
    rc=$?
    name="$pol $(echo $wl | cut -d' ' -f1)"
    [ $rc -eq 0 ] && [ "$(col verified)" = yes ] && ok "$name: verified" || { printf '%s\n' "$out" | tail -20; fail "$name: exit $rc"; }
    [ "$(col msgs_RESULT)" = 24 ] && ok "$name: 24 results" || fail "$name: $(col msgs_RESULT) results"
    [ "$(col migrated)" -gt 0 ] 2>/dev/null && ok "$name: $(col migrated) migrations" || fail "$name: nothing migrated"
    [ "$(col nodes)" = 6 ] && ok "$name: 6 hosts" || fail "$name: $(col nodes) hosts"
  done
done
# The trace over MPI: the same rows, the receipts under the envelopes'
# numbers, one clock (the ranks run on this machine).
tr=$tmp/trace.csv
run 7 --policy rmtlb --workload primes --size 3000000 --procs 24 --init one --speeds 0.3 --seed 4 --trace "$tr" \
  >"$tmp/out" 2>&1 || { tail -5 "$tmp/out"; fail "traced run"; }
chk() { command -v python3 >/dev/null || { echo "(no python3: trace_check.py not run)"; return 0; }
        python3 "$top_srcdir/tests/trace_check.py" "$tr" --json "$tmp/trace.json"; }
grep -qx '# driver: lbmpi' "$tr" && grep -q '^# clock: shared' "$tr" && "$top_builddir/tools/lbtrace" check "$tr" >/dev/null &&
  "$top_builddir/tools/lbtrace" --perfetto -o "$tmp/trace.json" "$tr" && chk >"$tmp/chk" 2>&1 &&
  ok "lbmpi --trace: $(cat "$tmp/chk")" || fail "lbmpi --trace: $(cat "$tmp/chk" 2>/dev/null; head -8 "$tr")"

# One schema: lbmpi's file starts with lbsim's header, and says who wrote it.
[ "$(head -1 "$csv")" = "$("$top_builddir/sim/lbsim" --csv-header)" ] && [ "$(col driver)" = lbmpi ] \
  && ok "lbmpi writes lbsim's header" || fail "lbmpi's header or driver ($(col driver)) differs"

# The same run on both runtimes: with none and an even start nothing
# moves, so each host runs the same processes, unit for unit.
pvm_private
same="--workload primes --size 600000 --hosts 3 --procs 9 --init even --seed 7"
run 4 $same --hosts-csv "$tmp/mpi.csv" >/dev/null 2>&1
"$top_builddir/master/lbmaster" $same --hosts-csv "$tmp/pvm.csv" >/dev/null 2>&1
a=$(hostcol units "$tmp/mpi.csv") b=$(hostcol units "$tmp/pvm.csv")
[ -n "$a" ] && [ "$a" = "$b" ] && ok "units per host equal under MPI and PVM: $a" || fail "units: MPI '$a', PVM '$b'"

out=$(run 4 --hosts 3 --workload primes --size 200000 --inject-junk 2>&1)
n=$(printf '%s\n' "$out" | grep -c 'dropped a message from rank 0')
[ "$n" = 6 ] && printf '%s\n' "$out" | grep -q 'verified: yes' && ok "junk dropped (6) and the run verified" \
  || fail "junk: $n drops"
# A rank that stops once every result is in (SIGSTOP, --inject-silent):
# its lease runs out, the run is written verified, lbmpi ends the job
# (MPI cannot end one rank) and the frozen rank dies with SIGKILL in its
# host-speed cgroup; none of the job's ranks' cgroups is left.
rm -f "$csv"
run 7 --policy rmtlb --workload primes --size 3000000 --procs 24 --init one --speeds 0.3 --seed 4 \
  --inject-silent 3 --timeout 60 --out "$csv" >"$tmp/silent.out" 2>&1 &
job=$!
# ours PID: PID descends from this job
ours() { p=$1; for _ in 1 2 3 4 5 6; do p=$(ps -o ppid= -p "$p" 2>/dev/null | tr -d ' '); [ "$p" = "$job" ] && return 0; [ -n "$p" ] || return 1; done; return 1; }
ranks= i=0
while [ $i -lt 100 ]; do # the ranks: lbmpi processes of this job
  ranks=$(for r in $(pgrep -x lbmpi 2>/dev/null); do ours "$r" && echo "$r"; done | tr '\n' ' ')
  [ "$(echo $ranks | wc -w)" = 7 ] && break
  sleep 0.1; i=$((i + 1))
done
[ "$(echo $ranks | wc -w)" = 7 ] && ok "silent rank: 7 ranks started" || fail "silent rank: ranks '$ranks'"
had=0
while [ $i -lt 150 ] && [ "$had" = 0 ]; do # their cgroups, once made
  for r in $ranks; do [ -n "$(worker_cgroups $r)" ] && had=$((had + 1)); done
  [ "$had" = 0 ] && { sleep 0.1; i=$((i + 1)); }
done
wait $job
grep -q 'taken for failed' "$tmp/silent.out" && [ "$(col verified)" = yes ] && [ "$(col fenced)" -ge 1 ] \
  && ok "silent rank: fenced ($(col fenced)), the run verified, the job ended" \
  || { tail -8 "$tmp/silent.out"; fail "silent rank: verified '$(col verified)', fenced '$(col fenced)'"; }
left=x i=0
while [ $i -lt 150 ]; do # the cleaner has 10 s
  left=$(for r in $ranks; do worker_cgroups $r; done)
  [ -z "$left" ] && break
  sleep 0.1; i=$((i + 1))
done
if [ "$had" = 0 ]; then echo "(no host-speed cgroup could be made here: nothing to leave)"
elif [ -z "$left" ]; then ok "silent rank: every cgroup of the ranks gone ($had seen while running)"
else fail "silent rank: cgroups left: $left"; fi
for r in $ranks; do kill -KILL "$r" 2>/dev/null; done
"$mpi" --help | grep -q '^Usage: mpirun' && ok "lbmpi --help without mpirun" || fail "lbmpi --help"
expect_status 2 "--policy: unknown policy 'fastest'" "$mpi" --policy fastest
out=$(run 3 --hosts 5 2>&1)
[ $? -ne 0 ] && printf '%s\n' "$out" | grep -q '5 hosts need 6 MPI ranks' && ok "5 hosts on 3 ranks refused" \
  || fail "rank count not checked: $out"
finish
