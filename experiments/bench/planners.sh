#!/bin/sh
# Centralised planners (docs/PERFORMANCE.md): our transport solver from
# both starts against GLPK's primal and dual simplex on 200 x 200 (five
# instances) and 1000 x 1000 (one; GLPK takes minutes there, skipped
# with BENCH_QUICK=1), and Hu-Blake CG against a dense LU solve.  CPU
# time, one thread each.  Run by run.sh (`make bench`); alone:
#   BENCH_CSV=file BENCH_OUT=dir experiments/bench/planners.sh
set -eu
. "$(dirname "$0")/lib.sh"
bench_start "$@"
bp=${LB_TOP_BUILDDIR:-.}/experiments/bench/bench_planners
[ -x "$bp" ] || make -s experiments/bench/bench_planners

# transport rows from bench_planners' CSV: sums over instances.
rows() {
  awk -F, -v m="$2" '$1 == m && $2 ~ /^[0-9]+$/ {
      if ($3 != $5 || $4 != $5 || $6 != $5) { print "costs differ" > "/dev/stderr"; exit 1 }
      n += $9; v += $10; p += $11; d += $12; k++ }
    END { if (!k) exit 1; printf "%d %.6g %.6g %.6g %.6g\n", k, n, v, p, d }' "$1"
}
transport() {   # SIZE INSTANCES REPS GLPK_REPS
  f=$out/planners-$1.csv
  cmd="bench_planners --reps $3 --glpk-reps $4 $1 $2 0"
  "$bp" --reps "$3" --glpk-reps "$4" "$1" "$2" 0 | tee "$f"
  set -- $(rows "$f" "$1") "$1"
  k=$1 nwc=$2 vog=$3 pri=$4 dua=$5 m=$6
  what="transport ${m}x$m ($k instances; identical optimal costs)"
  bench_row "$what vs GLPK primal, Vogel start" cpu_s "$vog" "$pri" "$(bench_div "$pri" "$vog" %.1f)" 1 "$cmd"
  bench_row "$what vs GLPK primal, NW corner start" cpu_s "$nwc" "$pri" "$(bench_div "$pri" "$nwc" %.1f)" 1 "$cmd"
  bench_row "$what vs GLPK dual, Vogel start" cpu_s "$vog" "$dua" "$(bench_div "$dua" "$vog" %.1f)" 1 "$cmd"
  bench_row "$what vs GLPK dual, NW corner start" cpu_s "$nwc" "$dua" "$(bench_div "$dua" "$nwc" %.1f)" 1 "$cmd"
}
transport 200 5 5 3
[ "${BENCH_QUICK:-0}" = 1 ] || transport 1000 1 3 1

"$bp" --glpk-reps 0 --reps 1 50 1 32 | tee "$out/planners-cg.csv"
set -- $(awk -F, '/^cg_iterations/ { getline; print $1, $2, $3 }' "$out/planners-cg.csv")
bench_row "Hu-Blake CG torus:32x32 ($1 iterations) vs dense LU" cpu_s "$2" "$3" "$(bench_div "$3" "$2" %.0f)" 1 \
  "bench_planners --glpk-reps 0 50 1 32"
