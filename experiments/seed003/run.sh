#!/bin/sh
# Seed 003 Tables 1 and 2 and Fig. 2: run H, T and TB on 20 random task
# graphs, then write ours.csv, fig2.png and report.md (paper beside ours).
# Usage: experiments/seed003/run.sh [OUTDIR]   (default out/seed003)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=${LB_TOP_SRCDIR:-$here/../..}
bin=${LB_TOP_BUILDDIR:-.}/tools/lbseed003
out=${1:-out/seed003}
case ${1:-} in
  -h|--help) sed -n '2,4p' "$0"; exit 0 ;;
  -*) echo "run.sh: unknown option '$1' (try --help)" >&2; exit 2 ;;
esac
[ -x "$bin" ] || { echo "run.sh: $bin not built (run make first)" >&2; exit 2; }
mkdir -p "$out"
"$bin" --tests 20 --seed 2007 --out "$out/ours.csv"
grep -v '^#' "$top/data/seed003-paper.csv" > "$out/paper.csv"
gnuplot -e "ours='$out/ours.csv'; paper='$out/paper.csv'; output='$out/fig2.png'" "$here/fig2.gp"
awk -F, -f "$here/report.awk" "$out/paper.csv" "$out/ours.csv" > "$out/report.md"
echo "wrote $out/ours.csv $out/fig2.png $out/report.md"
