#!/bin/sh
# MODI vs GLPK on 200x200 transport problems and Hu-Blake CG on a
# 32x32 torus; ratios measured in one run (docs/PERFORMANCE.md).
# Usage: experiments/bench/planners.sh [OUTDIR]   (run from the build dir)
set -eu
case ${1:-} in
  -h|--help) sed -n '2,4p' "$0"; exit 0 ;;
  -*) echo "planners.sh: unknown option '$1' (try --help)" >&2; exit 2 ;;
esac
out=${1:-out/bench}
mkdir -p "$out"
make -s experiments/bench/bench_planners
./experiments/bench/bench_planners 200 5 32 | tee "$out/planners.csv"
