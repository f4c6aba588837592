# Seed 004 Fig. 1 (speedup against processors used: bidding, sharing)
# and Fig. 2 (speedup against matrix size: balance, sharing), ours beside
# the paper's, from the CSV files tables.sh writes.  Speedups, not times:
# our hosts are ~200x faster than the paper's, so only ratios compare.
# Variables: outdir (the CSV files), scales; figdir (default outdir) and
# fmt (png, svg or pdf; default png) name the figures figdir/fig1.fmt
# and figdir/fig2.fmt.  Ours: the median of the runs, with bars over
# their range (tables.sh: the fastest uniprocessor run over the slowest
# of the scheme's, to the slowest over the fastest), which the key says;
# tables written before they had those columns are drawn without.
if (!exists("figdir")) figdir = outdir
if (!exists("fmt")) fmt = 'png'
term = system("dirname '".ARG0."'")."/../term.gp"
w = 860; h = 520
set datafile separator ","
set key top left
set grid
set style data linespoints
# Points at the ends of the axes sat on the frame.
set offsets graph 0.02, graph 0.02, graph 0.06, 0
set bars small
nscales = words(scales)
spread = system("head -1 '".outdir."/table1.csv' | tr , '\\n' | grep -cx runs") + 0
runs = spread ? system("awk -F, 'NR > 1 { print $13; exit }' '".outdir."/table1.csv'") : ''
note = spread ? sprintf("\nours: the median of %s runs, bars over their range", runs) : ''
ours = 'ours'
style = spread ? 'yerrorlines' : 'linespoints'

output = figdir."/fig1.".fmt; load term
set title "Seed 004 Fig. 1: 600 x 600 (x scale) matrix, k processors used".note
set xlabel "processors used k (4 Ultra1, E450, O2)"
set ylabel "speedup over one Ultra1"
set xrange [0.8:6.2]
plot outdir."/paper_table1.csv" using 1:(134.8/$3) every ::1 title "paper, bidding" dashtype 2 pointtype 4 lc 1, \
     outdir."/paper_table1.csv" using 1:(134.8/$4) every ::1 title "paper, sharing" dashtype 2 pointtype 6 lc 2, \
     for [i=1:nscales] outdir."/table1.csv" using ($1 == word(scales,i)+0 ? $2 - 0.04 : 1/0):7:(spread ? $9 : $7):(spread ? $10 : $7) \
       every ::1 with @style title sprintf("%s x%s, bidding", ours, word(scales,i)) pointtype 5 lc 1 lw 1+i, \
     for [i=1:nscales] outdir."/table1.csv" using ($1 == word(scales,i)+0 ? $2 + 0.04 : 1/0):8:(spread ? $11 : $8):(spread ? $12 : $8) \
       every ::1 with @style title sprintf("%s x%s, sharing", ours, word(scales,i)) pointtype 7 lc 2 lw 1+i, \
     outdir."/paper_table1.csv" using 1:($1 <= 4 ? $1 : ($1 == 5 ? 6 : 7.8)) every ::1 \
       title "sum of speeds (sharing's bound)" with lines dashtype 3 lc 0

output = figdir."/fig2.".fmt; load term
set key bottom right
set title "Seed 004 Fig. 2: all six machines, speedup against matrix size".note
set xlabel "matrix order / scale"
set ylabel "speedup over one Ultra1"
set xrange [50:1050]
set yrange [0:8.5]
plot outdir."/paper_table2.csv" using 1:5 every ::1 title "paper, balance" dashtype 2 pointtype 4 lc 3, \
     outdir."/paper_table2.csv" using 1:6 every ::1 title "paper, sharing" dashtype 2 pointtype 6 lc 2, \
     for [i=1:nscales] outdir."/table2.csv" using ($1 == word(scales,i)+0 ? $2 - 6 : 1/0):7:(spread ? $9 : $7):(spread ? $10 : $7) \
       every ::1 with @style title sprintf("%s x%s, balance", ours, word(scales,i)) pointtype 5 lc 3 lw 1+i, \
     for [i=1:nscales] outdir."/table2.csv" using ($1 == word(scales,i)+0 ? $2 + 6 : 1/0):8:(spread ? $11 : $8):(spread ? $12 : $8) \
       every ::1 with @style title sprintf("%s x%s, sharing", ours, word(scales,i)) pointtype 7 lc 2 lw 1+i, \
     6 title "6 x slowest (balance's bound)" dashtype 3 lc 3, \
     7.8 title "sum of speeds (sharing's bound)" dashtype 3 lc 2
