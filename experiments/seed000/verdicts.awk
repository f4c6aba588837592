# verdicts.awk: compare.csv of experiments/calibrate/calibrate.sh (every
# farm run of fig34.sh beside lbsim's replay of it with the farm's
# costs) -> Markdown: per workload, size and result mode, the paper's
# claim (RMTLB fastest, seed 000 section 2.3, claim 3), the farm's order
# and the simulator's (median makespan / ideal at the received share,
# fastest first; none left out), and RMTLB over the best of each.
function sortv(a, n,   i, j, x) { for (i = 2; i <= n; i++) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x } }
function med(k, j, n,   r, a) { for (r = 1; r <= n; r++) a[r] = v[k, j, r]; sortv(a, n); return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
function order(pt, j,   i, m, nm, name, val, x, y, s) {
  for (i = 1; i <= np[pt]; i++) { name[i] = P[pt, i]; val[i] = med(pt SUBSEP P[pt, i], j, n[pt SUBSEP P[pt, i]]) }
  m = np[pt]
  for (i = 2; i <= m; i++) { x = val[i]; y = name[i]; for (nm = i - 1; nm >= 1 && val[nm] > x; nm--) { val[nm + 1] = val[nm]; name[nm + 1] = name[nm] } val[nm + 1] = x; name[nm + 1] = y }
  best[j] = val[1]; first[j] = name[1]; s = ""
  for (i = 1; i <= m; i++) { s = s (i > 1 ? " < " : "") toupper(name[i]); if (name[i] == "rmtlb") rm[j] = val[i] }
  return s }
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
$c["policy"] != "none" {
  pt = $c["workload"] SUBSEP $c["size"] SUBSEP $c["results"]; k = pt SUBSEP $c["policy"]
  if (!(pt in np)) { pts[++npt] = pt; np[pt] = 0 }
  if (!(k in n)) P[pt, ++np[pt]] = $c["policy"]
  r = ++n[k]; v[k, 1, r] = $c["farm_ratio_received"]; v[k, 2, r] = $c["sim_deliver_ratio"] }
END {
  print "| workload | size | results | paper | farm, fastest first | farm: RMTLB / best | simulator, fastest first | simulator: RMTLB / best | farm and simulator agree on the fastest |"
  print "|---|---|---|---|---|---|---|---|---|"
  for (q = 1; q <= npt; q++) { pt = pts[q]; split(pt, a, SUBSEP)
    fo = order(pt, 1); so = order(pt, 2)
    printf "| %s | %s | %s | RMTLB first | %s | %.2f | %s | %.2f | %s |\n", a[1], a[2], a[3], fo, rm[1] / best[1], so, rm[2] / best[2],
      first[1] == first[2] ? "yes (" toupper(first[1]) ")" : "no" } }
