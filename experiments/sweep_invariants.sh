#!/bin/sh
# Randomised invariant sweep: RUNS simulated runs over random policies,
# graphs (dense random ones too), loads, capacities, seeds, quanta,
# bandwidths, jitter (none at all in a quarter of the runs; otherwise it
# reorders messages), RMTLB windows, result modes and schedules, with one
# or two nodes failing in a third of the runs, a node that gets a fifth
# to four fifths of its results wrong in every tenth run (the sink
# rejects them and may exclude it), a silent fault (a node frozen, for a
# while or for good, or cut off for a while: found only by its lease,
# fenced, and coming back) in every seventh run, every message through
# the byte codec.  Each run is checked by lb_sim (every process runs
# once and its result reaches its origin once, nothing lost in transit,
# every node quiescent at the end: LEPN = LIPN = -1, NRT empty, no rmtv
# lock; termination).  Writes OUT/sweep.csv and prints the tally.
# With -L every run keeps its processes' contexts as the farm's worker
# does, saving one into its process only when the process leaves
# (lbsim --leaving); the runs draw the same numbers, so the CSV must be
# the one without -L, byte for byte (tests/sweep_leaving.sh checks 300
# runs; run 1000 or more with `-n 1000 -L` and compare).
#
# -p LIST draws the policies from LIST (names separated by spaces or
# commas; a name twice is drawn twice as often).  The default is every
# policy, RMTLB three times; `-p "none rmtlb rmtlb rmtlb lowest dasud
# cchspmd diffusion diffusion2"` draws the runs of the sweep as it was
# before steal, pool and dasud-ring, number for number, so its CSV can
# be compared with an older build's (docs/SIMULATOR.md).
#
# Usage: experiments/sweep_invariants.sh [-n RUNS] [-s SEED] [-o OUTDIR] [-b BUILDDIR] [-L] [-p LIST]
set -eu
lb_top=$(cd "$(dirname "$0")/.." && pwd)
. "$lb_top/scripts/lib.sh"
lb_init
runs=10000 seed=1 out=out build=$(lb_builddir) leaving=
policies="none rmtlb rmtlb rmtlb lowest dasud cchspmd diffusion diffusion2 steal pool dasud-ring"
case ${1:-} in --help) sed -n '2,/^# Usage/p' "$0"; exit 0 ;; esac
while getopts n:s:o:b:hLp: opt; do
  case $opt in
    n) runs=$OPTARG ;; s) seed=$OPTARG ;; o) out=$OPTARG ;; b) build=$OPTARG ;; L) leaving=--leaving ;; p) policies=$(echo "$OPTARG" | tr ',' ' ') ;;
    h) sed -n '2,/^# Usage/p' "$0"; exit 0 ;;
    *) echo "usage: $0 [-n RUNS] [-s SEED] [-o OUTDIR] [-b BUILDDIR] [-L] [-p LIST]" >&2; exit 2 ;;
  esac
done
case $runs in ''|*[!0-9]*) echo "$0: -n: '$runs' is not a count" >&2; exit 2 ;; esac
case $seed in ''|*[!0-9]*) echo "$0: -s: '$seed' is not a seed" >&2; exit 2 ;; esac
sim=$build/sim/lbsim
[ -x "$sim" ] || { echo "$0: $sim not built (use -b BUILDDIR)" >&2; exit 2; }
for p in $policies; do
  "$sim" -p "$p" --help >/dev/null 2>&1 || { echo "$0: -p: unknown policy '$p'" >&2; exit 2; }
