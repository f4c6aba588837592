#!/bin/sh
# farm-bench.sh: benchmarks of the PVM task farm (docs/PERFORMANCE.md,
# section "PVM task farm").  Not a test: numbers depend on the machine
# and its load; every figure is a ratio or a cost measured in one run,
# and every run records the load average before and after.
#   1. matmul kernel: GFLOP/s of the farm's processes (blocks of rows,
#      panels of k per quantum) vs OpenBLAS dgemm of the whole product and
#      vs dgemm per block, single-threaded, in the same run;
#   2. PVM round trip and bandwidth between two tasks on one host
#      (a private pvmd), direct and through the pvmd (--pvmd, the route
#      workers use between them);
#   3. the same between two tasks on one namespace host and across two
#      namespace hosts (only as root, via scripts/cluster-up.sh);
#   4. makespan / ideal makespan of RMTLB, nominal (ratio) and at the
#      CPU share the hosts received (ratio_received), in both result
#      modes (--results origin, the paper's; direct), six emulated hosts
#      of speed 0.30 with all load on host 0, three runs per size (and
#      none once, at the largest size, for reference), with the per-host
#      decomposition (busy_s, msg_s, idle_s; medians over the runs) and
#      the message trace of each run at the largest size.
#      Speeds 6 x 0.30 = 1.8 of the 2 cores: the pvmd and lbmaster
#      stand for the network and the master's machine, and at 6 x 0.33
#      they took the hosts' share (each host got ~0.30 of a core).
#      matmul: 48 processes, the default capacities; primes: 480
#      processes with C = 8, so the loaded host keeps a reservoir the
#      others draw from (docs/PERFORMANCE.md explains both).
# Usage: experiments/bench/farm-bench.sh [--builddir DIR] [--out DIR]
#          [--makespan-only] [--quick | --largest] [--reps N] [--results M]
#   --quick: the makespan part at the two smallest sizes only;
#   --largest: at the largest size only (matmul 8000, primes 4e7);
#   --reps N: runs per size (default 3); --results origin|direct|both.
# CSV files go to DIR (default out/bench under the build directory):
# farm_makespan.csv (lbmaster's rows, then rep, load averages), hosts/
# and traces/ (each run's --hosts-csv and --trace), farm_makespan.txt
# and farm_hosts.txt (the two summaries printed at the end).
set -eu
lb_top=$(cd "$(dirname "$0")/../.." && pwd)
. "$lb_top/scripts/lib.sh"
lb_init
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
build=$src
out=
only=
quick=
largest=
reps=3
modes="origin direct"
while [ $# -gt 0 ]; do
  case $1 in
  --builddir) build=$(cd "$2" && pwd); shift 2 ;;
  --out) out=$2; shift 2 ;;
  --makespan-only) only=1; shift ;;
  --quick) quick=1; shift ;;
  --largest) largest=1; shift ;;
  --reps) reps=$2; shift 2 ;;
  --results) case $2 in both) modes="origin direct" ;; origin|direct) modes=$2 ;;
             *) echo "farm-bench.sh: --results origin, direct or both" >&2; exit 2 ;; esac; shift 2 ;;
  -h|--help) sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
  *) echo "farm-bench.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
case $reps in ''|*[!0-9]*|0) echo "farm-bench.sh: --reps wants a positive integer" >&2; exit 2 ;; esac
out=${out:-$build/out/bench}
mkdir -p "$out"
out=$(cd "$out" && pwd)
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
  timeout --foreground 120 "$pp" . . | clean >"$out/farm_pvm_local.csv" || true
  timeout --foreground 120 "$pp" --pvmd . . | clean >"$out/farm_pvm_local_pvmd.csv" || true
  echo halt | pvm >/dev/null 2>&1 || true
)
rm -rf "$tmp"
echo "direct:"; cat "$out/farm_pvm_local.csv"
echo "through the pvmd:"; cat "$out/farm_pvm_local_pvmd.csv"

echo "== PVM round trip, namespace hosts -> $out/farm_pvm_ns_same.csv, farm_pvm_ns_across.csv"
state=$(mktemp -d)
if "$src/scripts/cluster-up.sh" --builddir "$build" --state "$state" >/dev/null 2>&1; then
  timeout --foreground 120 "$src/scripts/cluster-run.sh" --state "$state" "$pp" h2 h2 | clean >"$out/farm_pvm_ns_same.csv" || true
  timeout --foreground 120 "$src/scripts/cluster-run.sh" --state "$state" "$pp" h2 h3 | clean >"$out/farm_pvm_ns_across.csv" || true
  "$src/scripts/cluster-down.sh" --state "$state" >/dev/null 2>&1
  echo "same namespace host:"; cat "$out/farm_pvm_ns_same.csv"
  echo "across namespace hosts:"; cat "$out/farm_pvm_ns_across.csv"
else
  echo "(skipped: namespaces cannot be created here)"
  rm -rf "$state"
fi

fi

