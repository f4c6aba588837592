# Share of RMTLB's heavy episodes placed by one flood against the room /
# excess ratio at the start, one point per run (episodes.sh):
#   gnuplot -e "csv='out/tournament/episodes.csv'; output='e.png'; fmt='png'" \
#     experiments/tournament/episodes.gp
if (fmt eq 'png') set terminal pngcairo size 900,560 font ',10'
if (fmt eq 'svg') set terminal svg size 900,560 font ',10'
if (fmt eq 'pdf') set terminal pdfcairo size 9in,5.6in font ',10'
set output output
set datafile separator ','
set title 'RMTLB: episodes placed by one flood vs. room for the excess at the start'
set xlabel 'room / excess at the start (sum of IPN / sum of EPN)'
set ylabel 'share of heavy episodes placed by one flood'
set logscale x
set yrange [-0.05:1.05]
set grid
set key outside right
set arrow from 1, graph 0 to 1, graph 1 nohead dt 2
plot csv using ($6 > 0 && $8 > 0 && $2 eq 'skew' ? $7 / $6 : 1/0):($9 / $8) with points pt 7 title 'skewed start', \
     csv using ($6 > 0 && $8 > 0 && $2 eq 'one' ? $7 / $6 : 1/0):($9 / $8) with points pt 5 title 'all on one node'
