#!/bin/sh
# Host speed emulation: the main job's ratios (makespan / ideal, primes
# 2 x 10^7, 480 processes, six hosts at 0.30, all load on host 0, the 7
# policies) with the duty fallback against the cgroup quota this machine
# allows (cgroup-v1 or cgroup-v2), paired: for each seed and policy the
# two runs follow each other, in the order cgroup, duty on odd seeds and
# duty, cgroup on even ones.  Rows: per policy, the median ratio of each
# path (ours = duty, reference = cgroup; ratio = reference / ours, so 1
# means the fallback reproduces the cgroup's figures, and the goal is
# 0.95-1.05), then the median over all pairs with their range, and the
# CPU share the hosts held while computing under each path.
# By default the machine must be quiet: before each pair it waits until
# other work uses under THROTTLE_BUSY_MAX cores (default 0.25, sampled
# over 2 s while nothing of ours runs), and before the first one until
# the load average is under THROTTLE_LOAD_MAX (default 1.5), for at most
# THROTTLE_WAIT_S seconds in all (default 1200); past that it stops and
# says the measurement was not done, rather than record noise.
# --max-load N (or THROTTLE_MAX_LOAD=N) is for a machine that is never
# quiet: each pair waits (within the same budget) only until the 1-min
# load average is under N, and runs then whatever other work takes; the
# load and the cores other work used are recorded before every run, and
# the summary gives their range beside the pairs' spread.
# --reps N or THROTTLE_REPS seeds (default 3); --policies A,B,... or
# THROTTLE_POLICIES (default all 7).  --summary runs nothing and writes
# the summary and rows again from the output directory's throttle.csv
# (say, one put together from two sessions' rows).
# Where no cgroup can be made, only the fallback runs, and no ratio is
# given.  Writes throttle.csv (every run, with the load average and the
# other work's cores before it) and throttle.txt (the summary) to the
# output directory.
set -eu
. "$(dirname "$0")/lib.sh"
reps=${THROTTLE_REPS:-3}
policies=${THROTTLE_POLICIES:-none lowest dasud cchspmd diffusion diffusion2 rmtlb}
max_load=${THROTTLE_MAX_LOAD:-}
summary_only=
num() { awk -v x="$2" 'BEGIN { exit !(x ~ /^[0-9]+([.][0-9]*)?$/ && x + 0 > 0) }' ||
  { echo "throttle.sh: $1 wants a positive number, not '$2'" >&2; exit 2; }; }
while [ $# -gt 0 ]; do
  case $1 in
  --max-load|--reps|--policies)
    [ $# -ge 2 ] || { echo "throttle.sh: $1 wants a value" >&2; exit 2; }
    case $1 in
    --max-load) num "$1" "$2"; max_load=$2 ;;
    --reps) num "$1" "$2"; reps=$2 ;;
    --policies) policies=$2 ;;
    esac
    shift 2 ;;
  --summary) summary_only=1; shift ;;
  *) break ;;
  esac
done
bench_start "$@"
[ -z "$max_load" ] || num --max-load "$max_load"
case $reps in *[!0-9]*|"") echo "throttle.sh: --reps wants a whole number, not '$reps'" >&2; exit 2 ;; esac
policies=$(echo "$policies" | tr , ' ')
build=${LB_TOP_BUILDDIR:-.}
lbm=$build/master/lbmaster
[ -x "$lbm" ] || { echo "throttle.sh: $lbm is not built" >&2; exit 2; }
busy_max=${THROTTLE_BUSY_MAX:-0.25}
load_max=${THROTTLE_LOAD_MAX:-1.5}
wait_max=${THROTTLE_WAIT_S:-1200}
job="--workload primes --size 20000000 --procs 480 --capacities 8 --hosts 6 --speeds 0.30 --init one"
csv=$out/throttle.csv
lb_private_vm thr
tmp=$PVM_TMP
waited=0

# Cores that other work keeps busy, over 2 s (from /proc/stat).
busy_cores() {
  a=$(head -1 /proc/stat); sleep 2; b=$(head -1 /proc/stat)
  echo "$a
$b" | awk '{ t = 0; for (i = 2; i <= NF; i++) t += $i; idle = $5 + $6
    if (NR == 1) { t0 = t; i0 = idle } else { printf "%.2f", (1 - (idle - i0) / (t - t0)) * n } }' n="$(nproc)"
}

