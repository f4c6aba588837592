# groups.awk: values gathered per group and key, for the faults'
# summaries (awk -f groups.awk -f summary.awk): add(g, k, x) keeps x
# when it is not empty; med(g, k) is their median ("-" if none).
function add(g, k, x) { if (x != "") { n[g, k]++; v[g, k, n[g, k]] = x + 0 } }
function sortv(g, k,   i, j, t) {
  for (i = 2; i <= n[g, k]; i++)
    for (j = i; j > 1 && v[g, k, j - 1] > v[g, k, j]; j--) { t = v[g, k, j]; v[g, k, j] = v[g, k, j - 1]; v[g, k, j - 1] = t }
}
function med(g, k,   m) {
  if (!n[g, k]) return "-"
  sortv(g, k); m = n[g, k]
  return sprintf("%.3g", m % 2 ? v[g, k, (m + 1) / 2] : (v[g, k, m / 2] + v[g, k, m / 2 + 1]) / 2)
}
