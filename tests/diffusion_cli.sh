#!/bin/sh
# lbarrange and lbdiffuse: bad input gives a clear message and exit 2;
# good input gives answers checked by a second route.
. "${LB_TOP_SRCDIR:-.}/tests/lib.sh"
A=$top_builddir/tools/lbarrange
D=$top_builddir/tools/lbdiffuse
G=$top_srcdir/data/graphs
tmp=$(mktemp -d); at_exit 'rm -rf "$tmp"'

for p in "$A" "$D"; do
  "$p" --help | grep -q Usage && ok "$p --help" || fail "$p --help"
done
printf 'nodes 4\n1: 2\n2: 1\n3: 4\n4: 3\n' >"$tmp/split.graph"
expect_status 2 "not connected" "$A" "$tmp/split.graph"
expect_status 2 "not connected" "$D" "$tmp/split.graph"
expect_status 2 "speed 0 <= 0 at node 2" "$A" -s 1,0,3,4 ring:4
expect_status 2 "speed -1 <= 0 at node 3" "$A" -s 1,2,-1,4 ring:4
expect_status 2 "3 speeds given for 4 nodes" "$A" -s 1,2,3 ring:4
expect_status 2 "3 speeds given for 4 nodes" "$D" --scheme hetero -s 1,2,3 ring:4
expect_status 2 "speed 0 <= 0 at node 1" "$D" --scheme hetero -s 0,2,3,4 ring:4
expect_status 2 "P = 11 > 10" "$A" -m exhaustive ring:11
expect_status 2 "unknown method 'best'" "$A" -m best ring:4
expect_status 2 "'x' is not" "$A" -n x ring:4
expect_status 2 "--hist needs --method montecarlo" "$A" --hist "$tmp/h.csv" ring:4
expect_status 2 "expected one TOPOLOGY" "$A"
expect_status 2 "unknown option" "$A" --frobnicate ring:4
expect_status 2 "unknown scheme 'third'" "$D" --scheme third ring:4
expect_status 2 "--beta needs --scheme second" "$D" --beta 1.5 ring:4
expect_status 2 "--beta: '2.5' is not" "$D" --scheme second --beta 2.5 ring:4
expect_status 2 "--tau needs --scheme hetero" "$D" --tau safe ring:4
expect_status 2 "diffusion would not converge" "$D" --scheme hetero --tau 5 ring:4
expect_status 2 "--integer applies to first and second order only" "$D" --scheme hetero -i ring:4

"$A" --help | grep -q 'divides them' && "$A" --help | grep -q 'by the slowest first' \
  && ok "--help says -s speeds are divided by the slowest" || fail "--help on the speed scaling"
expect_status 2 "--alpha: unknown coefficient 'uniform'" "$D" -a uniform ring:4
expect_status 2 "--alpha: unknown coefficient 'ring:4'" "$D" -a ring:4
expect_status 2 "option '-a' needs an argument" "$D" ring:4 -a
expect_status 2 "--alpha: '0' is not a number in" "$D" -a 0 ring:4
"$D" -a 1/5 --csv ring:4 | awk -F, 'NR == 2 { exit !($5 == 0.2) }' && ok "--alpha 1/5" || fail "--alpha 1/5"

# Outputs are checked before the work: nothing is printed, exit 2.
out=$("$A" -m montecarlo -n 1000 --csv -H "$tmp/no/h.csv" ring:6 2>/dev/null); rc=$?
[ "$rc" = 2 ] && [ -z "$out" ] && ok "--hist checked before the search" || fail "--hist late: $rc $out"
out=$("$D" --csv -T "$tmp/no/t.csv" ring:6 2>/dev/null); rc=$?
[ "$rc" = 2 ] && [ -z "$out" ] && ok "--trace checked before the run" || fail "--trace late: $rc $out"
expect_status 2 "--hist: '$tmp' is a directory" "$A" -m montecarlo -H "$tmp" ring:4
# An interrupted run leaves the old histogram as it was and no
# temporary file.  The wait loop is only a hang guard.
echo old >"$tmp/keep.csv"
"$A" -m montecarlo -n 100000000 -H "$tmp/keep.csv" mesh:8x8 >/dev/null 2>&1 &
pid=$!
k=0
while [ -z "$(ls -A "$tmp" | grep '^\.keep\.csv\.')" ] && [ $k -lt 600 ]; do sleep 0.1; k=$((k + 1)); done
kill -TERM "$pid"; wait "$pid"
[ "$(cat "$tmp/keep.csv")" = old ] && [ -z "$(ls -A "$tmp" | grep '^\.keep')" ] \
  && ok "interrupted: old file kept, no temporary left" || fail "interrupted run: $(ls -A "$tmp")"