# quiet FIRST: wait for a quiet machine; 1 if the budget is spent.
quiet() {
  while :; do
    l=$(cut -d' ' -f1 /proc/loadavg); b=$(busy_cores)
    if [ -n "$max_load" ]; then ok=$(awk -v l="$l" -v m="$max_load" 'BEGIN { print l < m }')
    elif [ "$1" = 1 ]; then ok=$(awk -v l="$l" -v m="$load_max" -v b="$b" -v x="$busy_max" 'BEGIN { print l < m && b < x }')
    else ok=$(awk -v b="$b" -v x="$busy_max" 'BEGIN { print b < x }'); fi
    [ "$ok" = 1 ] && { busy=$b; return 0; }
    [ "$waited" -ge "$wait_max" ] && return 1
    echo "throttle.sh: waiting for a ${max_load:+load under $max_load, not a }quiet machine (load $l, other work $b cores)" >&2
    lb_run 0 sleep 20; waited=$((waited + 22))
  done
}

# one SEED POLICY MODE: a run; appends a line to $csv.
one() {
  rm -f "$tmp/row.csv" "$tmp/hosts.csv"
  l=$(cut -d' ' -f1-3 /proc/loadavg | tr ' ' /)
  lb_run 400 "$lbm" $job --seed "$1" --policy "$2" --throttle "$3" --timeout 300 --out "$tmp/row.csv" \
    --hosts-csv "$tmp/hosts.csv" >"$tmp/run.log" 2>&1 || { echo "throttle.sh: run failed: $*" >&2; tail -3 "$tmp/run.log" >&2; return 1; }
  used=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } NR == 2 { print $c["throttle"] }' "$tmp/hosts.csv")
  share=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { s += $c["share"]; n++ } END { printf "%.4f", s / n }' "$tmp/hosts.csv")
  awk -F, -v pre="$1,$2,$3,$used" -v post="$share,$l,$busy" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    { print pre "," $c["ratio"] "," $c["ratio_received"] "," $c["makespan_s"] "," $c["verified"] "," post }' \
    "$tmp/row.csv" >>"$csv"
}

if [ -n "$summary_only" ]; then
  [ -s "$csv" ] || { echo "throttle.sh: --summary: no $csv" >&2; exit 2; }
  ref=$(awk -F, 'NR > 1 && $4 != "duty" { print $4; exit }' "$csv")
  reps=$(awk -F, 'NR > 1 && $1 > m { m = $1 } END { print m + 0 }' "$csv")
  policies=$(awk -F, 'NR > 1 && !s[$2]++ { printf "%s ", $2 }' "$csv")
else
echo "seed,policy,wanted,throttle,ratio,ratio_received,makespan_s,verified,share,load_before,other_cores" >"$csv"
# Which cgroup path, if any: a short run that must have one.
ref=
if lb_run 60 "$lbm" --workload primes --size 200000 --hosts 2 --speeds 0.5 --throttle cgroup --hosts-csv "$tmp/probe.csv" \
     >/dev/null 2>&1; then
  ref=$(awk -F, 'NR == 2 { print $5 }' "$tmp/probe.csv")
fi
[ -n "$ref" ] || echo "throttle.sh: no cgroup can be made here: the fallback runs alone" >&2
quiet 1 || { echo "throttle.sh: not done: the machine never got quiet (load $(cut -d' ' -f1-3 /proc/loadavg))" >&2; exit 1; }
for seed in $(seq "$reps"); do
  for p in $policies; do
    quiet 0 || { echo "throttle.sh: not done: the machine got busy at seed $seed, $p" >&2; exit 1; }
    if [ -z "$ref" ]; then one "$seed" "$p" duty
    elif [ $((seed % 2)) = 1 ]; then one "$seed" "$p" cgroup && one "$seed" "$p" duty
    else one "$seed" "$p" duty && one "$seed" "$p" cgroup; fi
  done
