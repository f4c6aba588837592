# holdout_fit.awk: replay.csv of holdout.sh -> per workload and
# candidate (set-up, per-byte cost, transit bandwidth),
# the runs within 10 % of the farm's makespan and the median |error| in
# each half; `chosen` marks, per workload, the candidate with the most fit
# runs within 10 % (ties: the smaller median |error| on the fit half).
function abs(x) { return x < 0 ? -x : x }
function median(key, n,   i, j, v, a) {
  for (i = 1; i <= n; i++) a[i] = E[key, i]
  for (i = 2; i <= n; i++) { v = a[i]; for (j = i - 1; j >= 1 && a[j] > v; j--) a[j + 1] = a[j]; a[j + 1] = v }
  return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
{ w = $c["workload"]; s = $c["setup_ms"] "," $c["byte_ns"] "," $c["bw_mbs"]; h = $c["half"]; k = w SUBSEP s SUBSEP h
  if (!((w, s) in seen)) { seen[w, s] = 1; order[++no] = w SUBSEP s }
  if (!(w in wseen)) { wseen[w] = 1; ws[++nw] = w }
  e = abs($c["error"]); n[k]++; E[k, n[k]] = e; if (e <= 0.10) in10[k]++ }
END {
  print "workload,setup_ms,byte_ns,bw_mbs,fit_runs,fit_within10,fit_median_abs_error,held_runs,held_within10,held_median_abs_error,chosen"
  for (i = 1; i <= no; i++) { split(order[i], a, SUBSEP); w = a[1]; s = a[2]
    kf = w SUBSEP s SUBSEP "fit"; m = n[kf] ? median(kf, n[kf]) : 1
    if (!(w in best) || in10[kf] + 0 > bw[w] || (in10[kf] + 0 == bw[w] && m < bm[w])) { best[w] = s; bw[w] = in10[kf] + 0; bm[w] = m } }
  for (i = 1; i <= no; i++) { split(order[i], a, SUBSEP); w = a[1]; s = a[2]
    kf = w SUBSEP s SUBSEP "fit"; kh = w SUBSEP s SUBSEP "held-out"
    printf "%s,%s,%d,%d,%.4f,%d,%d,%.4f,%s\n", w, s, n[kf], in10[kf], n[kf] ? median(kf, n[kf]) : 0,
      n[kh], in10[kh], n[kh] ? median(kh, n[kh]) : 0, best[w] == s ? "yes" : "" } }
