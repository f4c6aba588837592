# noise.awk: the farm against itself.  Input: two or more runs.csv of
# experiments/tournament/farm.sh (labels, then lbmaster --csv), of the
# same cells and seeds.  For each workload, over the runs of one cell
# and seed (one per set):
#   pairs       the cell-and-seed groups with a verified run in two sets
#   apart10     pairs whose two makespans (ratio_received) are within
#               10 % of each other
#   mean10      runs within 10 % of their group's mean (the best any
#               prediction of the group could do: an oracle)
#   cell10      runs within 10 % of their cell's mean over every seed
#               and set (the oracle of docs/SIMULATOR.md)
#   med_apart   the median |r1 / r2 - 1| of the pairs
#   cpu_spread  the median and the largest ratio of the runs' CPU seconds
#               (ideal_s) in a group: the same work, run twice
#   held_runs   runs of the even seeds (holdout.sh's held-out half) whose
#               group has a run in another set
#   held10      of those, runs within 10 % of the mean of their group's
#               runs in the other sets (error = others / run - 1, as
#               holdout.sh's): the farm repeated as the prediction, what
#               a model could score on that half if it were the farm
# Usage: awk -F, -f noise.awk A/runs.csv B/runs.csv
function abs(x) { return x < 0 ? -x : x }
function med(arr, n,   i, j, v, a) {
  for (i = 1; i <= n; i++) a[i] = arr[i]
  for (i = 2; i <= n; i++) { v = a[i]; for (j = i - 1; j >= 1 && a[j] > v; j--) a[j + 1] = a[j]; a[j + 1] = v }
  return n ? (n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2) : 0 }
FNR == 1 { f++; delete c; for (i = 8; i <= NF; i++) if (!($i in c)) c[$i] = i; next }
$c["verified"] == "yes" && $c["ratio_received"] != "" {
  w = $4; cell = $2 "," $3 "," $4 "," $5 "," $6 "," $7; g = cell "," $c["seed"]
  if (!(w in ws)) { ws[w] = 1; W[++nw] = w }
  ng[g]++; R[g, ng[g]] = $c["ratio_received"]; C[g, ng[g]] = $c["ideal_s"]; gw[g] = w; gs[g] = $c["seed"]
  nc[cell]++; sc[cell] += $c["ratio_received"]; run[++nr] = cell SUBSEP $c["ratio_received"] SUBSEP w }
END {
  for (i = 1; i <= nr; i++) { split(run[i], a, SUBSEP); runs[a[3]]++
    if (abs(a[2] / (sc[a[1]] / nc[a[1]]) - 1) <= 0.10) cell10[a[3]]++ }
  for (g in ng) { if (ng[g] < 2) continue; w = gw[g]; pairs[w]++
    d = abs(R[g, 1] / R[g, 2] - 1); if (d <= 0.10) apart10[w]++; D[w, pairs[w]] = d
    m = 0; for (k = 1; k <= ng[g]; k++) m += R[g, k]; m /= ng[g]
    if (gs[g] % 2 == 0)
      for (k = 1; k <= ng[g]; k++) { held[w]++; if (abs((m * ng[g] - R[g, k]) / (ng[g] - 1) / R[g, k] - 1) <= 0.10) held10[w]++ }
    lo = hi = C[g, 1]
    for (k = 1; k <= ng[g]; k++) { gr[w]++; if (abs(R[g, k] / m - 1) <= 0.10) mean10[w]++
      if (C[g, k] < lo) lo = C[g, k]; if (C[g, k] > hi) hi = C[g, k] }
    S[w, pairs[w]] = lo > 0 ? hi / lo : 1 }
  print "workload,runs,cell10,pairs,apart10,group_runs,mean10,med_apart,cpu_spread_median,cpu_spread_max,held_runs,held10"
  for (i = 1; i <= nw; i++) { w = W[i]; delete d1; delete s1; mx = 0
    for (k = 1; k <= pairs[w]; k++) { d1[k] = D[w, k]; s1[k] = S[w, k]; if (S[w, k] > mx) mx = S[w, k] }
    printf "%s,%d,%d,%d,%d,%d,%d,%.4f,%.3f,%.3f,%d,%d\n", w, runs[w], cell10[w], pairs[w], apart10[w], gr[w], mean10[w],
      med(d1, pairs[w]), med(s1, pairs[w]), mx, held[w], held10[w] } }
