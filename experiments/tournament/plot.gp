# Makespan / ideal of each policy at its best setting, one cluster per
# (topology, processes per host), with 95 % confidence intervals.
# run.sh calls it with dat (label, then mean and CI half-width per
# policy), output, fmt (png, svg or pdf), pols and ttl:
#   gnuplot -e "dat='out/tournament/fig-primes-skew.dat'; output='x.png'; fmt='png'; \
#     pols='none rmtlb lowest dasud cchspmd diffusion diffusion2 rmtlb-drain'; ttl='primes'" \
#     experiments/tournament/plot.gp
if (fmt eq 'png') set terminal pngcairo size 1400,560 font ',10'
if (fmt eq 'svg') set terminal svg size 1400,560 font ',10'
if (fmt eq 'pdf') set terminal pdfcairo size 14in,5.6in font ',10'
set output output
set title sprintf("makespan / ideal at each policy's best setting, %s\n(mean of seeds, 95 %% CI; lower is better; bars above 16 clipped)", ttl)
set style data histograms
set style histogram errorbars gap 1 lw 1
set style fill solid 0.8 border -1
set logscale y
set yrange [0.95:16]
set ytics (1, 1.1, 1.25, 1.5, 2, 3, 5, 10, 16)
set ylabel 'makespan / ideal (log scale)'
set grid ytics
set key outside right
set xtics rotate by -25
np = words(pols)
plot for [k=1:np] dat using (column(2*k)):(column(2*k+1)):xtic(1) title word(pols, k)