done
fi
# Per policy: medians of each path, and of the pairs' ratios.
awk -F, -v ref="$ref" 'function med(a, n,   i, j, x) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { x = a[i]; a[i] = a[j]; a[j] = x }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
  NR == 1 { next }
  { k = $2; if (!(k in seen)) { seen[k] = 1; order[++np] = k }
    m = $3 == "duty" ? "d" : "c"; r[m, k, ++n[m, k]] = $5; v[m, $1, k] = $5; vr[m, $1, k] = $6
    sh[m, ++ns[m]] = $9; if ($8 != "yes") bad = 1
    split($10, la, "/"); x = la[1] + 0; ld[++nl] = x; ob[nl] = $11 + 0
    if (nl == 1 || x < lmin) lmin = x; if (nl == 1 || x > lmax) lmax = x
    if (nl == 1 || $11 + 0 < omin) omin = $11 + 0; if (nl == 1 || $11 + 0 > omax) omax = $11 + 0 }
  END {
    printf "%-10s %6s %8s %8s %8s %s\n", "policy", "pairs", ref == "" ? "-" : ref, "duty", "cgrp/dty",
      "(medians of pairs; then cgroup/duty with the ideal at the share received)"
    for (j = 1; j <= np; j++) { k = order[j]; delete a; delete b; delete q; delete qr; nq = 0
      for (i = 1; i <= n["d", k]; i++) a[i] = r["d", k, i]
      for (i = 1; i <= n["c", k]; i++) b[i] = r["c", k, i]
      for (s = 1; s <= 1000; s++) if ((("c", s, k) in v) && (("d", s, k) in v)) { q[++nq] = v["c", s, k] / v["d", s, k]; all[++na] = q[nq]
        qr[nq] = rcv[na] = vr["c", s, k] / vr["d", s, k] }
      printf "%-10s %6d %8.3f %8.3f %8s %s\n", k, nq, n["c", k] ? med(b, n["c", k]) : 0, med(a, n["d", k]),
        nq ? sprintf("%.3f", med(q, nq)) : "-", nq ? sprintf("%.3f", med(qr, nq)) : "-" }
    delete a; for (i = 1; i <= ns["d"]; i++) a[i] = sh["d", i]
    delete b; for (i = 1; i <= ns["c"]; i++) b[i] = sh["c", i]
    printf "all pairs: %d, median cgroup/duty %s; mean host share while computing: %s %s, duty %.3f (speed 0.30)%s\n",
      na, na ? sprintf("%.3f", med(all, na)) : "-", ref == "" ? "-" : ref, ns["c"] ? med(b, ns["c"]) : 0, med(a, ns["d"]),
      bad ? "; SOME RUNS NOT VERIFIED" : ""
    if (na) { lo = hi = all[1]; for (i = 2; i <= na; i++) { if (all[i] < lo) lo = all[i]; if (all[i] > hi) hi = all[i] }
      printf "spread of the pairs: cgroup/duty from %.3f to %.3f\n", lo, hi
      printf "with the ideal at the CPU share each host received: median cgroup/duty %.3f\n", med(rcv, na) }
    printf "before the runs: 1-min load median %.2f (%.2f to %.2f), other work median %.2f cores (%.2f to %.2f)\n",
      med(ld, nl), lmin, lmax, med(ob, nl), omin, omax }' "$csv" | tee "$out/throttle.txt"
# The rows for bench.csv.
cmd="experiments/bench/throttle.sh --reps $reps --policies $(echo $policies | tr ' ' ,)${max_load:+ --max-load $max_load}"
shares=$(sed -n 's/.*while computing: [^ ]* \([0-9.]*\), duty \([0-9.]*\) (speed 0.30).*/\1 \2/p' "$out/throttle.txt")
if [ -n "$ref" ]; then
  sed -n '2,/^all pairs/p' "$out/throttle.txt" | sed '$d' | while read -r p pairs c d q qr; do
    bench_row "main job $p: duty vs $ref ($pairs pairs)" makespan/ideal "$d" "$c" "$q" "6 hosts" "$cmd"
  done
  all=$(sed -n 's/^all pairs: \([0-9]*\), median cgroup\/duty \([0-9.]*\);.*/\1 \2/p' "$out/throttle.txt")
  set -- $all $shares
  bench_row "main job all policies: duty vs $ref ($1 pairs)" makespan/ideal - - "$2" "6 hosts" "$cmd"
  bench_row "host CPU share while computing at speed 0.30: duty vs $ref" share "$4" "$3" "$(bench_div "$4" "$3" %.3f)" \
    "6 hosts" "$cmd"
fi
grep -q 'NOT VERIFIED' "$out/throttle.txt" && { echo "throttle.sh: some runs were not verified" >&2; exit 1; }
exit 0
