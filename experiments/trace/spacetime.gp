# Space-time diagram of one trace: hosts up the y axis, time along x,
# each host's lane shaded where it was idle (grey) or balancing (orange)
# and left white where it was busy; one segment per message from (send,
# src) to (arrival, dst), coloured by type; migrations thick with a dot
# at the arrival; result deliveries to lbmaster marked on its lane.
# plot.sh runs it:
#   gnuplot -e "data='seg.csv'; states='states.csv'; nstates=120; output='x.svg';
#               hosts=6; sink=1; types='RM AM'; nmig=3; ndeliv=2; caption='...';
#               heading='...'; xlab='time (s)'" spacetime.gp
# data is `lbtrace segments`, states `lbtrace states` (nstates rows: 0
# draws no shading; nidle, nbal of them idle and balancing, each in the
# key only when there is one); the terminal follows output's extension.
ext = output[strlen(output)-2:]
if (ext eq 'png') { set terminal pngcairo size 1400,620 font 'sans,11' }
if (ext eq 'svg') { set terminal svg size 1400,620 font 'sans,11' background '#ffffff' }
if (ext eq 'pdf') { set terminal pdfcairo size 11in,4.9in font 'sans,9' }
if (ext ne 'png' && ext ne 'svg' && ext ne 'pdf') { print 'spacetime.gp: output must end .png, .svg or .pdf'; exit status 2 }
set output output
set datafile separator ','
# the time span, before any range is set (stats obeys them)
stats data using 1 nooutput
x0 = STATS_min
stats data using 2 nooutput
x1 = STATS_max
if (nstates > 0) {
  stats states using 3 nooutput
  if (STATS_min < x0) { x0 = STATS_min }
  stats states using 4 nooutput
  if (STATS_max > x1) { x1 = STATS_max }
}
pad = x1 > x0 ? 0.02 * (x1 - x0) : 1
set xrange [x0 - pad:x1 + pad]
set title heading noenhanced
set xlabel xlab noenhanced
how = 'Thick, with a dot at the arrival: a migration (an LMM or TRANSFER carrying processes).'
if (nstates > 0) { how = how.'  A lane is white where its host was busy (running a quantum).' }
set label 1 caption."\n".how at screen 0.01, 0.055 left noenhanced font ',9'
set bmargin 6
set key outside right top vertical noenhanced samplen 2.5 reverse Left
set grid xtics
set ytics () nomirror
do for [h=0:hosts-1] { set ytics add (sprintf('host %d', h) h) }
if (sink) { set ytics add ('lbmaster' hosts) }
set yrange [-0.6:hosts - 1 + sink + 0.6]

# A fixed colour per type, whichever types a trace has.
alltypes = 'RM AM CM LMM DRM PROBE REPLY TRANSFER LOAD INSTR REPORT ORDER RESULT ABORT POLICY PAYLOAD DELIVER'
allcols = '#1f77b4 #ff7f0e #2ca02c #d62728 #9467bd #7f7f7f #bcbd22 #b2182b #17becf #6a3d9a #33a02c #fb9a99 #a6761d #666666 #1b9e77 #8c564b #e7298a'
cols = ''
do for [k=1:words(types)] {
  c = '#000000'
  do for [j=1:words(alltypes)] { if (word(alltypes, j) eq word(types, k)) { c = word(allcols, j) } }
  cols = cols.' '.c
}
is(k, mig) = strcol(5) eq word(types, k) && (strcol(6) eq 'migration') == mig
head = 'head filled size screen 0.006,20'
set style fill solid 1.0 noborder
# The states first, behind the messages; none (nstates 0) plots nothing.
if (!exists("nidle")) nidle = nstates
if (!exists("nbal")) nbal = nstates
st(s) = strcol(2) eq s ? ($3 + $4) / 2 : NaN
lanes = nstates > 0 ? states : data
plot lanes using (nstates > 0 ? st('idle') : NaN):1:3:4:($1 - 0.3):($1 + 0.3) with boxxyerror \
       lc rgb '#d0d0d0' title (nidle > 0 ? 'idle' : ''), \
     lanes using (nstates > 0 ? st('balancing') : NaN):1:3:4:($1 - 0.3):($1 + 0.3) with boxxyerror \
       lc rgb '#fdbf6f' title (nbal > 0 ? 'balancing' : ''), \
     for [k=1:words(types)] data using (is(k, 0) ? $1 : NaN):3:($2-$1):($4-$3) \
       with vectors @head lc rgb word(cols, k) title word(types, k), \
     for [k=1:words(types)] data using (is(k, 1) ? $1 : NaN):3:($2-$1):($4-$3) \
       with vectors @head lw 3 lc rgb word(cols, k) notitle, \
     data using (strcol(6) eq 'migration' ? $2 : NaN):4 with points pt 7 ps 0.9 lc rgb '#000000' \
       title (nmig ? 'migration' : ''), \
     data using (strcol(6) eq 'deliver' ? $2 : NaN):4 with points pt 9 ps 1.4 lc rgb '#e7298a' \
       title (ndeliv ? 'result delivered' : '')