echo "== makespan / ideal, six hosts at speed 0.30, all load on host 0 -> $out/farm_makespan.csv"
rm -f "$out/farm_makespan.csv"; mkdir -p "$out/hosts" "$out/traces"
msizes="2000 4000 6000 8000"; psizes="5000000 10000000 20000000 40000000"
if [ -n "$quick" ]; then msizes="2000 4000"; psizes="5000000 10000000"
elif [ -n "$largest" ]; then msizes=8000; psizes=40000000; fi
set -- $msizes; eval "mlast=\${$#}"
set -- $psizes; eval "plast=\${$#}"
tmp=$(mktemp -d)
(
  export PVM_TMP=$tmp PVM_VMID=bench$$ PVM_ALLOW_ROOT=yes
  k=0; total=$(( (reps * $(echo $modes | wc -w)) * $(echo $msizes $psizes | wc -w) + 2 )); t0=$(date +%s)
  run() { # tag, then lbmaster's arguments
    tag=$1; shift
    row=$out/row.csv; rm -f "$row"
    trace=; case $tag in *-$mlast-*|*-$plast-*) trace="--trace $out/traces/$tag.csv" ;; esac
    l0=$(cut -d' ' -f1 /proc/loadavg)
    timeout --foreground 1800 "$build/master/lbmaster" "$@" --hosts 6 --init one --speeds 0.30 --seed 2 \
      --out "$row" --hosts-csv "$out/hosts/$tag.csv" $trace >/dev/null 2>&1 || echo "(failed: $*)"
    l1=$(cut -d' ' -f1 /proc/loadavg)
    if [ -s "$row" ]; then
      [ -s "$out/farm_makespan.csv" ] || sed -n '1s/$/,rep,load1_before,load1_after,tag/p' "$row" >"$out/farm_makespan.csv"
      sed -n "2s|\$|,${tag##*-r},$l0,$l1,$tag|p" "$row" >>"$out/farm_makespan.csv"
    fi
    rm -f "$row"; k=$((k + 1))
    [ -t 2 ] && printf '\r%d/%d runs, %d s, load %s   ' $k $total $(( $(date +%s) - t0 )) "$l1" >&2
    return 0
  }
  # sizes ascending, each size's runs alternating the result modes
  for n in $msizes; do for rep in $(seq "$reps"); do for m in $modes; do
    run matmul-$m-$n-r$rep --workload matmul --size "$n" --procs 48 --policy rmtlb --results "$m"
  done; done; done
  for n in $psizes; do for rep in $(seq "$reps"); do for m in $modes; do
    run primes-$m-$n-r$rep --workload primes --size "$n" --procs 480 --capacities 8 --policy rmtlb --results "$m"
  done; done; done
  run matmul-none-$mlast-r1 --workload matmul --size "$mlast" --procs 48 --policy none
  run primes-none-$plast-r1 --workload primes --size "$plast" --procs 480 --capacities 8 --policy none
  if [ -t 2 ]; then echo >&2; fi
)
rm -rf "$tmp"
# One line per (policy, workload, results, size): median ratios and ranges.
awk -F, 'function srt(a, t,   x, i, j) { for (i = 1; i <= t; i++) for (j = i + 1; j <= t; j++) if (a[j] < a[i]) { x = a[i]; a[i] = a[j]; a[j] = x } }
  function med(a, t) { return t % 2 ? a[(t + 1) / 2] : (a[t / 2] + a[t / 2 + 1]) / 2 }
  NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
  { k = $c["policy"] " " $c["workload"] " " $c["results"] " " $c["size"]; if (!(k in n)) order[++m] = k
    n[k]++; r[k, n[k]] = $c["ratio"]; q[k, n[k]] = $c["ratio_received"]; ms[k] = ms[k] "/" $c["makespan_s"]
    ld[k] = ld[k] "/" $c["load1_before"]; if ($c["verified"] != "yes") bad[k] = 1 }
  END { print "policy workload results size runs ratio min max ratio_received min max makespans_s load1 verified"
    for (j = 1; j <= m; j++) { k = order[j]; t = n[k]
      for (a = 1; a <= t; a++) { v[a] = r[k, a]; w[a] = q[k, a] }
      srt(v, t); srt(w, t); sub(/^\//, "", ms[k]); sub(/^\//, "", ld[k])
      printf "%s %d %.3f %.3f %.3f %.3f %.3f %.3f %s %s %s\n", k, t, med(v, t), v[1], v[t], med(w, t), w[1], w[t],
        ms[k], ld[k], (k in bad) ? "NO" : "yes" } }' "$out/farm_makespan.csv" | column -t | tee "$out/farm_makespan.txt"
# Where the time goes at the largest size: per host, medians over the runs.
echo "== per host at the largest size (medians over the runs) -> $out/farm_hosts.txt"
for w in matmul primes; do for m in $modes; do
  [ $w = matmul ] && n=$mlast || n=$plast
  set -- "$out"/hosts/$w-$m-$n-r*.csv; [ -e "$1" ] || continue
  awk -F, -v what="$w $m $n" 'function srt(a, t,   x, i, j) { for (i = 1; i <= t; i++) for (j = i + 1; j <= t; j++) if (a[j] < a[i]) { x = a[i]; a[i] = a[j]; a[j] = x } }
    function med(a, t) { srt(a, t); return t % 2 ? a[(t + 1) / 2] : (a[t / 2] + a[t / 2 + 1]) / 2 }
    FNR == 1 { f++; for (i = 1; i <= NF; i++) c[$i] = i; next }
    { h = $c["host"]; hs[h] = 1; nf[h]++; split("share done busy_s span_s msg_s idle_s relayed delivered", col, " ")
      for (j = 1; j <= 8; j++) v[h, j, nf[h]] = $c[col[j]] }
    END { print what ": host share done busy_s span_s msg_s idle_s relayed delivered (" f " runs)"
      for (h = 0; h in hs; h++) { line = h; for (j = 1; j <= 8; j++) { for (r = 1; r <= nf[h]; r++) a[r] = v[h, j, r]; line = line " " sprintf("%.3f", med(a, nf[h])) }
        print "  " line } }' "$@"
done; done | tee "$out/farm_hosts.txt"
