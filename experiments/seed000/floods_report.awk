# floods_report.awk: floods.csv (fig34.sh) -> Markdown: per workload,
# size and result mode, medians over the RMTLB runs of host 0's floods,
# the floods that had an answer before the next one, and the processes
# placed by the first flood and in all.  -v epn=N -v room=M: the
# excess at the start and the seats the five other hosts offer.
function sortv(a, n,   i, j, x) { for (i = 2; i <= n; i++) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x } }
function med(j,   r) { for (r = 1; r <= n[k]; r++) a[r] = v[k, j, r]; sortv(a, n[k]); return n[k] % 2 ? a[(n[k] + 1) / 2] : (a[n[k] / 2] + a[n[k] / 2 + 1]) / 2 }
NR == 1 { next }
$6 == 0 { k = $2 SUBSEP $3 SUBSEP $4; if (!(k in n)) key[++nk] = k; r = ++n[k]
  for (j = 7; j <= 12; j++) v[k, j, r] = $j; if ($9 == room) full[k]++ }
END {
  print "\n### RMTLB floods of host 0 (medians over the runs; from each run's trace)\n"
  printf "Excess at the start EPN = %d; seats on the five other hosts at the start: %d.\n\n", epn, room
  print "| workload | size | results | runs | floods | answered | placed by the first flood | runs where it filled every seat | placed in all |"
  print "|---|---|---|---|---|---|---|---|---|"
  for (q = 1; q <= nk; q++) { k = key[q]; split(k, p, SUBSEP)
    printf "| %s | %s | %s | %d | %g | %g | %g | %d | %g |\n", p[1], p[2], p[3], n[k], med(7), med(8), med(9), full[k], med(11) }
}
