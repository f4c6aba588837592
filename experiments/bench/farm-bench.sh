#!/bin/sh
# farm-bench.sh: benchmarks of the PVM task farm (docs/PERFORMANCE.md,
# section "PVM task farm").  Not a test: numbers depend on the machine
# and its load; every figure is a ratio or a cost measured in one run.
#   1. matmul kernel: GFLOP/s of a farm process run in quanta of q rows
#      vs one OpenBLAS dgemm of the whole product, single-threaded;
#   2. PVM round trip and bandwidth between two tasks on one host
#      (a private pvmd);
#   3. the same between two tasks on one namespace host and across two
#      namespace hosts (only as root, via scripts/cluster-up.sh);
#   4. makespan / ideal makespan for none and rmtlb, both workloads, six
#      emulated hosts of speed 0.33 (2 cores' worth), all load on host 0,
#      in two designs: 48 processes with the default capacities (each
#      host's share), and many processes (primes 480, matmul 240) with
#      C = 8, so the heavy host keeps a reservoir the others draw from.
# Usage: experiments/bench/farm-bench.sh [--builddir DIR] [--out DIR] [--makespan-only]
# CSV files go to DIR (default out/bench under the build directory).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
build=$src
out=
only=
while [ $# -gt 0 ]; do
  case $1 in
  --builddir) build=$(cd "$2" && pwd); shift 2 ;;
  --out) out=$2; shift 2 ;;
  --makespan-only) only=1; shift ;;
  -h|--help) sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
  *) echo "farm-bench.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
out=${out:-$build/out/bench}
mkdir -p "$out"
make -C "$build" -s experiments/bench/farm_kernel experiments/bench/farm_pingpong master/lbmaster worker/lbworker
if [ -z "$only" ]; then
kern=$build/experiments/bench/farm_kernel
pp=$build/experiments/bench/farm_pingpong

echo "== matmul kernel vs OpenBLAS dgemm (1 thread) -> $out/farm_kernel.csv"
: >"$out/farm_kernel.csv"
for n in 512 1024 2048; do
  "$kern" "$n" "1,16,128,$n" 3 | { [ -s "$out/farm_kernel.csv" ] && sed 1d || cat; } >>"$out/farm_kernel.csv"
done
cat "$out/farm_kernel.csv"

# strip "[tNNN] " and keep the CSV lines of the ping task
clean() { sed -n 's/^\(\[[^]]*\] \)*//; /^[0-9b]/p' | grep -v 'BEGIN\|EOF\|libpvm'; }

echo "== PVM round trip, one host (private pvmd) -> $out/farm_pvm_local.csv"
tmp=$(mktemp -d)
(
  export PVM_TMP=$tmp PVM_VMID=bench$$ PVM_ALLOW_ROOT=yes
  pvmd >/dev/null 2>&1 &
  sleep 0.5
  timeout 120 "$pp" . . | clean >"$out/farm_pvm_local.csv" || true
  echo halt | pvm >/dev/null 2>&1 || true
)
rm -rf "$tmp"
cat "$out/farm_pvm_local.csv"

echo "== PVM round trip, namespace hosts -> $out/farm_pvm_ns_same.csv, farm_pvm_ns_across.csv"
state=$(mktemp -d)
if "$src/scripts/cluster-up.sh" --builddir "$build" --state "$state" >/dev/null 2>&1; then
  timeout 120 "$src/scripts/cluster-run.sh" --state "$state" "$pp" h2 h2 | clean >"$out/farm_pvm_ns_same.csv" || true
  timeout 120 "$src/scripts/cluster-run.sh" --state "$state" "$pp" h2 h3 | clean >"$out/farm_pvm_ns_across.csv" || true
  "$src/scripts/cluster-down.sh" --state "$state" >/dev/null 2>&1
  echo "same namespace host:"; cat "$out/farm_pvm_ns_same.csv"
  echo "across namespace hosts:"; cat "$out/farm_pvm_ns_across.csv"
else
  echo "(skipped: namespaces cannot be created here)"
  rm -rf "$state"
fi

fi

echo "== makespan / ideal, six hosts at speed 0.33, all load on host 0 -> $out/farm_makespan.csv"
rm -f "$out/farm_makespan.csv"
tmp=$(mktemp -d)
(
  export PVM_TMP=$tmp PVM_VMID=bench$$ PVM_ALLOW_ROOT=yes
  # design: processes for primes, for matmul, then capacity options
  for design in "48 48" "480 240 --capacities 8"; do
    set -- $design
    pp=$1 pm=$2; shift 2
    for pol in none rmtlb; do
      for wl in "primes --size 20000000 --procs $pp" "matmul --size 3000 --procs $pm"; do
        "$build/master/lbmaster" --workload $wl "$@" --hosts 6 --init one --policy $pol --speeds 0.33 \
          --seed 2 --out "$out/farm_makespan.csv" >/dev/null 2>&1 || echo "($pol $wl $* failed)"
      done
    done
  done
)
rm -rf "$tmp"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
  { print $c["policy"], $c["workload"], $c["size"], $c["procs"], $c["makespan_s"], $c["ideal_makespan_s"], $c["ratio"],
          $c["migrations"], $c["verified"] }' "$out/farm_makespan.csv" | column -t
