# lease.gp: lease.sh's figure from lease_plotdata.awk's files in outdir:
# left, the time from each fault to lbmaster's line saying the host
# failed (master-kill: until the dead master's workers had left), the
# 5 s goal dashed; right, the makespan penalty (run with the fault /
# without).  PNG, SVG and PDF.
kinds = system("cat '".outdir."/kinds'")
nk = system("cat '".outdir."/nkinds'") + 0
do for [t in "pngcairo svg pdfcairo"] {
  if (t eq "pngcairo") { set terminal pngcairo size 1100,450 font "sans,10"; set output outdir."/leases.png" }
  if (t eq "svg") { set terminal svg size 1100,450 font "sans,10" background "#ffffff"; set output outdir."/leases.svg" }
  if (t eq "pdfcairo") { set terminal pdfcairo size 11in,4.5in font "sans,10"; set output outdir."/leases.pdf" }
  set multiplot layout 1,2
  set grid
  set xrange [-0.6:nk - 0.4]
  eval "set xtics rotate by -25 (".kinds.")"
  set key top left
  set title "Fault to detection (master-kill: until its workers left)"
  set offsets 0, 0, 0.6, 0
  set ylabel "seconds"
  set yrange [0:*]
  plot outdir."/detect.dat" using 1:($3 > 0 ? $2 : 1/0) title "trial" pt 7 ps 0.7 lc rgb "#1f77b4", \
       "" using 1:($3 > 0 ? 1/0 : $2) title "trial with a failed check" pt 6 ps 1 lc rgb "#d62728", \
       5 title "goal: 5 s" lc rgb "gray" dt 2
  set offsets 0, 0, 0.1, 0
  set title "Makespan with the fault / without"
  set ylabel "penalty"
  set yrange [0:*]
  plot outdir."/penalty.dat" using 1:2 notitle pt 7 ps 0.7 lc rgb "#2ca02c", 1 notitle lc rgb "gray" dt 2
  unset multiplot
  unset output
}
