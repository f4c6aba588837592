#!/bin/sh
# mpi-bench.sh: MPI against PVM on this machine (docs/PERFORMANCE.md,
# "MPI and PVM").  Not a test: numbers depend on the machine and its
# load.
#   1. round trip and bandwidth between two peers on this host through
#      the farm's own transport, PVM (a private pvmd, direct route) and
#      MPI (2 ranks), and plain blocking MPI for reference;
#   2. makespan / ideal makespan of the main job (RMTLB, primes 10^7,
#      six hosts of speed 0.30, all load on host 0) under lbmaster and
#      under lbmpi, RUNS runs each, alternating, and their medians.
# Usage: experiments/bench/mpi-bench.sh [--builddir DIR] [--out DIR] [--runs N]
# CSV files go to DIR (default out/bench under the build directory).
set -eu
lb_top=$(cd "$(dirname "$0")/../.." && pwd)
. "$lb_top/scripts/lib.sh"
lb_init
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
build=$src
out=
runs=3
while [ $# -gt 0 ]; do
  case $1 in
  --builddir) build=$(cd "$2" && pwd); shift 2 ;;
  --out) out=$2; shift 2 ;;
  --runs) runs=$2; shift 2 ;;
  -h|--help) sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
  *) echo "mpi-bench.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
out=${out:-$build/out/bench}
mkdir -p "$out"
command -v mpirun >/dev/null || { echo "mpi-bench.sh: no mpirun (apt-get install openmpi-bin)" >&2; exit 2; }
make -C "$build" -s experiments/bench/farm_pingpong experiments/bench/farm_pingpong_mpi master/lbmaster \
  worker/lbworker mpi/lbmpi
[ "$(id -u)" -eq 0 ] && export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
pp=$build/experiments/bench/farm_pingpong
echo "load before: $(cat /proc/loadavg)"

echo "== round trip, one host -> $out/mpi_pvm_pingpong.csv"
tmp=$(mktemp -d)
lb_on_exit 'rm -rf "$tmp"'
(
  export PVM_TMP=$tmp PVM_VMID=mbench$$ PVM_ALLOW_ROOT=yes
  pvmd >/dev/null 2>&1 &
  sleep 0.5
  timeout --foreground 120 "$pp" . . | sed -n 's/^\(\[[^]]*\] \)*//; /^\(transport\|pvm-\)/p' >"$tmp/pvm.csv" || true
  echo halt | pvm >/dev/null 2>&1 || true
)
timeout --foreground 120 mpirun --oversubscribe -np 2 "$pp"_mpi >"$tmp/mpi.csv"
{ cat "$tmp/pvm.csv"; sed 1d "$tmp/mpi.csv"; } >"$out/mpi_pvm_pingpong.csv"
column -s, -t "$out/mpi_pvm_pingpong.csv"

echo "== makespan / ideal, main job, $runs runs each -> $out/mpi_pvm_makespan.csv"
job="--policy rmtlb --workload primes --size 10000000 --hosts 6 --speeds 0.30 --init one"
rm -f "$out/mpi_pvm_makespan.csv"
for r in $(seq 1 "$runs"); do
  (
    export PVM_TMP=$tmp PVM_VMID=mbench$$ PVM_ALLOW_ROOT=yes
    "$build/master/lbmaster" $job --out "$tmp/pvm_runs.csv" >/dev/null 2>&1
  ) || echo "lbmaster run $r failed" >&2
  timeout --foreground 300 mpirun --oversubscribe -np 7 "$build/mpi/lbmpi" $job --out "$tmp/mpi_runs.csv" >/dev/null 2>&1 \
    || echo "lbmpi run $r failed" >&2
done
# runtime, run, makespan_s, ideal_s, ratio, verified (the run CSV's names)
for rt in pvm mpi; do
  awk -F, -v rt=$rt 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    { print rt "," NR - 1 "," $c["makespan_s"] "," $c["ideal_s"] "," $c["ratio"] "," $c["verified"] }' \
    "$tmp/${rt}_runs.csv"
done | { echo "runtime,run,makespan_s,ideal_s,ratio,verified"; cat; } >"$out/mpi_pvm_makespan.csv"
column -s, -t "$out/mpi_pvm_makespan.csv"
for rt in pvm mpi; do
  m=$(awk -F, -v rt=$rt '$1 == rt { print $5 }' "$out/mpi_pvm_makespan.csv" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
  echo "$rt: median makespan / ideal $m"
done
echo "load after: $(cat /proc/loadavg)"
