#!/bin/sh
# Transport solver against LEMON's NetworkSimplex (C++, Debian
# liblemon-dev) and HiGHS (scipy.optimize.linprog, Debian python3-scipy)
# on the instances of planners.sh: 200 x 200 (five) and 1000 x 1000
# (two).  CPU time, one thread each, identical optimal costs checked.
# LEMON and scipy are benchmark-only dependencies, installed here.
# Run by run.sh (`make bench`); alone:
#   BENCH_CSV=file BENCH_OUT=dir experiments/bench/transport.sh
set -eu
. "$(dirname "$0")/lib.sh"
bench_start "$@"
build=$(lb_builddir)
mkdir -p "$out/tp"
bench_need_debs python3-numpy python3-scipy liblemon-dev g++
bp=$build/experiments/bench/bench_planners
[ -x "$bp" ] || make -s experiments/bench/bench_planners
[ -f "$build/lb/liblb.a" ] || make -s lb/liblb.a
${CXX:-g++} -O2 -I"$here/../../lb" -o "$out/tp_lemon" "$here/tp_lemon.cc" "$build/lb/liblb.a" -lm

for sz in "200 5" "1000 2"; do
  set -- $sz
  m=$1 k=$2
  "$bp" --dump "$out/tp" --glpk-reps 0 --reps 1 "$m" "$k" 0 >/dev/null
  files=$(seq 1 "$k" | sed "s|.*|$out/tp/tp-$m-&.bin|")
  "$out/tp_lemon" 5 $files | tee "$out/lemon-$m.csv"
  OPENBLAS_NUM_THREADS=1 /usr/bin/python3 "$here/tp_highs.py" 3 $files | tee "$out/highs-$m.csv"
  set -- $(awk -F, 'FNR == 1 { next }
      FILENAME ~ /lemon/ { if ($4 != $6 || $5 != $6) bad = 1; c[$1] = $6; n += $7; v += $8; l += $9; k++ }
      FILENAME ~ /highs/ { if ($4 != c[$1]) bad = 1; h += $5 }
      END { if (bad) { print "costs differ" > "/dev/stderr"; exit 1 } printf "%d %.6g %.6g %.6g %.6g\n", k, n, v, l, h }' \
      "$out/lemon-$m.csv" "$out/highs-$m.csv")
  n=$2 v=$3 l=$4 h=$5
  what="transport ${m}x$m ($1 instances; identical optimal costs)"
  cmd="experiments/bench/transport.sh (tp_lemon 5, tp_highs.py 3 on bench_planners --dump)"
  bench_row "$what vs LEMON NetworkSimplex, Vogel start" cpu_s "$v" "$l" "$(bench_div "$l" "$v")" 1 "$cmd"
  bench_row "$what vs LEMON NetworkSimplex, NW corner start" cpu_s "$n" "$l" "$(bench_div "$l" "$n")" 1 "$cmd"
  bench_row "$what vs HiGHS (scipy linprog), Vogel start" cpu_s "$v" "$h" "$(bench_div "$h" "$v" %.1f)" 1 "$cmd"
  bench_row "$what vs HiGHS (scipy linprog), NW corner start" cpu_s "$n" "$h" "$(bench_div "$h" "$n" %.1f)" 1 "$cmd"
done
