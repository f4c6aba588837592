#!/bin/sh
# lbsim as a user runs it: help, bad input (exit 2), a repeatable run,
# the load CSV and the message trace.
. "${LB_TOP_SRCDIR:-.}/tests/lib.sh"
S=$top_builddir/sim/lbsim
tmp=$(mktemp -d); at_exit 'rm -rf "$tmp"'

"$S" --help | grep -q '^Usage: lbsim' && ok "--help" || fail "--help"
expect_status 2 "unknown policy 'fastest'" "$S" --policy fastest
expect_status 2 "unknown topology 'blob:3'" "$S" --topology blob:3
expect_status 2 "pool node 9 outside 4 nodes" "$S" -p pool --pool-node 9 -t ring:4
expect_status 2 "--steal-amount: unknown value 'three' (one, half)" "$S" -p steal --steal-amount three
expect_status 2 "--dasud-ring-timeout: -1 is outside [0,1e+12]" "$S" -p dasud-ring --dasud-ring-timeout -1
expect_status 2 "unknown load 'heavy'" "$S" --load heavy
expect_status 2 "--seed: 'x' is not" "$S" --seed x
expect_status 2 "--jitter" "$S" --jitter -1
expect_status 2 "unexpected argument 'extra'" "$S" extra
expect_status 2 "--speeds: 2 values for 6 nodes" "$S" -t ring:6 --speeds 1,2
expect_status 2 "cannot open trace" "$S" --load "trace:$tmp/none.txt"
printf '0 0 5\n1 9 2\n' >"$tmp/bad.txt"
expect_status 2 "bad.txt:2: expected 'time node work [estimate]'" "$S" -t ring:6 --load "trace:$tmp/bad.txt"
expect_status 2 "unknown option '--frob'" "$S" --frob

"$S" -p rmtlb -t torus:6x6 -s 5 --jitter 1 >"$tmp/a.txt" || fail "rmtlb run exit status"
"$S" -p rmtlb -t torus:6x6 -s 5 --jitter 1 >"$tmp/b.txt"
cmp -s "$tmp/a.txt" "$tmp/b.txt" && ok "same seed, same output" || fail "runs differ"
grep -q '^violations      0$' "$tmp/a.txt" && ok "no violations" || fail "violations: $(cat "$tmp/a.txt")"

