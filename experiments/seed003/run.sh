#!/bin/sh
# Seed 003 Tables 1 and 2 and Fig. 2: run H, T and TB on 20 random task
# graphs, then write ours.csv, fig2.png and report.md (paper beside ours).
# Usage: experiments/seed003/run.sh [[-o] OUTDIR]   (default out/seed003)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=${LB_TOP_SRCDIR:-$here/../..}
lb_top=$(cd "$here/../.." && pwd)
. "$lb_top/scripts/lib.sh"
bin=$(lb_built tools/lbseed003) || true
case ${1:-} in
  -o|--out) [ $# -ge 2 ] || { echo "run.sh: $1 wants a directory" >&2; exit 2; }; shift ;;
esac
out=${1:-out/seed003}
case ${1:-} in
  -h|--help) sed -n '2,4p' "$0"; exit 0 ;;
  -*) echo "run.sh: unknown option '$1' (try --help)" >&2; exit 2 ;;
esac
[ -x "$bin" ] || { echo "run.sh: $bin: not built (run scripts/setup.sh, or make)" >&2; exit 2; }
lb_init
mkdir -p "$out"
"$bin" --tests 20 --seed 2007 --out "$out/ours.csv"
lb_write "$out/paper.csv" grep -v '^#' "$top/data/seed003-paper.csv"
lb_plot1 "$out/fig2.png" "$here/fig2.gp" "ours='$out/ours.csv'" "paper='$out/paper.csv'"
lb_write "$out/report.md" awk -F, -f "$here/report.awk" "$out/paper.csv" "$out/ours.csv"
lb_provenance "$out" complete
echo "wrote $out/ours.csv $out/fig2.png $out/report.md"
