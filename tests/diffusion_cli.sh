#!/bin/sh
# lbarrange and lbdiffuse: bad input gives a clear message and exit 2;
# good input gives answers checked by a second route.
. "${LB_TOP_SRCDIR:-.}/tests/lib.sh"
A=$top_builddir/tools/lbarrange
D=$top_builddir/tools/lbdiffuse
G=$top_srcdir/data/graphs
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

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
expect_status 2 "--integer applies to first and second order only" "$D" --scheme hetero -i ring:4

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
# 16-ring, first order with the optimal alpha: iterations within 10% of
# log(tol/imbalance)/log(gamma).
"$D" --scheme first --alpha optimal --csv ring:16 | tail -1 | awk -F, '{ exit !($8 > 0.9 * $9 && $8 < 1.1 * $9) }' \
  && ok "ring:16 first order meets the predicted count" || fail "ring:16 first order"
finish
