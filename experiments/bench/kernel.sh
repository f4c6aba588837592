#!/bin/sh
# The farm's matmul processes against OpenBLAS dgemm of the same block
# of rows, one thread, CPU time (docs/PERFORMANCE.md), at the block
# shapes the farm runs on six hosts: lbmaster's default of 4 processes
# per host (24) and farm-bench.sh's 48, at n = 4000 and 8000, in panels
# of the values of k that ~10 ms of CPU computes at ~50 GFLOP/s (the
# worker sizes quanta to its --quantum).  The farm side runs the first
# BLOCKS processes, the reference is one dgemm per block; the two
# alternate, 5 pairs, and the ratio is the median of the pairs'.  A
# second row gives what the master's verification (Freivalds' test)
# costs against the run's compute.  farm_kernel names the BLAS it ran
# and fails if it is not OpenBLAS.  Run by run.sh (`make bench`); alone:
#   BENCH_CSV=file BENCH_OUT=dir experiments/bench/kernel.sh
set -eu
. "$(dirname "$0")/lib.sh"
bench_start "$@"
fk=${LB_TOP_BUILDDIR:-.}/experiments/bench/farm_kernel
[ -x "$fk" ] || make -s experiments/bench/farm_kernel
: >"$out/kernel.csv"
# n, processes, processes timed
for s in "4000 24 12" "4000 48 24" "8000 24 2" "8000 48 4"; do
  set -- $s
  n=$1 p=$2 b=$3
  k=$(awk -v n="$n" -v p="$p" 'BEGIN { printf "%d", 5e8 / (2 * n / p * n) + 0.5 }')
  "$fk" "$n" "$p" "$k" 5 "$b" 2>"$out/kernel.blas" | tee -a "$out/kernel.csv" | tail -1 >"$out/kernel.last"
  blas=$(sed -n 's/^farm_kernel: BLAS: OpenBLAS \([^ ]*\).*(core \([^)]*\)).*/OpenBLAS \1 \2/p' "$out/kernel.blas")
  [ -n "$blas" ] || { cat "$out/kernel.blas" >&2; echo "kernel.sh: the reference is not OpenBLAS" >&2; exit 1; }
  grep -q 'AVX-512' "$out/kernel.blas" && blas="$blas (AVX-512 unused)"
  IFS=, read -r _ _ rows _ _ _ farm _ dgb _ ratio lo hi vs cs _ <"$out/kernel.last"
  bench_row "matmul processes n=$n, $p processes ($rows rows), panels of $k; vs $blas dgemm per block (pairs $lo-$hi)" \
    gflops "$farm" "$dgb" "$ratio" 1 "farm_kernel $n $p $k 5 $b"
  bench_row "matmul verification (Freivalds) n=$n, $p processes: the master's CPU vs the run's compute" \
    cpu_s "$vs" "$cs" "$(bench_div "$cs" "$vs" %.1f)" 1 "farm_kernel $n $p $k 5 $b"
done
rm -f "$out/kernel.last" "$out/kernel.blas"
