# Seed 000 on six PVM hosts, for experiments/report.sh: each policy's
# makespan over the ideal at the CPU share its hosts received (1 = perfect
# balance; it discounts the machine's other load), against problem size,
# matrix multiplication and prime finding side by side: the median of
# the runs at each point, with a bar from the lowest to the highest.
#   gnuplot -e "data='medians.csv'; output='x.svg'" received.gp
# data: workload,size,policy,makespan_s,ratio_received,ratio_received_min,
# ratio_received_max,runs (compare.awk), sorted by workload, policy and
# size.
w = 1100; h = 440
load system("dirname '".ARG0."'")."/../term.gp"
set datafile separator ','
set style data yerrorlines
set bars small
set grid
set key top right
set ylabel 'makespan / ideal at the CPU share received'
set yrange [0.9:*]
set offsets graph 0.04, graph 0.04, 0, 0
pols = 'lowest dasud cchspmd rmtlb'
names = 'LOWEST DASUD CCHSPMD RMTLB'
stats data using 8 nooutput
runs = STATS_min == STATS_max ? sprintf('%d runs', STATS_min) : sprintf('%d to %d runs', STATS_min, STATS_max)
set multiplot layout 1,2 title 'Seed 000 Figs. 3 and 4 on six PVM hosts: closeness to the ideal (lower is better)'.\
  "\n".'median of '.runs.' at each point; bars: lowest to highest'
set title 'matrix multiplication'
set xlabel 'matrix order n'
plot for [i=1:4] data using (strcol(1) eq 'matmul' && strcol(3) eq word(pols,i) ? $2 : NaN):5:6:7 \
     title word(names,i) pointtype i lw 2
set title 'prime finding'
set xlabel 'numbers tested (millions)'
plot for [i=1:4] data using (strcol(1) eq 'primes' && strcol(3) eq word(pols,i) ? $2/1e6 : NaN):5:6:7 \
     title word(names,i) pointtype i lw 2
unset multiplot
