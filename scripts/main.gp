# scripts/main.gp: the main job's bar chart, makespan / ideal per policy.
# gnuplot -e "data='main.dat'; output='main.png'; title='...'" main.gp
# data: "policy ratio ratio_received" rows; output ends .png, .svg or .pdf.
ext = output[strlen(output)-2:]
if (ext eq 'png') { set terminal pngcairo size 900,480 font 'sans,11' }
if (ext eq 'svg') { set terminal svg size 900,480 font 'sans,11' background '#ffffff' }
if (ext eq 'pdf') { set terminal pdfcairo size 6.5in,3.5in font 'sans,9' }
if (ext ne 'png' && ext ne 'svg' && ext ne 'pdf') { print 'main.gp: output must end .png, .svg or .pdf'; exit status 2 }
set output output
set title title noenhanced
set ylabel 'makespan / ideal (1 = perfect balance)'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set grid ytics
set yrange [0:*]
# Room above the tallest bar for its value label (it sat on the frame).
set offsets 0, 0, graph 0.1, 0
set key top right
set arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2 lc rgb '#555555'
plot data using 2:xtic(1) title 'ideal at the nominal speeds' lc rgb '#3b6ea8', \
     '' using 3 title 'ideal at the CPU received' lc rgb '#e0a030', \
     '' using 0:2:(sprintf('%.2f', $2)) with labels offset -1.2,0.6 notitle