# Monte Carlo mean and sd of p.  With two draws they are known whatever
# the draws: mean = (p_min + p_max)/2, sd = (p_max - p_min)/sqrt(2).  With
# one, sd = 0 and mean = p_min = p_max.  Equal speeds: p = 3 always.
csv=$tmp/mc.csv
"$A" -m montecarlo -n 2 -S 5 --csv mesh:3x3 >"$csv"
awk -F, 'NR == 2 { m = ($5 + $6) / 2; s = ($6 - $5) / sqrt(2)
  exit !($6 > $5 && ($16 - m) ^ 2 < 1e-24 * m * m && ($17 - s) ^ 2 < 1e-24 * m * m) }' "$csv" \
  && ok "mean and sd of two draws" || fail "mean/sd n=2: $(cat "$csv")"
"$A" -m montecarlo -n 1 --csv mesh:3x3 >"$csv"
awk -F, 'NR == 2 { exit !($16 == $5 && $16 == $6 && $17 == 0) }' "$csv" \
  && ok "mean and sd of one draw" || fail "mean/sd n=1: $(cat "$csv")"
"$A" -m montecarlo -n 20001 -s 2,2,2,2,2,2,2,2 --csv hypercube:3 >"$csv"
awk -F, 'NR == 2 { exit !(($16 - 3) ^ 2 < 1e-20 && $17 < 1e-9) }' "$csv" \
  && ok "equal speeds: mean 3, sd 0 across chunks" || fail "mean/sd equal: $(cat "$csv")"
"$A" -m montecarlo -n 300 mesh:3x3 | grep -q '^  mean p = [0-9.]*, sd = [0-9.]*$' \
  && ok "text shows mean and sd" || fail "text mean/sd"
"$A" -m exhaustive --csv ring:5 | awk -F, 'NR == 2 { exit !(length($4) >= 15) }' \
  && ok "CSV p at full precision" || fail "CSV p digits"

# Hypercube of dimension 3, equal speeds: p = 2d/2 = 3 for every arrangement.
out=$("$A" -m exhaustive --csv -s 2,2,2,2,2,2,2,2 hypercube:3 | tail -1)
echo "$out" | awk -F, '{ exit !($4 > 2.999999 && $4 < 3.000001 && $5 > 2.999999 && $6 < 3.000001 && $12 == 40320) }' \
  && ok "hypercube p = 3 over 8! arrangements" || fail "hypercube: $out"
# Monte Carlo: the histogram holds every draw, and a seed repeats.
"$A" -m montecarlo -n 500 -S 9 -H "$tmp/h1.csv" --csv mesh:3x4 >"$tmp/m1.csv" &&
"$A" -m montecarlo -n 500 -S 9 -t 1 -H "$tmp/h2.csv" --csv mesh:3x4 >"$tmp/m2.csv" &&
cmp -s "$tmp/m1.csv" "$tmp/m2.csv" && cmp -s "$tmp/h1.csv" "$tmp/h2.csv" &&
  ok "montecarlo repeats from its seed" || fail "montecarlo not repeatable"
total=$(awk -F, 'NR > 1 { s += $2 } END { print s }' "$tmp/h1.csv")
[ "$total" = 500 ] && ok "histogram total 500" || fail "histogram total $total"
# 16-ring: the optimal alpha is 2/(lambda_2 + lambda_N) of the Laplacian,
# lambda_2 = 2 - 2 cos(2 pi/16), lambda_N = 4; in CSV to 1e-15.
"$D" --csv ring:16 | awk -F, 'NR == 2 { a = 2 / (6 - 2 * cos(atan2(0, -1) / 8)); d = $5 - a; exit !(d < 1e-15 && d > -1e-15) }' \
  && ok "optimal alpha at full precision" || fail "alpha digits"
"$D" -T "$tmp/tr.csv" --max-iter 5 ring:16 >/dev/null; rc=$?
[ "$rc" = 1 ] && [ "$(wc -l <"$tmp/tr.csv")" = 7 ] && awk -F, 'NR == 3 { exit !(length($2) >= 15) }' "$tmp/tr.csv" \
  && ok "trace kept for an unbalanced run, full precision" || fail "trace: $rc $(cat "$tmp/tr.csv")"
# 16-ring, first order with the optimal alpha: iterations within 10% of
# log(tol/imbalance)/log(gamma).
"$D" --scheme first --alpha optimal --csv ring:16 | tail -1 | awk -F, '{ exit !($8 > 0.9 * $9 && $8 < 1.1 * $9) }' \
  && ok "ring:16 first order meets the predicted count" || fail "ring:16 first order"
# Graph 1, speeds 1..9: tau_opt drives a time below 0, the safe tau not.
"$D" --scheme hetero --csv -s 1,2,3,4,5,6,7,8,9 "$G/seed002-g1.graph" | tail -1 |
  awk -F, '{ exit !($10 < 0) }' && ok "tau_opt breaks constraint (4)" || fail "tau_opt min time"
"$D" --scheme hetero --tau safe --csv -s 1,2,3,4,5,6,7,8,9 "$G/seed002-g1.graph" | tail -1 |
  awk -F, '{ exit !($10 >= 0 && $12 == 1) }' && ok "safe tau keeps times >= 0" || fail "safe tau"
finish