done
[ -n "$(echo $policies)" ] || { echo "$0: -p: no policy" >&2; exit 2; }
mkdir -p "$out"
args=$out/sweep.args
awk -v n="$runs" -v s="$seed" -v pols="$(echo $policies)" 'BEGIN {
  srand(s)
  npol = split(pols, pol, " ")
  split("skew random one", load, " ")
  for (k = 1; k <= n; k++) {
    r = int(rand() * 7)
    if (r == 0) { v = 3 + int(rand() * 10); t = "ring:" v }
    else if (r == 1) { a = 3 + int(rand() * 3); b = 3 + int(rand() * 3); v = a * b; t = "torus:" a "x" b }
    else if (r == 2) {
      # sparse or dense: up to every edge beyond a spanning tree
      v = 4 + int(rand() * 16); room = (v - 1) * (v - 2) / 2
      t = "random:" v ":" int(rand() * (rand() < 0.5 ? (room < 10 ? room + 1 : 10) : room + 1)) ":" int(rand() * 1000)
    }
    else if (r == 3) { v = 3 + int(rand() * 8); t = "star:" v }
    else if (r == 4) { d = 2 + int(rand() * 3); v = 2 ^ d; t = "hypercube:" d }
    else if (r == 5) { v = 3 + int(rand() * 5); t = "complete:" v }
    else { a = 2 + int(rand() * 3); b = 2 + int(rand() * 4); v = a * b; t = "mesh:" a "x" b }
    p = pol[1 + int(rand() * npol)]
    # a quarter of the runs with no jitter at all: many messages at one instant
    jit = rand() < 0.25 ? 0 : rand() * rand() * 10
    extra = ""; c1 = -1; c2 = -1
    if (p == "rmtlb" && rand() < 0.3) extra = sprintf(" --tmax %.3f", 0.2 + rand() * rand() * 60)
    # the newer policies settings: drawn only for them, so the runs of
    # the older ones draw as they did
    if (p == "steal") extra = sprintf(" --steal-amount %s --steal-below %d --steal-retry %.2f --steal-tries %d",
      rand() < 0.5 ? "one" : "half", 1 + int(rand() * 3), rand() < 0.5 ? 0 : rand() * 5, rand() < 0.5 ? 0 : 1 + int(rand() * 5))
    if (p == "pool") extra = sprintf(" --pool-chunk %s --pool-below %d --pool-node %d",
      rand() < 0.4 ? "factoring" : rand() < 0.6 ? "gss" : "one", 1 + int(rand() * 3), int(rand() * v))
    if (p == "dasud-ring") extra = sprintf(" --dasud-ring-timeout %.2f --dasud-ring-max-ring %d",
      rand() < 0.5 ? 0 : 0.2 + rand() * 10, rand() < 0.7 ? 0 : 1 + int(rand() * 3))
    # a third of the runs lose one or two nodes, at random times
    if (rand() < 0.33) {
      c1 = int(rand() * v); extra = extra sprintf(" --crash %.2f:%d", rand() * 60, c1)
      if (v > 3 && rand() < 0.3) { c2 = (c1 + 1 + int(rand() * (v - 1))) % v; extra = extra sprintf(" --crash %.2f:%d", rand() * 80, c2) }
    }
    # every tenth run a faulty node (drawn from k: the other runs stay as they were)
    if (k % 10 == 0) extra = extra sprintf(" --corrupt %d:%.1f", k % v, 0.2 + (k % 7) / 10)
    # every seventh run a silent fault, on a node that does not crash
    # (also drawn from k), with a lease that outlasts the jitter: a
    # heartbeat takes 1 to 1 + jitter
    if (k % 7 == 0) {
      sn = k % v; while (sn == c1 || sn == c2) sn = (sn + 1) % v
      lease = 4 + 2 * jit
      st = (k * 37) % 60 + 0.5
      if (k % 21 == 0) extra = extra sprintf(" --freeze %.2f:%d", st, sn)
      else extra = extra sprintf(" --%s %.2f:%d:%.2f", k % 14 == 0 ? "partition" : "freeze", st, sn,
                                 k % 4 == 0 ? 0.3 * lease : 2 * lease + k % 10)
      extra = extra sprintf(" --lease-period 1 --lease %.3f", lease)
    }
    printf "%d -p %s -t %s -l %s -s %d -C %d -n %d --jitter %.3f --quantum %.3f --bandwidth %d --period %.2f --plan %s --results %s --sched %s%s\n",
      k, p, t, load[1 + int(rand() * 3)], int(rand() * 1e6), 1 + int(rand() * 6),
      1 + int(rand() * 80), jit, 0.1 + rand() * 2, (rand() < 0.5) ? 0 : 100 + int(rand() * 1000),
      0.5 + rand() * 2, (rand() < 0.5) ? "greedy" : "transport", (rand() < 0.5) ? "origin" : "direct",
      (rand() < 0.8) ? "rr" : "fifo", extra
  }
}' >"$args"
csv=$out/sweep.csv
# one line per run: run number, exit status, then lbsim's CSV data line
run_one() {
  k=$1; shift
  # shellcheck disable=SC2086
  line=$("$sim" --csv "$@" $leaving 2>/dev/null) && rc=0 || rc=$?
  line=$(printf '%s\n' "$line" | tail -1)
  echo "$k,$rc,$line"
}
export sim leaving
: >"$csv.tmp"
while read -r k rest; do
  # shellcheck disable=SC2086
  run_one "$k" $rest
  if [ -t 2 ] && [ $((k % 100)) -eq 0 ]; then printf '\r%s/%s runs' "$k" "$runs" >&2; fi
done <"$args" >>"$csv.tmp"
[ -t 2 ] && printf '\n' >&2
{ echo "run,exit,$("$sim" --csv-header)"; cat "$csv.tmp"; } >"$csv"
rm -f "$csv.tmp"
# lbsim's columns by name (docs/FORMATS.md)
hdr='NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }'
bad=$(awk -F, "$hdr"' $2 != 0 { n++ } END { print n + 0 }' "$csv")
viol=$(awk -F, "$hdr"' { v += $c["violations"] } END { print v + 0 }' "$csv")
total=$(($(wc -l <"$csv") - 1))
echo "runs $total  failed runs $bad  violations $viol  (seed $seed, $csv)"
awk -F, "$hdr"' { p = $c["policy"]; r[p]++; if ($2 != 0) f[p]++ }
  END { for (p in r) printf "  %-11s %6d runs %4d failed\n", p, r[p], f[p] + 0 }' "$csv" | sort
awk -F, "$hdr"' $c["silent"] != "" { n++; fe += $c["fenced"]; d += $c["fenced_dropped"] }
  END { printf "  silent faults in %d runs: %d nodes fenced, %d late messages dropped\n", n, fe, d }' "$csv"
[ "$bad" -eq 0 ] && [ "$total" -eq "$runs" ]
