# Seed 001: steps of first-order over steps of second-order diffusion
# per graph and coefficient, as the rates predict (the paper's bound) and
# as measured.  gnuplot -e "data='speedup.csv'; output='x.png'" speedup.gp
# data is convergence.sh's speedup.csv; output ends .png, .svg or .pdf.
w = 900; h = 460
load system("dirname '".ARG0."'")."/../term.gp"
set datafile separator ','
set title 'Seed 001: second-order diffusion against first order, point load, tolerance 1e-6'
set ylabel 'steps of first order / steps of second order'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set grid ytics
set yrange [0:*]
set key top left
# Labels end under their bars (the last ran past the frame).
set xtics rotate by 20 right noenhanced
plot data using 9:xtic(stringcolumn(1).' '.stringcolumn(2)) skip 1 title 'predicted by the rates' lc rgb '#3b6ea8', \
     data using 10 skip 1 title 'measured' lc rgb '#e08a1e'
