# Redraws OUT/scale.png from OUT/scale_summary.csv:
#   gnuplot -e "summary='out/proto/scale_summary.csv'; output='out/proto/scale.png'" experiments/proto/scale.gp
# output ends .png, .svg or .pdf.
w = 1100; h = 500
load system("dirname '".ARG0."'")."/../term.gp"
set datafile separator ','
set title 'makespan / ideal by policy, skewed load (lower is better)'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set ylabel 'makespan / ideal'
set key outside right
set xtics rotate by -20
set yrange [0:*]
# one cluster per topology; columns are policies in a fixed order
pols = 'none rmtlb lowest dasud cchspmd cchspmd-tp diffusion diffusion2'
topos = 'ring:6 complete:6 torus:8x8 hypercube:6 torus:32x32'
val(t, p) = system(sprintf("awk -F, '$1==\"%s\" && $2==\"skew\" && $3==\"%s\" {print $5}' %s", t, p, summary))
set print $grid
do for [t in topos] { print sprintf('%s %s %s %s %s %s %s %s %s', t, val(t,'none'), val(t,'rmtlb'), val(t,'lowest'), val(t,'dasud'), val(t,'cchspmd'), val(t,'cchspmd-tp'), val(t,'diffusion'), val(t,'diffusion2')) }
unset print
set datafile separator whitespace
plot for [k=2:9] $grid using k:xtic(1) title word(pols, k-1)
