# Imbalance against step for each scheme and topology, from the
# conv_*.csv traces written by convergence.sh.  Variables: dir, and
# output (.png, .svg or .pdf; default dir/convergence.png).
if (!exists("output")) output = dir."/convergence.png"
w = 1200; h = 420
load system("dirname '".ARG0."'")."/../term.gp"
set datafile separator ","
set logscale y
set format y "10^{%T}"
set xlabel "step"
set ylabel "max |w_i - mean|"
# The key sat on the slow schemes' lines: an opaque box above them.
set key top right opaque box
S = "first second hetero second-int hetero-safe"
set multiplot layout 1,3 title "solid: measured; dashed: initial imbalance x rate^{step}"
do for [t in "mesh_4x4 mesh_8x8 ring_16"] {
  set title t noenhanced
  plot for [i = 1:5] dir."/conv_".t."_".word(S, i).".csv" using 1:($2 > 0 ? $2 : 1/0) skip 1 with lines lw 2 lc i title word(S, i) noenhanced, \
       for [i = 1:3] dir."/conv_".t."_".word(S, i).".csv" using 1:3 skip 1 with lines dt 2 lw 1 lc i notitle
}
unset multiplot
