#!/bin/sh
# Seed 002, Fig. 2: an 8x8 grid, 64 speeds drawn from [1,10] (seeded)
# and divided by their minimum; greedy p1 against a histogram of 100000
# random arrangements (the paper's permutation scheme).
# Writes fig2.csv, fig2_hist.csv, fig2.md and fig2.png.
# Usage: experiments/seed002/fig2.sh [OUTDIR] [SEED] [SAMPLES]
. "$(dirname "$0")/common.sh"
seed=${2:-2003}
samples=${3:-100000}
"$LBARRANGE" -m montecarlo -r 1,10 -S "$seed" -n "$samples" -H "$out/fig2_hist.csv" --csv mesh:8x8 >"$out/fig2.csv"
p1=$(awk -F, 'NR == 2 { print $4 }' "$out/fig2.csv")
gnuplot -e "histfile='$out/fig2_hist.csv'; outfile='$out/fig2.png'; p1=$p1" "$here/fig2.gp"
awk -F, -v seed="$seed" -v n="$samples" 'NR == 2 {
  print "| quantity | paper (its own random speeds) | ours (seed " seed ", " n " arrangements) |"
  print "|---|---|---|"
  printf "| greedy p1 | 93.9 | %.2f |\n| p_min | 63.8 | %.2f |\n| p_max | 225.2 | %.2f |\n", $4, $5, $6
  printf "| P_r %% | 18.6 | %.2f |\n| N(p < p1) | 23 | %s |\n| pct %% | 0.023 | %.3g |\n", $7, $8, $11 }' \
  "$out/fig2.csv" >"$out/fig2.md"
echo "$0: wrote $out/fig2.csv, $out/fig2_hist.csv, $out/fig2.png and $out/fig2.md"
