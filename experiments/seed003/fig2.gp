# Seed 003 Fig. 2: migration level Q per test, ours (solid) and the
# paper's Table 2 (dashed).  Variables ours, paper, output (.png, .svg
# or .pdf) come from run.sh.
w = 900; h = 500
load system("dirname '".ARG0."'")."/../term.gp"
set datafile separator ','
set key outside right
set xlabel 'test'
set ylabel 'migration level Q (tasks moved)'
set xrange [0.5:20.5]
set xtics 1
set grid
plot ours  using 1:14 skip 1 with linespoints lw 2 lc 1 title 'H (ours)', \
     ours  using 1:15 skip 1 with linespoints lw 2 lc 2 title 'T (ours)', \
     ours  using 1:16 skip 1 with linespoints lw 2 lc 3 title 'TB (ours)', \
     paper using 1:11 skip 1 with linespoints dt 2 lc 1 title 'H (paper)', \
     paper using 1:12 skip 1 with linespoints dt 2 lc 2 title 'T (paper)', \
     paper using 1:13 skip 1 with linespoints dt 2 lc 3 title 'TB (paper)'
