#!/bin/sh
# farm-bench.sh: benchmarks of the PVM task farm (docs/PERFORMANCE.md,
# section "PVM task farm").  Not a test: numbers depend on the machine
# and its load; every figure is a ratio or a cost measured in one run.
#   1. matmul kernel: GFLOP/s of the farm's processes (blocks of rows,
#      quanta of k columns) vs OpenBLAS dgemm of the whole product and
#      vs dgemm per block, single-threaded, in the same run;
#   2. PVM round trip and bandwidth between two tasks on one host
#      (a private pvmd);
#   3. the same between two tasks on one namespace host and across two
#      namespace hosts (only as root, via scripts/cluster-up.sh);
#   4. makespan / ideal makespan of RMTLB over a range of sizes, six
#      emulated hosts of speed 0.30 with all load on host 0, three runs
#      per size (and none once, at the largest size, for reference).
#      Speeds 6 x 0.30 = 1.8 of the 2 cores: the pvmd and lbmaster
#      stand for the network and the master's machine, and at 6 x 0.33
#      they took the hosts' share (each host got ~0.30 of a core).
#      matmul: 48 processes, the default capacities; primes: 480
#      processes with C = 8, so the loaded host keeps a reservoir the
#      others draw from (docs/PERFORMANCE.md explains both).
# Usage: experiments/bench/farm-bench.sh [--builddir DIR] [--out DIR] [--makespan-only] [--quick]
#   --quick: the makespan part at the two smallest sizes only.
# CSV files go to DIR (default out/bench under the build directory).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
build=$src
out=
only=
quick=
while [ $# -gt 0 ]; do
  case $1 in
  --builddir) build=$(cd "$2" && pwd); shift 2 ;;
  --out) out=$2; shift 2 ;;
  --makespan-only) only=1; shift ;;
  --quick) quick=1; shift ;;
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
# n, processes (blocks of ~64, ~125 and ~250 rows at n = 2000 and 4000)
for np in "1024 16" "2000 32" "2000 16" "4000 32" "4000 16"; do
  set -- $np
  "$kern" "$1" "$2" "16,64,256,$1" 3 | { [ -s "$out/farm_kernel.csv" ] && sed 1d || cat; } >>"$out/farm_kernel.csv"
done
column -s, -t "$out/farm_kernel.csv"

# strip "[tNNN] " and keep the CSV lines of the ping task
clean() { sed -n 's/^\(\[[^]]*\] \)*//; /^\(transport\|pvm-\)/p' | grep -v 'BEGIN\|EOF\|libpvm'; }

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

echo "== makespan / ideal, six hosts at speed 0.30, all load on host 0 -> $out/farm_makespan.csv"
rm -f "$out/farm_makespan.csv"
if [ -n "$quick" ]; then msizes="2000 4000"; psizes="5000000 10000000"
else msizes="2000 4000 6000 8000"; psizes="5000000 10000000 20000000 40000000"; fi
tmp=$(mktemp -d)
(
  export PVM_TMP=$tmp PVM_VMID=bench$$ PVM_ALLOW_ROOT=yes
  run() { "$build/master/lbmaster" "$@" --hosts 6 --init one --speeds 0.30 --seed 2 \
            --out "$out/farm_makespan.csv" >/dev/null 2>&1 || echo "(failed: $*)"; }
  for n in $msizes; do
    for rep in 1 2 3; do run --workload matmul --size "$n" --procs 48 --policy rmtlb; done
  done
  for n in $psizes; do
    for rep in 1 2 3; do run --workload primes --size "$n" --procs 480 --capacities 8 --policy rmtlb; done
  done
  set -- $msizes; eval "mlast=\${$#}"
  set -- $psizes; eval "plast=\${$#}"
  run --workload matmul --size "$mlast" --procs 48 --policy none
  run --workload primes --size "$plast" --procs 480 --capacities 8 --policy none
)
rm -rf "$tmp"
# One line per (policy, workload, size): median ratio and range.
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
  { k = $c["policy"] " " $c["workload"] " " $c["size"]; if (!(k in n)) order[++m] = k
    r[k, ++n[k]] = $c["ratio"]; ms[k] = ms[k] " " $c["makespan_s"]; id[k] = id[k] " " $c["ideal_makespan_s"]
    if ($c["verified"] != "yes") bad[k] = 1 }
  END { print "policy workload size runs median_ratio min max makespans_s ideals_s verified"
    for (j = 1; j <= m; j++) { k = order[j]; t = n[k]
      for (a = 1; a <= t; a++) v[a] = r[k, a]
      for (a = 1; a <= t; a++) for (b = a + 1; b <= t; b++) if (v[b] < v[a]) { x = v[a]; v[a] = v[b]; v[b] = x }
      med = t % 2 ? v[(t + 1) / 2] : (v[t / 2] + v[t / 2 + 1]) / 2
      gsub(/^ /, "", ms[k]); gsub(/ /, "/", ms[k]); gsub(/^ /, "", id[k]); gsub(/ /, "/", id[k])
      printf "%s %d %.3f %.3f %.3f %s %s %s\n", k, t, med, v[1], v[t], ms[k], id[k], (k in bad) ? "NO" : "yes" } }' \
  "$out/farm_makespan.csv" | column -t
