#!/bin/sh
# Space-time diagrams, Perfetto JSON and Paje traces of RMTLB on six
# hosts, all work starting on host 0: one simulator run (lbsim, ring:6)
# and one PVM farm run (lbmaster, primes, on a private PVM it starts and
# halts).
#
# Writes in OUTDIR: sim.csv, farm.csv (the traces), sim-spacetime.*,
# farm-spacetime.* and farm-balancing.* (the farm's migrations, zoomed)
# as PNG, SVG and PDF, sim.json and farm.json (ui.perfetto.dev),
# sim.paje and farm.paje (ViTE, pj_dump), and the runs' own output
# (sim.txt, farm.txt).  Prints absolute paths.
# Usage: experiments/trace/spacetime.sh [-o OUTDIR] [-b BUILDDIR] [-n] [-s SIZE]
#   -n  the simulator only (no PVM);  -s  numbers tested by the farm (default 3000000)
set -eu
lb_top=$(cd "$(dirname "$0")/../.." && pwd)
. "$lb_top/scripts/lib.sh"
lb_init
out=out/trace build=$(lb_builddir) farm=1 size=3000000
here=$(cd "$(dirname "$0")" && pwd)
case ${1:-} in --help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
while getopts o:b:ns:h opt; do
  case $opt in
    o) out=$OPTARG ;; b) build=$OPTARG ;; n) farm=0 ;; s) size=$OPTARG ;;
    h) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "usage: $0 [-o OUTDIR] [-b BUILDDIR] [-n] [-s SIZE]" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || { echo "$0: unexpected argument '$1'" >&2; exit 2; }
case $size in ''|*[!0-9]*) echo "$0: -s: '$size' is not a count" >&2; exit 2 ;; esac
for p in sim/lbsim tools/lbtrace; do
  [ -x "$build/$p" ] || { echo "$0: $build/$p not built (use -b BUILDDIR)" >&2; exit 2; }
done
[ "$farm" = 0 ] || [ -x "$build/master/lbmaster" ] || { echo "$0: $build/master/lbmaster not built" >&2; exit 2; }
mkdir -p "$out"
abs() { echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; }
plot() { "$here/plot.sh" -b "$build" "$@"; }

# Simulator: latency 1 per hop; the trace records every receipt.
"$build/sim/lbsim" -p rmtlb -t ring:6 -l one -s 1 --msg-trace "$out/sim.csv" >"$out/sim.txt"
plot --xlabel 'simulated time (one hop = 1)' \
  --title 'lbsim: RMTLB on ring:6, the 48 processes start on host 0' "$out/sim.csv" "$out/sim-spacetime"
"$build/tools/lbtrace" -o "$out/sim.json" --perfetto "$out/sim.csv"
"$build/tools/lbtrace" -o "$out/sim.paje" --paje "$out/sim.csv"
abs "$out/sim.json"
abs "$out/sim.paje"
[ "$farm" = 1 ] || exit 0

# Farm: six workers of speed 0.30 on a private PVM.
lb_private_vm trace
if ! lb_run 900 "$build/master/lbmaster" --policy rmtlb --hosts 6 --workload primes --size "$size" --speeds 0.30 \
       --trace "$out/farm.csv" >"$out/farm.txt" 2>&1; then
  echo "$0: the farm run failed; its output is in $out/farm.txt" >&2
  exit 1
fi
head=$(grep -m1 '^rmtlb primes' "$out/farm.txt" | sed 's/,.*//')
plot --xlabel "time (s) since lbmaster's start" --title "lbmaster: $head, 6 PVM workers" \
  "$out/farm.csv" "$out/farm-spacetime"
# The balancing at the start, from the first message to the last
# migration (and a tenth more).
first=$("$build/tools/lbtrace" --csv info "$out/farm.csv" | awk -F, 'NR == 2 { print $5 }')
last=$("$build/tools/lbtrace" --csv --types LMM,TRANSFER info "$out/farm.csv" | awk -F, 'NR == 2 && $2 > 0 { print $6 }')
if [ -n "$last" ]; then
  to=$(awk -v a="$first" -v b="$last" 'BEGIN { printf "%.9f", b + 0.1 * (b - a) }')
  plot --from "$first" --to "$to" --xlabel "time (s) since lbmaster's start" \
    --title "lbmaster: the same run up to its last migration" "$out/farm.csv" "$out/farm-balancing"
fi
"$build/tools/lbtrace" -o "$out/farm.json" --perfetto "$out/farm.csv"
"$build/tools/lbtrace" -o "$out/farm.paje" --paje "$out/farm.csv"
abs "$out/farm.json"
abs "$out/farm.paje"
