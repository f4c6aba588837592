# Imbalance against step for each scheme and topology, from the
# conv_*.csv traces written by convergence.sh.  Variable: dir.
set terminal pngcairo size 1200,420 font ",10"
set output dir."/convergence.png"
set datafile separator ","
set logscale y
set format y "10^{%T}"
set xlabel "step"
set ylabel "max |w_i - mean|"
set key top right
S = "first second hetero second-int hetero-safe"
set multiplot layout 1,3 title "solid: measured; dashed: initial imbalance x rate^{step}"
do for [t in "mesh_4x4 mesh_8x8 ring_16"] {
  set title t noenhanced
  plot for [i = 1:5] dir."/conv_".t."_".word(S, i).".csv" using 1:($2 > 0 ? $2 : 1/0) skip 1 with lines lw 2 lc i title word(S, i) noenhanced, \
       for [i = 1:3] dir."/conv_".t."_".word(S, i).".csv" using 1:3 skip 1 with lines dt 2 lw 1 lc i notitle
}
unset multiplot
