#!/bin/sh
# Seed 002, Fig. 2: an 8x8 grid, 64 speeds drawn from [1,10] (seeded)
# and divided by their minimum; greedy p1 against a histogram of 100000
# random arrangements (the paper's permutation scheme).
# Writes fig2.csv, fig2_hist.csv, fig2.md and fig2.png.
# Usage: experiments/seed002/fig2.sh [[-o] OUTDIR] [SEED] [SAMPLES]
. "$(dirname "$0")/common.sh"
seed=${2:-2003}
samples=${3:-100000}
lb_write "$out/fig2.csv" "$LBARRANGE" -m montecarlo -r 1,10 -S "$seed" -n "$samples" -H "$out/fig2_hist.csv" --csv mesh:8x8
p1=$(awk -F, 'NR == 2 { print $4 }' "$out/fig2.csv")
lb_plot1 "$out/fig2.png" "$here/fig2.gp" "histfile='$out/fig2_hist.csv'" "p1=$p1"
awk -F, -v seed="$seed" -v n="$samples" '/^#/ || /^(p1|graph),/ { next }
  NR == FNR { for (i = 1; i <= NF; i++) P[i] = $i; next }
  { print "| quantity | paper (its own random speeds) | ours (seed " seed ", " n " arrangements) |"
    print "|---|---|---|"
    printf "| greedy p1 | %s | %.2f |\n| p_min | %s | %.2f |\n| p_max | %s | %.2f |\n", P[1], $4, P[2], $5, P[3], $6
    printf "| P_r %% | %s | %.2f |\n| N(p < p1) | %s | %s |\n| pct %% | %s | %.3g |\n", P[4], $7, P[5], $8, P[6], $11 }' \
  "$here/paper_fig2.csv" "$out/fig2.csv" >"$out/fig2.md"
lb_provenance "$out" complete
echo "$0: wrote $out/fig2.csv, $out/fig2_hist.csv, $out/fig2.png and $out/fig2.md"
