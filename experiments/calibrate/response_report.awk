# response_report.awk: response.csv -> a Markdown line per workload:
# medians over the RMTLB runs of the farm's and lbsim's one-hop response
# times (RM out to AM back), which rest on the quantum and the wait for it.
function sortv(a, n,   i, j, x) { for (i = 2; i <= n; i++) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x } }
function med(a, n) { sortv(a, n); return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
NR == 1 { next }
$2 > 0 && $6 > 0 { w = $1; sub(/-.*/, "", w); k = ++n[w]; fm[w, k] = $4; f9[w, k] = $5; sm[w, k] = $8; s9[w, k] = $9 }
END {
  print "\nRMTLB one-hop response (RM out to AM back), medians over the runs of each run's median and 90th percentile:\n"
  print "| workload | runs | farm median | farm p90 | lbsim median | lbsim p90 |"
  print "|---|---|---|---|---|---|"
  for (w in n) {
    for (i = 1; i <= n[w]; i++) { a[i] = fm[w, i]; b[i] = f9[w, i]; c[i] = sm[w, i]; d[i] = s9[w, i] }
    printf "| %s | %d | %.1f ms | %.1f ms | %.1f ms | %.1f ms |\n", w, n[w], 1e3 * med(a, n[w]), 1e3 * med(b, n[w]), 1e3 * med(c, n[w]), 1e3 * med(d, n[w])
  }
}
