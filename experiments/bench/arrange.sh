#!/bin/sh
# Arrangement search (docs/PERFORMANCE.md): lbarrange against numpy's
# batched eigvalsh on the same matrices, same threads on both sides.
# Run by run.sh (`make bench`); alone: BENCH_CSV=file experiments/bench/arrange.sh [REPS]
set -eu
. "$(dirname "$0")/lib.sh"
case ${1:-5} in
  [1-9]|[1-9][0-9]) bench_start ;;   # REPS
  *) bench_start "$@" ;;
esac
top_srcdir=${LB_TOP_SRCDIR:-$(cd "$here/../.." && pwd)}
lbarrange=${LB_TOP_BUILDDIR:-.}/tools/lbarrange
[ -x "$lbarrange" ] || { echo "$0: $lbarrange not found: run from the build directory" >&2; exit 2; }
bench_need_debs python3-numpy
export BENCH_CSV PYTHONDONTWRITEBYTECODE=1 OPENBLAS_NUM_THREADS=1
exec /usr/bin/python3 "$here/arrange_bench.py" "$lbarrange" "$top_srcdir/data/graphs/seed002-g1.graph" "${1:-5}"
