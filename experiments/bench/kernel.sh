#!/bin/sh
# The farm's matmul kernel against OpenBLAS dgemm, one thread, CPU time
# (docs/PERFORMANCE.md), at the block shapes the farm runs on six hosts:
# lbmaster's default of 4 processes per host (24) and farm-bench.sh's 48,
# at n = 4000 and 8000, in quanta of the columns that ~10 ms of CPU
# computes at ~50 GFLOP/s (the worker sizes quanta to its --quantum).
# The farm side runs the first BLOCKS processes, the reference is one
# dgemm of the same rows.  Run by run.sh (`make bench`); alone:
#   BENCH_CSV=file BENCH_OUT=dir experiments/bench/kernel.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
bench_start "$@"
fk=${LB_TOP_BUILDDIR:-.}/experiments/bench/farm_kernel
[ -x "$fk" ] || make -s experiments/bench/farm_kernel
: >"$out/kernel.csv"
# n, processes, processes timed
for s in "4000 24 12" "4000 48 24" "8000 24 2" "8000 48 4"; do
  set -- $s
  n=$1 p=$2 b=$3
  k=$(awk -v n="$n" -v p="$p" 'BEGIN { printf "%d", 5e8 / (2 * n / p * n) + 0.5 }')
  "$fk" "$n" "$p" "$k" 3 "$b" | tee -a "$out/kernel.csv" | tail -1 >"$out/kernel.last"
  IFS=, read -r _ _ rows _ _ farm dg _ ratio _ <"$out/kernel.last"
  bench_row "matmul kernel n=$n, $p processes ($rows rows), quanta of $k columns" gflops "$farm" "$dg" "$ratio" 1 \
    "farm_kernel $n $p $k 3 $b"
done
rm -f "$out/kernel.last"
