# Seed 002 Fig. 2 from fig2_hist.csv: counts of p in (n-1, n] against n,
# with an arrow at the greedy p1.  Variables: histfile, p1, and output
# (or outfile), ending .png, .svg or .pdf.
if (!exists("output")) output = outfile
w = 900; h = 540; font = 'sans,11'
load system("dirname '".ARG0."'")."/../term.gp"
set datafile separator ","
set title sprintf("8x8 grid, 100000 random arrangements; arrow: greedy p1 = %.1f", p1)
set xlabel "n  (p in (n-1, n])"
set ylabel "arrangements"
set style fill solid 0.6 border -1
set boxwidth 1
stats histfile using 1 skip 1 nooutput
xlo = (p1 < STATS_min ? p1 : STATS_min) - 10
xhi = STATS_max + 5
stats histfile using 2 skip 1 nooutput
ymax = STATS_max
set xrange [xlo:xhi]
set yrange [0:ymax * 1.15]
set arrow 1 from p1, ymax * 0.5 to p1, 0 head filled lw 2 lc rgb "red"
set label 1 sprintf("greedy p1 = %.1f", p1) at p1, ymax * 0.55 left offset -1,0 tc rgb "red"
plot histfile using ($1 - 0.5):2 skip 1 with boxes lc rgb "#4477aa" notitle
