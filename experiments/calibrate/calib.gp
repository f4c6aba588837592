# The simulator's makespan / ideal against the farm's (at the CPU share
# received), one point per farm run (none, at 6-12, left out); y = x and
# a +-10 % band; filled: --results direct, open: origin.  Left: lbsim as
# calibrated; right: with each result's hand-over to the master added
# (direct mode).
if (!exists("figdir")) figdir = outdir
set datafile separator ","
set grid
set key top left
set xrange [1:3]
set yrange [1:3]
set size ratio -1
set xlabel "farm: makespan / ideal at the received share"
policies = "rmtlb lowest dasud cchspmd"
exts = "png svg pdf"
terms = "pngcairo size 1200,600 font ',10'|svg size 1200,600 font 'sans,10'|pdfcairo size 12in,6in font ',10'"
do for [t = 1:3] {
  eval "set terminal ".system("echo \"".terms."\" | cut -d'|' -f".t)
  set output figdir."/calib.".word(exts, t)
  set multiplot layout 1,2 title "lbsim calibrated to the PVM farm: six hosts on ring:6, C = 8, all from host 0 (filled: results direct; open: origin)"
  do for [col in "8 9"] {
    set ylabel (col eq "8" ? "lbsim: makespan / ideal" : "lbsim with the hand-over to the master")
    plot for [i = 1:4] outdir."/compare.csv" every ::1 \
           using (strcol(4) eq word(policies, i) && strcol(5) eq "direct" ? $7 : 1/0):(column(col+0)) \
           with points pointtype 7 lc i title word(policies, i), \
         for [i = 1:4] outdir."/compare.csv" every ::1 \
           using (strcol(4) eq word(policies, i) && strcol(5) eq "origin" ? $7 : 1/0):(column(col+0)) \
           with points pointtype 6 lc i notitle, \
         x notitle lc 0, 1.1*x title "+-10 %" dashtype 2 lc 0, 0.9*x notitle dashtype 2 lc 0
  }
  unset multiplot
  set output
}
