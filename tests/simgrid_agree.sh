#!/bin/sh
# lbsimgrid agrees with lbsim where the network is not congested: on
# torus:4x4 with the farm's costs (--profile farm: latency 0.01, 2e6
# bytes per time unit, messages of at most a few hundred bytes), every
# policy lbsim --help lists, seeds 1-40.
#   - every run of both ends with 0 violations, on the same workload
#     (the same processes and ideal makespan);
#   - policy none (no messages) gives the same makespan to 1e-9;
#   - the links are idle: lbsim's bytes fill under 1 % of their capacity
#     over the run;
#   - for each policy the mean makespan over the seeds is within 2 % of
#     lbsim's.
# A single run may differ more: at a tie (two events at one instant) the
# two engines may take them in another order, and a balancing run
# amplifies that (docs/SIMULATOR.md, "SimGrid as a peer").  SKIP (77)
# where SimGrid is not installed.
. "${LB_TOP_SRCDIR:-.}/tests/lib.sh"
S=$top_builddir/sim/lbsim
G=$top_builddir/simgrid/lbsimgrid
[ -x "$G" ] || { echo "SKIP: lbsimgrid not built (configure found no SimGrid: apt-get install libsimgrid-dev g++)"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lbfarm-sg.XXXXXX"); at_exit 'rm -rf "$tmp"'
args="-t torus:4x4 --profile farm"
seeds=40
pols=$("$S" --help | sed -n '/^Policies/,/^$/p' | awk '/^  [a-z]/ { print $1 }')
[ "$(echo $pols | wc -w)" -ge 7 ] && ok "policies: $(echo $pols)" || fail "policies from lbsim --help: $pols"

# column NAME of the data row of a CSV file
cell() { awk -F, -v k="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == k) c = i; next } { print $c }' "$2"; }

for pol in $pols; do
  s=1
  while [ $s -le $seeds ]; do
    "$S" -p $pol -s $s $args --csv >"$tmp/a.csv" 2>"$tmp/a.err" || fail "lbsim $pol seed $s: exit $? ($(cat "$tmp/a.err"))"
    "$G" -p $pol -s $s $args --csv >"$tmp/b.csv" 2>"$tmp/b.err" || fail "lbsimgrid $pol seed $s: exit $? ($(cat "$tmp/b.err"))"
    for k in a b; do
      [ "$(cell violations "$tmp/$k.csv")" = 0 ] || fail "$k $pol seed $s: violations"
    done
    [ "$(cell ideal "$tmp/a.csv")" = "$(cell ideal "$tmp/b.csv")" ] && [ "$(cell procs "$tmp/a.csv")" = "$(cell procs "$tmp/b.csv")" ] \
      || fail "$pol seed $s: another workload ($(cell ideal "$tmp/a.csv") / $(cell ideal "$tmp/b.csv"))"
    echo "$pol $s $(cell makespan "$tmp/a.csv") $(cell makespan "$tmp/b.csv") $(cell bytes "$tmp/a.csv")" >>"$tmp/runs"
    s=$((s + 1))
  done
done

# none: the same quanta, and nothing else, on both.
awk '$1 == "none" { d = ($4 - $3) / $3; if (d < 0) d = -d; if (d > m) m = d } END { exit !(m < 1e-9) }' "$tmp/runs" \
  && ok "none: the same makespans" || fail "none: makespans differ"
# 64 link directions of 2e6 bytes per time unit (the farm profile's).
awk '{ u = $5 / (64 * 2e6 * $3); if (u > m) m = u } END { printf "largest link use: %.2g of the capacity\n", m; exit !(m < 0.01) }' \
  "$tmp/runs" && ok "uncongested" || fail "the links are busy: not the uncongested case"
for pol in $pols; do
  [ "$pol" = none ] && continue
  line=$(awk -v p=$pol '$1 == p { a += $3; b += $4; d = ($4 - $3) / $3; if (d < 0) d = -d; if (d > m) m = d; n++ }
    END { printf "%s: mean makespan %.4f (lbsim) %.4f (lbsimgrid), %+.2f %%; largest single difference %.1f %%", p, a / n, b / n, (b - a) / a * 100, m * 100 }' "$tmp/runs")
  awk -v p=$pol '$1 == p { a += $3; b += $4 } END { d = (b - a) / a; exit !(d <= 0.02 && d >= -0.02) }' "$tmp/runs" \
    && ok "$line" || fail "$line"
done
finish
