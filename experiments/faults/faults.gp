# faults.gp: run.sh's figure from plotdata.awk's files in outdir:
# left, the makespan penalty (fault run / reference) per policy, each run
# a point beside the mean of its cell with the 95 % t interval of that
# mean; right, the distribution of detection times.  PNG, SVG and PDF.
if (!exists("figdir")) figdir = outdir
groups = system("cat '".outdir."/groups'")
pols = "RMTLB LOWEST DASUD CCHSPMD diffusion diffusion2"
do for [t in "pngcairo svg pdfcairo"] {
  if (t eq "pngcairo") { set terminal pngcairo size 1100,450; set output figdir."/faults.png" }
  if (t eq "svg") { set terminal svg size 1100,450; set output figdir."/faults.svg" }
  if (t eq "pdfcairo") { set terminal pdfcairo size 11in,4.5in; set output figdir."/faults.pdf" }
  set multiplot layout 1,2
  set grid
  set key top right
  set title "Makespan with one worker killed (SIGKILL) / without\neach run a point; bar: the mean with its 95 % t interval"
  set bars 2
  set xrange [-0.5:5.5]
  set yrange [*:*]
  set xtics rotate by -25 ("RMTLB" 0, "LOWEST" 1, "DASUD" 2, "CCHSPMD" 3, "diffusion" 4, "diffusion2" 5)
  set ylabel "penalty (makespan ratio)"
  unset logscale x
  unset xlabel
  plot outdir."/penalty.dat" using ($2 == 0 ? $1 - 0.2 : 1/0):3 title "primes" pt 7 ps 0.8 lc 1, \
       "" using ($2 == 1 ? $1 + 0.04 : 1/0):3 title "matmul" pt 5 ps 0.8 lc 2, \
       outdir."/penalty-mean.dat" using ($2 == 0 ? $1 - 0.1 : 1/0):3:4 with yerrorbars pt 2 ps 1.2 lw 1.5 lc 1 \
         title "mean, primes", \
       "" using ($2 == 1 ? $1 + 0.14 : 1/0):3:4 with yerrorbars pt 2 ps 1.2 lw 1.5 lc 2 title "mean, matmul", \
       1 notitle lc rgb "gray" dt 2
  set title "Time from the kill to lbmaster's detection line"
  set xtics auto norotate
  set xrange [*:*]
  set yrange [0:1.05]
  set logscale x
  set xlabel "detection time (s)"
  set ylabel "fraction of runs"
  set key bottom right
  plot for [i=1:words(groups)] outdir."/detect-".word(groups,i).".dat" using 1:2 with steps lw 2 lc i notitle, \
       for [i=1:words(groups)] outdir."/detect-".word(groups,i).".dat" using 1:2 with points pt 7 ps 0.6 lc i \
         title word(groups,i)
  unset multiplot
  unset output
}
