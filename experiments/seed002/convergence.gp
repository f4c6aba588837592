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
set multiplot layout 1,3
do for [t in "mesh_4x4 mesh_8x8 ring_16"] {
  set title t noenhanced
  plot for [s in "first second hetero second-int"] dir."/conv_".t."_".s.".csv" using 1:($2 > 0 ? $2 : 1/0) skip 1 with lines lw 2 title s noenhanced
}
unset multiplot
