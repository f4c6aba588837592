# Seed 000 Fig. 3 and Fig. 4 from the medians written by fig34.sh.
set terminal pngcairo size 800,500
set key top left
set grid
set ylabel "run time (s)"
set style data linespoints
policies = "lowest dasud cchspmd rmtlb"
titles = "LOWEST DASUD CCHSPMD RMTLB"
set output outdir."/fig3.png"
set title "Parallel matrix multiplication, six PVM hosts (seed 000 Fig. 3)"
set xlabel "matrix order n"
plot for [i=1:4] outdir."/matmul.dat" using 2:(strcol(1) eq word(policies,i) ? $3 : 1/0) \
     title word(titles,i) pointtype i
set output outdir."/fig4.png"
set title "Prime finding, six PVM hosts (seed 000 Fig. 4)"
set xlabel "numbers tested (millions)"
plot for [i=1:4] outdir."/primes.dat" using ($2/1e6):(strcol(1) eq word(policies,i) ? $3 : 1/0) \
     title word(titles,i) pointtype i
