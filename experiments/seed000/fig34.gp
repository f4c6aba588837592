# Seed 000 Fig. 3 (matmul) and Fig. 4 (primes) from the files dat.awk
# writes: medians with min-max bars, which the figure says, with the
# number of runs at a point (summary.csv's runs).  Left: makespan (log scale, none
# included); middle: makespan / ideal; right: makespan / ideal at the CPU
# share the hosts received.  fig3, fig4: --results origin (the paper's);
# fig3-direct, fig4-direct: --results direct.
# Figures go to figdir (default outdir).
if (!exists("figdir")) figdir = outdir
policies = "rmtlb lowest dasud cchspmd none"
titles = "RMTLB LOWEST DASUD CCHSPMD none"
exts = "png svg pdf"
terms = "pngcairo size 1500,480 font ',10'|svg size 1500,480 font 'sans,10'|pdfcairo size 15in,4.8in font ',10'"
set grid
# Room above the data for the key (it covered the last points).
set offsets graph 0.04, graph 0.04, graph 0.3, 0
set linetype 5 lc rgb "gray40"
set key top left
set bars small
# The runs behind a point (none: its own, usually one).
runsof(none) = system("awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } ($c[\"policy\"] == \"none\") == ".none." { r = $c[\"runs\"] + 0; if (!lo || r < lo) lo = r; if (r > hi) hi = r } END { if (hi) printf \"%s\", lo == hi ? lo : lo \" to \" hi }' '".outdir."/summary.csv' 2>/dev/null")
runs = runsof(0); nruns = runsof(1)
spread = "points: median of ".(runs eq "" ? "the" : runs)." runs".(nruns eq "" || nruns eq runs ? "" : " (none: ".nruns.")")."; bars: lowest to highest"
do for [w in "matmul primes"] {
do for [m in "origin direct"] {
  f(p) = outdir."/dat/".w."-".m."-".p.".dat"
  base = (w eq "matmul" ? "fig3" : "fig4").(m eq "origin" ? "" : "-direct")
  if (system("ls ".outdir."/dat/".w."-".m."-*.dat >/dev/null 2>&1 && echo 1 || echo 0") eq "0") { continue }
  xl = (w eq "matmul" ? "matrix order n" : "numbers tested (millions)")
  xs = (w eq "matmul" ? 1.0 : 1e6)
  what = (w eq "matmul" ? "Parallel matrix multiplication (seed 000 Fig. 3)" : "Prime finding (seed 000 Fig. 4)")
  do for [t = 1:3] {
    eval "set terminal ".system("echo \"".terms."\" | cut -d'|' -f".t)
    set output figdir."/".base.".".word(exts, t)
    set multiplot layout 1,3 title what.", ".setup.", results ".m."\n".spread
    set xlabel xl
    set logscale y
    set key top left
    set ylabel "makespan (s)"
    set title "makespan"
    plot for [i = 1:5] (system("test -e ".f(word(policies, i))." && echo 1") eq "1" ? f(word(policies, i)) : "/dev/null") \
         using ($1/xs*(1+0.006*(i-3))):2:3:4 with yerrorlines title word(titles, i) pointtype i lc i lw 1.5
    unset logscale y
    set key top right
    set ylabel "makespan / ideal"
    set title "against the nominal ideal (sum of CPU costs / 6 x 0.30)"
    plot for [i = 1:4] (system("test -e ".f(word(policies, i))." && echo 1") eq "1" ? f(word(policies, i)) : "/dev/null") \
         using ($1/xs*(1+0.006*(i-3))):5:6:7 with yerrorlines title word(titles, i) pointtype i lc i lw 1.5, 1 notitle dashtype 2 lc 0
    set title "against the ideal at the CPU share received"
    plot for [i = 1:4] (system("test -e ".f(word(policies, i))." && echo 1") eq "1" ? f(word(policies, i)) : "/dev/null") \
         using ($1/xs*(1+0.006*(i-3))):8:9:10 with yerrorlines title word(titles, i) pointtype i lc i lw 1.5, 1 notitle dashtype 2 lc 0
    unset multiplot
    set output
  }
}
}
