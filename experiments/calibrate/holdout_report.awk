# holdout_report.awk: fit.csv and replay.csv of holdout.sh -> holdout.md:
# per workload, every candidate (set-up, per-byte cost, transit) and both halves;
# then, at the chosen candidate, the held-out runs within 10 % by policy and start, with the
# median signed error (lbsim / farm - 1).
function pc(a, b) { return b ? sprintf("%d of %d (%.0f %%)", a, b, 100 * a / b) : "-" }
function med(key, n,   i, j, v, a) {
  for (i = 1; i <= n; i++) a[i] = E[key, i]
  for (i = 2; i <= n; i++) { v = a[i]; for (j = i - 1; j >= 1 && a[j] > v; j--) a[j + 1] = a[j]; a[j + 1] = v }
  return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
FNR == 1 { f++; delete c; for (i = 1; i <= NF; i++) c[$i] = i; next }
f == 1 { row[++nr] = $0; if ($c["chosen"] == "yes") ch[$c["workload"]] = $c["setup_ms"] "," $c["byte_ns"] "," $c["bw_mbs"]; next }
$c["setup_ms"] "," $c["byte_ns"] "," $c["bw_mbs"] == ch[$c["workload"]] && $c["half"] == "held-out" {
  k = $c["workload"] SUBSEP $c["policy"] SUBSEP $c["start"]
  if (!(k in n)) key[++nk] = k
  n[k]++; E[k, n[k]] = $c["error"]; e = $c["error"] < 0 ? -$c["error"] : $c["error"]; if (e <= 0.10) in10[k]++
  # the cell (the tournament's unit): its held-out runs' mean ratios
  cl = $c["workload"] SUBSEP $c["topology"] SUBSEP $c["L"] SUBSEP $c["start"] SUBSEP $c["policy"]
  if (!(cl in cf)) ncl[$c["workload"]]++
  cf[cl] += $c["farm_ratio"]; cs[cl] += $c["sim_ratio"] }
END {
  print "| workload | set-up (CPU ms) | per byte (CPU ns) | transit (MB/s) | fit half: within 10 % | median abs error | held-out half: within 10 % | median abs error |"
  print "|---|---|---|---|---|---|---|---|"
  for (i = 1; i <= nr; i++) { split(row[i], a, ",")
    printf "| %s | %s | %s | %s%s | %s | %.1f %% | %s | %.1f %% |\n", a[1], a[2], a[3], a[4] == 0 ? "none" : a[4],
      a[11] == "yes" ? " (chosen)" : "", pc(a[6], a[5]), 100 * a[7], pc(a[9], a[8]), 100 * a[10] }
  for (cl in cf) { split(cl, a, SUBSEP); x = cs[cl] / cf[cl] - 1; if (x <= 0.10 && x >= -0.10) cin[a[1]]++ }
  print ""
  print "Cells (topology, processes per host, start, policy): the mean of the held-out runs' predictions against the farm's mean, within 10 %:"
  print ""
  for (w in ncl) printf "- %s: %s\n", w, pc(cin[w], ncl[w])
  print ""
  print "Held-out runs at the chosen set-up, by policy and start (median error, lbsim / farm - 1):"
  print ""
  print "| workload | policy | start | within 10 % | median error |"
  print "|---|---|---|---|---|"
  for (i = 1; i <= nk; i++) { split(key[i], a, SUBSEP)
    printf "| %s | %s | %s | %s | %+.1f %% |\n", a[1], a[2], a[3], pc(in10[key[i]], n[key[i]]), 100 * med(key[i], n[key[i]]) } }
