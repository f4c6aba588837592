# Redraws the congestion figure from congestion.csv (congestion.sh):
#   gnuplot -e "data='out/simgrid/congestion.csv'; output='out/simgrid/congestion.png'" experiments/simgrid/congestion.gp
# output ends .png, .svg or .pdf.
w = 900; h = 560
load system("dirname '".ARG0."'")."/../term.gp"
set datafile separator ','
set title "lbsimgrid / lbsim makespan as the links fill\n{/*0.85 torus:8x8, the farm's costs, 1 MB results back to their origins; bandwidth 2e6 down to 5e4 bytes per time unit}"
set xlabel "demand on lbsim's busiest link: its bytes / bandwidth / makespan"
set ylabel 'makespan, lbsimgrid / lbsim'
set logscale x
set logscale y
set grid xtics ytics mxtics lc rgb '#dddddd'
set key top left box opaque
set yrange [0.7:10]
set ytics (0.8, 1, 1.5, 2, 3, 5, 8)
set xrange [0.05:8]
set xtics (0.05, 0.1, 0.2, 0.5, 1, 2, 5)
set arrow from graph 0, first 1 to graph 1, first 1 nohead lc rgb '#888888' dt 2
pols = 'rmtlb dasud cchspmd diffusion'
pts = '7 5 9 13'
plot for [k=1:words(pols)] data every ::1 using (strcol(1) eq word(pols, k) ? $4 : 1/0):($6 / $5) \
       with points pt int(word(pts, k)) ps 1.1 title word(pols, k), \
     data every ::1 using 4:($7 / $6) with points pt 1 ps 0.7 lc rgb '#999999' \
       title 'ties: lbsimgrid with its actors reversed / lbsimgrid'