col() { awk -F, -v k="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == k) c = i; next } { print $c }'; }
printf '# time node work\n0 0 5\n0 0 5\n2.5 3 1\n' >"$tmp/tr.txt"
"$S" -p none -t ring:6 --load "trace:$tmp/tr.txt" --csv >"$tmp/tr.csv"
# none: node 0 runs 10 units back to back; node 3 finishes at 3.5.
[ "$(for c in policy topology nodes procs seed makespan; do printf '%s,' "$(col $c <"$tmp/tr.csv")"; done)" = \
  none,ring:6,6,3,1,10, ] && ok "trace makespan 10" || fail "trace run: $(cat "$tmp/tr.csv")"
# --host-setup: each node spends it once, before its first quantum; the
# ideal leaves it out.  Node 0: 4 + 10; node 3 (from 2.5): 2.5 + 4 + 1.
"$S" -p none -t ring:6 --load "trace:$tmp/tr.txt" --host-setup 4 --csv >"$tmp/su.csv"
[ "$(col makespan <"$tmp/su.csv"),$(col ideal <"$tmp/su.csv" | cut -c1-5)" = "14,1.833" ] \
  && ok "host set-up: makespan 14" || fail "host set-up: $(cat "$tmp/su.csv")"
printf '0 1 5\n0 1 5\n' >"$tmp/su2.txt"
"$S" -p none -t ring:6 --load "trace:$tmp/su2.txt" --host-setup 2 --speeds 1,2,1,1,1,1 --csv >"$tmp/su2.csv"
[ "$(col makespan <"$tmp/su2.csv")" = 6 ] && ok "host set-up at speed 2: 1 + 5" || fail "host set-up, speed 2: $(cat "$tmp/su2.csv")"
expect_status 2 "--host-setup" "$S" --host-setup -1
# --rates: the CPU a node gets, apart from the speed its policy knows
"$S" -p none -t ring:6 --load "trace:$tmp/su2.txt" --host-setup 2 --rates 1,2,1,1,1,1 --csv >"$tmp/su3.csv"
[ "$(col makespan <"$tmp/su3.csv"),$(col speeds <"$tmp/su3.csv")" = 6,1 ] \
  && ok "--rates: node 1 computes at 2, its speed stays 1" || fail "--rates: $(cat "$tmp/su3.csv")"
expect_status 2 "--rates: 2 values for 6 nodes" "$S" -t ring:6 --rates 1,2
expect_status 2 "--rates value 2: '0' is not a number" "$S" -t ring:6 --rates 1,0,1,1,1,1
# --bandwidth pack: 1 / the cost a byte, whichever option comes first
[ "$("$S" -p none -t ring:6 -n 6 --bandwidth pack --cost-byte 0.25 --csv | col bandwidth)" = 4 ] \
  && [ "$("$S" -p none -t ring:6 -n 6 --cost-byte 0.5 --bandwidth pack --csv | col bandwidth)" = 2 ] \
  && [ "$("$S" -p none -t ring:6 -n 6 --bandwidth pack --csv | col bandwidth)" = 0 ] \
  && ok "--bandwidth pack" || fail "--bandwidth pack"
expect_status 2 "--bandwidth: 'packed' is not a number" "$S" --bandwidth packed
# A fourth column is the work the application declares (>= 0).
printf '0 0 5 4.5\n0 0 5 0\n' >"$tmp/est.txt"
"$S" -p rmtlb -t ring:6 --load "trace:$tmp/est.txt" --rmtlb-drain 2 --rmtlb-estimate declared --csv >"$tmp/est.csv" \
  && [ "$(col violations <"$tmp/est.csv")" = 0 ] && ok "a trace with declared estimates" || fail "declared trace"
printf '0 0 5 -1\n' >"$tmp/est.txt"
expect_status 2 "est.txt:1: expected 'time node work [estimate]'" "$S" -t ring:6 --load "trace:$tmp/est.txt"

# 12 processes on node 0 of ring:6: two stay, two go to each other node,
# 1 + 2 + 3 + 2 + 1 hops each pair.
"$S" -p none -t ring:6 -l one -n 12 --csv >"$tmp/opt.csv"
[ "$(col hops_optimal <"$tmp/opt.csv")" = 18 ] && [ "$(col hops_ratio <"$tmp/opt.csv")" = 0 ] \
  && ok "transport optimum 18 process-hops" || fail "optimum: $(cat "$tmp/opt.csv")"
[ -z "$("$S" -p none -t ring:6 -l one -n 12 --csv --no-optimum | col hops_optimal)" ] \
  && ok "--no-optimum leaves the column empty" || fail "--no-optimum"

# A polling node, as the farm's worker, takes the messages that came
# during a quantum before the timers that fell due in it: LOWEST's REPLY
# (arriving at 12, mid-quantum) beats its timeout (due at 15), so the
# TRANSFER goes at the quantum's end, 20, not after another round.
printf '0 0 30\n0 0 30\n0 0 30\n' >"$tmp/tr3.txt"
"$S" -t complete:2 -p lowest --probes 1 --poll 1 --quantum 10 --tmax 5 -C 1 --load "trace:$tmp/tr3.txt" \
  --msg-trace "$tmp/poll.csv" >/dev/null
[ "$(awk -F, '$3 == "TRANSFER" && $12 == "send" { print $1 + 0; exit }' "$tmp/poll.csv")" = 20 ] \
  && ok "messages before timers at a quantum's end" || fail "poll order: $(cat "$tmp/poll.csv")"

# Ties go to messages: on complete:6 the AMs come back exactly when the
# flood's window (Tmax = 2 x hop time x eccentricity) closes, and they
# count, so one flood places all 20 of the excess in the 20 free seats.
awk 'BEGIN { for (k = 0; k < 25; k++) print 0, 0, 200; for (i = 1; i < 6; i++) print 0, i, 200 }' >"$tmp/claim.txt"
"$S" -p rmtlb -t complete:6 -C 4 -A 1 --load "trace:$tmp/claim.txt" --csv >"$tmp/claim.csv"
[ "$(col invocations <"$tmp/claim.csv"),$(col migrated <"$tmp/claim.csv")" = 1,20 ] \
  && ok "an answer at the window's end counts: one flood places 20" || fail "tie: $(cat "$tmp/claim.csv")"

# Fewer processes than nodes (shares below 1): CCHSPMD still spreads
# them, one per node, keeping one at the start.
printf '0 0 5\n0 0 5\n0 0 5\n0 0 5\n0 0 5\n' >"$tmp/five.txt"
[ "$("$S" -p cchspmd -t ring:8 --load "trace:$tmp/five.txt" --csv | col migrated)" = 4 ] \
  && ok "cchspmd spreads 5 processes over 8 nodes" || fail "cchspmd with shares below 1"

"$S" -p rmtlb -t ring:8 -l one --load-csv "$tmp/load.csv" --sample 2 --msg-trace "$tmp/msg.csv" >/dev/null
head -1 "$tmp/load.csv" | grep -q '^time,queued,max,min,heavy,light$' && ok "load csv header" || fail "load csv"
[ "$(sed -n 2p "$tmp/load.csv" | cut -d, -f2)" = 64 ] && ok "all 64 queued at t=0" || fail "load csv row: $(sed -n 2p "$tmp/load.csv")"
grep -q ',RM,' "$tmp/msg.csv" && grep -q ',DRM,' "$tmp/msg.csv" && ok "message trace" || fail "message trace"
finish
