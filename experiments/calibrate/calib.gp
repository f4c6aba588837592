# The simulator's makespan / ideal against the farm's (at the CPU share
# received), one point per farm run; y = x and a +-10 % band.  Left: the
# simulator as calibrated; right: with each result's hand-over to the
# master added (direct mode).
set datafile separator ","
set logscale xy
set grid
set key top left
set xlabel "farm: makespan / ideal at the received share"
policies = "rmtlb lowest dasud cchspmd none"
exts = "png svg pdf"
terms = "pngcairo size 1200,540 font ',10'|svg size 1200,540 font 'sans,10'|pdfcairo size 12in,5.4in font ',10'"
do for [t = 1:3] {
  eval "set terminal ".system("echo \"".terms."\" | cut -d'|' -f".t)
  set output outdir."/calib.".word(exts, t)
  set multiplot layout 1,2 title "lbsim calibrated to the PVM farm (six hosts, ring:6, C = 8, all from host 0)"
  do for [col in "8 9"] {
    set ylabel (col eq "8" ? "lbsim: makespan / ideal" : "lbsim with the hand-over to the master")
    plot for [i = 1:5] outdir."/compare.csv" every ::1 using (strcol(4) eq word(policies, i) ? $7 : 1/0):(column(col+0)):(strcol(5) eq "direct" ? 7 : 6) \
           with points pointtype variable lc i title word(policies, i)." (filled: direct)", \
         x notitle lc 0, 1.1*x title "+-10 %" dashtype 2 lc 0, 0.9*x notitle dashtype 2 lc 0
  }
  unset multiplot
  set output
}
