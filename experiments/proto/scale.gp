# Redraws OUT/scale.png from OUT/scale_summary.csv: the mean makespan /
# ideal over seeds of each policy on each topology, skewed load, with a
# bar for the 95 % t interval of the mean (its column ratio_ci95; a
# summary written before it had one is drawn without bars, and says so):
#   gnuplot -e "summary='out/proto/scale_summary.csv'; output='out/proto/scale.png'" experiments/proto/scale.gp
# output ends .png, .svg or .pdf.
w = 1100; h = 500
load system("dirname '".ARG0."'")."/../term.gp"
set datafile separator ','
has_ci = system(sprintf("head -1 '%s' | tr , '\\n' | grep -cx ratio_ci95", summary)) + 0
runs = system(sprintf("awk -F, 'NR > 1 && $2 == \"skew\" { if (!lo || $4 < lo) lo = $4; if ($4 > hi) hi = $4 } END { printf \"%%s\", lo == hi ? lo : lo \" to \" hi }' '%s'", summary))
set title sprintf("makespan / ideal by policy, skewed load (lower is better)\nmean of %s seeds; %s", runs, \
  has_ci ? "bars: 95 % t interval of the mean" : "no spread: this summary predates its ratio_ci95 column")
set style data histograms
if (has_ci) { set style histogram errorbars gap 1 lw 1 } else { set style histogram clustered gap 1 }
set style fill solid 0.8 border -1
set ylabel 'makespan / ideal'
set key outside right
set xtics rotate by -20
set yrange [0:*]
# one cluster per topology; columns are policies in a fixed order, each
# a mean and its interval's half-width; a topology or a policy the
# summary lacks is left out
allpols = 'none rmtlb lowest dasud cchspmd cchspmd-tp diffusion diffusion2'
alltopos = 'ring:6 complete:6 torus:8x8 hypercube:6 torus:32x32'
cell(t, p) = system(sprintf("awk -F, '$1==\"%s\" && $2==\"skew\" && $3==\"%s\" { print $5, (NF >= 14 ? $14 : 0) }' %s", t, p, summary))
in(col, v) = system(sprintf("awk -F, 'NR > 1 && $2 == \"skew\" && $%d == \"%s\" { print 1; exit }' %s", col, v, summary)) eq '1'
pols = ''
do for [p in allpols] { if (in(3, p)) { pols = pols.' '.p } }
set print $grid
do for [t in alltopos] {
  if (in(1, t)) {
    row = t
    do for [p in pols] { c = cell(t, p); row = row.' '.(c eq '' ? 'NaN NaN' : c) }
    print row
  }
}
unset print
set datafile separator whitespace
if (has_ci) {
  plot for [k=1:words(pols)] $grid using (column(2*k)):(column(2*k+1)):xtic(1) title word(pols, k)
} else {
  plot for [k=1:words(pols)] $grid using (column(2*k)):xtic(1) title word(pols, k)
}
