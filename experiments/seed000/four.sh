#!/bin/sh
# The paper's four policies (RMTLB, LOWEST, DASUD, CCHSPMD) as the
# tournament compares them, for seed 000's claim that RMTLB beats the
# other three: experiments/tournament/run.sh --six (the farm's six-host
# settings in lbsim with the farm's costs, every policy at the best of
# the same parameter search; docs/TOURNAMENT.md), then the paired tests
# again among the four only: per setting, the best of the four by mean
# makespan / ideal, and each other against it on the same seeds
# (Wilcoxon signed-rank, Holm-adjusted over the three; paired.awk).
# Writes OUTDIR/four.csv (tournament/paired.sh's columns), beside
# run.sh's outputs (best.csv, summary.csv, paired.csv of all ten, ...),
# and OUTDIR/provenance-four.txt.  About 2 minutes on the shared 2-core
# machine at a load average of 13-17 (1 min 40 s, 2026-11-26).
# Usage: experiments/seed000/four.sh [-o OUTDIR] [-b BUILDDIR] [-k SEEDS]
set -eu
case ${1:-} in --help|-h) sed -n '2,14p' "$0"; exit 0 ;; esac
lb_top=$(cd "$(dirname "$0")/../.." && pwd)
. "$lb_top/scripts/lib.sh"
out=out/seed000-four build=$(lb_builddir) seeds=10
while [ $# -gt 0 ]; do
  case $1 in
    -o|-b|-k) [ $# -ge 2 ] && [ -n "$2" ] || { echo "$0: $1 wants an argument" >&2; exit 2; }
      case $1 in -o) out=$2 ;; -b) build=$2 ;; -k) seeds=$2 ;; esac; shift 2 ;;
    *) echo "$0: unknown argument '$1' (usage: $0 [-o OUTDIR] [-b BUILDDIR] [-k SEEDS])" >&2; exit 2 ;;
  esac
done
case $seeds in ''|*[!0-9]*|0) echo "$0: -k: '$seeds' is not a positive count" >&2; exit 2 ;; esac
[ -x "$build/sim/lbsim" ] || { echo "$0: $build/sim/lbsim: not built (use -b BUILDDIR)" >&2; exit 2; }
lb_init
mkdir -p "$out"
lb_lock "$out"
t=$lb_top/experiments/tournament
rm -f "$out/provenance-four.txt"
"$t/run.sh" --six -o "$out" -b "$build" -k "$seeds" -j 2 >/dev/null
# The reported runs of the four, header kept; the others' rows left out
# so that the best is the best of the four.
four() {
  awk -F, 'NR == 1 || $6 == "rmtlb" || $6 == "lowest" || $6 == "dasud" || $6 == "cchspmd"' "$out/runs.csv" >"$out/runs-four.csv"
  sh "$t/paired.sh" "$out/runs-four.csv"
}
lb_write "$out/four.csv" four
rm -f "$out/runs-four.csv"
n=$(awk -F, 'NR > 1 && !s[$1]++' "$out/four.csv" | wc -l)
[ "$n" = 16 ] || { lb_provenance "$out" incomplete "$n of 16 settings in four.csv"; lb_die "four.csv has $n of 16 settings"; }
lb_provenance "$out" complete
echo "wrote $out/four.csv"
