# report.awk: compare.csv -> Markdown: per (workload, size, policy,
# results) the farm's makespan / ideal at the received share and the
# simulator's predictions, medians [min-max] over the runs, and the
# error of the median prediction; then how many points are within 10 %;
# then the same medians compact: one row per workload, policy and mode.
function sortv(a, n,   i, j, x) { for (i = 2; i <= n; i++) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x } }
function med(a, n) { return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
function stat(j,   r) { for (r = 1; r <= n[k]; r++) a[r] = v[k, j, r]; sortv(a, n[k]); lo = a[1]; hi = a[n[k]]; return med(a, n[k]) }
NR == 1 { next }
{ k = $2 SUBSEP $3 SUBSEP $4 SUBSEP $5; if (!(k in n)) key[++nk] = k
  r = ++n[k]; v[k, 1, r] = $7; v[k, 2, r] = $8; v[k, 3, r] = $9
  e = $8 / $7 - 1; e2 = $9 / $7 - 1; runs++
  if (e < 0.1 && e > -0.1) in1++; if (e2 < 0.1 && e2 > -0.1) in2++ }
END {
  print "| workload | size | policy | results | runs | farm | sim | error | sim+deliver | error |"
  print "|---|---|---|---|---|---|---|---|---|---|"
  for (q = 1; q <= nk; q++) {
    k = key[q]; split(k, p, SUBSEP)
    f = stat(1); fl = lo; fh = hi; s = stat(2); sl = lo; sh = hi; d = stat(3)
    es = s / f - 1; ed = d / f - 1
    printf "| %s | %s | %s | %s | %d | %.3f [%.3f-%.3f] | %.3f [%.3f-%.3f] | %+.1f %% | %.3f | %+.1f %% |\n", p[1], p[2], p[3], p[4], n[k],
      f, fl, fh, s, sl, sh, 100 * es, d, 100 * ed
    pts++; if (es < 0.1 && es > -0.1) p1++; if (ed < 0.1 && ed > -0.1) p2++
    row = p[1] SUBSEP p[3] SUBSEP p[4]; if (!(row in cells)) rows[++nr] = row
    if (!((p[1], p[2]) in seen)) { seen[p[1], p[2]] = 1; sz[p[1], ++nsz[p[1]]] = p[2] }
    cells[row] = 1; cc[row, p[2]] = sprintf("%.2f / %.2f (%+.0f %%)", f, s, 100 * es)
    ae[pts] = es < 0 ? -es : es; ad[pts] = ed < 0 ? -ed : ed
  }
  sortv(ae, pts); sortv(ad, pts)
  printf "\nWithin 10 %%: sim %d of %d points (median |error| %.1f %%), sim+deliver %d of %d (%.1f %%); " \
         "single runs: sim %d of %d, sim+deliver %d of %d.\n", p1, pts, 100 * med(ae, pts), p2, pts, 100 * med(ad, pts),
         in1, runs, in2, runs
  for (q = 1; q <= nr; q++) {
    split(rows[q], p, SUBSEP)
    if (p[1] != lastw) {
      h = "| " p[1] " | results"; sep = "|---|---"
      for (i = 1; i <= nsz[p[1]]; i++) { h = h " | " sz[p[1], i]; sep = sep "|---" }
      print "\nFarm / lbsim (error), medians:\n"; print h " |"; print sep "|"; lastw = p[1]
    }
    r = "| " p[2] " | " p[3]
    for (i = 1; i <= nsz[p[1]]; i++) r = r " | " cc[rows[q], sz[p[1], i]]
    print r " |"
  }
}
