#!/bin/sh
# Randomised invariant sweep: RUNS simulated runs over random policies,
# graphs, loads, capacities, seeds, quanta, bandwidths, jitter (which
# reorders messages), result modes and schedules, every message through
# the byte codec.  Each run is checked by lb_sim (every process runs
# once and its result reaches its origin once, nothing lost in transit,
# every node quiescent at the end: LEPN = LIPN = -1, NRT empty, no rmtv
# lock; termination).  Writes OUT/sweep.csv and prints the tally.
#
# Usage: experiments/sweep_invariants.sh [-n RUNS] [-s SEED] [-o OUTDIR] [-b BUILDDIR]
set -eu
runs=10000 seed=1 out=out build=.
case ${1:-} in --help) sed -n '2,/^# Usage/p' "$0"; exit 0 ;; esac
while getopts n:s:o:b:h opt; do
  case $opt in
    n) runs=$OPTARG ;; s) seed=$OPTARG ;; o) out=$OPTARG ;; b) build=$OPTARG ;;
    h) sed -n '2,/^# Usage/p' "$0"; exit 0 ;;
    *) echo "usage: $0 [-n RUNS] [-s SEED] [-o OUTDIR] [-b BUILDDIR]" >&2; exit 2 ;;
  esac
done
case $runs in ''|*[!0-9]*) echo "$0: -n: '$runs' is not a count" >&2; exit 2 ;; esac
case $seed in ''|*[!0-9]*) echo "$0: -s: '$seed' is not a seed" >&2; exit 2 ;; esac
sim=$build/sim/lbsim
[ -x "$sim" ] || { echo "$0: $sim not built (use -b BUILDDIR)" >&2; exit 2; }
mkdir -p "$out"
args=$out/sweep.args
awk -v n="$runs" -v s="$seed" 'BEGIN {
  srand(s)
  split("none rmtlb rmtlb rmtlb lowest dasud cchspmd diffusion diffusion2", pol, " ")
  split("skew random one", load, " ")
  for (k = 1; k <= n; k++) {
    r = int(rand() * 7)
    if (r == 0) t = "ring:" (3 + int(rand() * 10))
    else if (r == 1) t = "torus:" (3 + int(rand() * 3)) "x" (3 + int(rand() * 3))
    else if (r == 2) {
      v = 4 + int(rand() * 16); room = (v - 1) * (v - 2) / 2   # edges left beyond a tree
      t = "random:" v ":" int(rand() * (room < 10 ? room + 1 : 10)) ":" int(rand() * 1000)
    }
    else if (r == 3) t = "star:" (3 + int(rand() * 8))
    else if (r == 4) t = "hypercube:" (2 + int(rand() * 3))
    else if (r == 5) t = "complete:" (3 + int(rand() * 5))
    else t = "mesh:" (2 + int(rand() * 3)) "x" (2 + int(rand() * 4))
    printf "%d -p %s -t %s -l %s -s %d -C %d -n %d --jitter %.3f --quantum %.3f --bandwidth %d --period %.2f --plan %s --results %s --sched %s\n",
      k, pol[1 + int(rand() * 9)], t, load[1 + int(rand() * 3)], int(rand() * 1e6), 1 + int(rand() * 6),
      1 + int(rand() * 80), rand() * rand() * 10, 0.1 + rand() * 2, (rand() < 0.5) ? 0 : 100 + int(rand() * 1000),
      0.5 + rand() * 2, (rand() < 0.5) ? "greedy" : "transport", (rand() < 0.5) ? "origin" : "direct",
      (rand() < 0.8) ? "rr" : "fifo"
  }
}' >"$args"
csv=$out/sweep.csv
# one line per run: run number, exit status, then lbsim's CSV data line
run_one() {
  k=$1; shift
  line=$("$sim" --csv "$@" 2>/dev/null) && rc=0 || rc=$?
  line=$(printf '%s\n' "$line" | tail -1)
  echo "$k,$rc,$line"
}
export sim
: >"$csv.tmp"
while read -r k rest; do
  # shellcheck disable=SC2086
  run_one "$k" $rest
  if [ -t 2 ] && [ $((k % 100)) -eq 0 ]; then printf '\r%s/%s runs' "$k" "$runs" >&2; fi
done <"$args" >>"$csv.tmp"
[ -t 2 ] && printf '\n' >&2
{ echo "run,exit,$("$sim" --csv -p none -t ring:3 -n 1 | head -1)"; cat "$csv.tmp"; } >"$csv"
rm -f "$csv.tmp"
bad=$(awk -F, 'NR > 1 && ($2 != 0) { n++ } END { print n + 0 }' "$csv")
viol=$(awk -F, 'NR > 1 { v += $18 } END { print v + 0 }' "$csv")
total=$(($(wc -l <"$csv") - 1))
echo "runs $total  failed runs $bad  violations $viol  (seed $seed, $csv)"
awk -F, 'NR > 1 { r[$3]++; if ($2 != 0) f[$3]++ } END { for (p in r) printf "  %-11s %6d runs %4d failed\n", p, r[p], f[p] + 0 }' "$csv" | sort
[ "$bad" -eq 0 ] && [ "$total" -eq "$runs" ]
