# summary.awk: fig34.sh's runs.csv -> one row per (workload, results,
# policy, size): runs, then median, min and max of each measure, then
# RMTLB's heavy episodes and placement counts summed over the runs.
# msgs = policy messages sent end to end (lb_*); hops = PVM messages
# between workers that carried them (relays counted), payloads = result
# payload messages between workers.
function sortv(a, n,   i, j, x) { for (i = 2; i <= n; i++) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x } }
function med(a, n) { return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
NR == 1 {
  for (i = 1; i <= NF; i++) { c[$i] = i; if ($i ~ /^lb_/) lbc[++nlb] = i }
  nv = split("makespan_s ratio ratio_received msgs hops payloads migrated migrated_started ctx_bytes invocations ideal_s ideal_received_s load1_before", vn, " ")
  ns = split("episodes placed1 placed2 placed3 placed4 placed5 placed6 placed7 dissolved", sn, " ")
  next
}
{
  k = $c["workload"] SUBSEP $c["results"] SUBSEP $c["policy"] SUBSEP $c["size"]
  if (!(k in n)) key[++nk] = k
  r = ++n[k]
  if ($c["verified"] != "yes") bad[k]++
  m = 0; for (i = 1; i <= nlb; i++) m += $lbc[i]
  for (j = 1; j <= nv; j++) {
    f = vn[j]
    v[k, j, r] = f == "msgs" ? m : f == "hops" ? $c["msgs_LBMSG"] : f == "payloads" ? $c["msgs_PAYLOAD"] : $c[f]
  }
  for (j = 1; j <= ns; j++) s[k, j] += $c[sn[j]]
}
END {
  printf "workload,results,policy,size,runs,unverified"
  for (j = 1; j <= nv; j++) printf ",%s_med,%s_min,%s_max", vn[j], vn[j], vn[j]
  for (j = 1; j <= ns; j++) printf ",%s", sn[j]
  printf "\n"
  for (q = 1; q <= nk; q++) {
    k = key[q]; split(k, p, SUBSEP); t = n[k]
    printf "%s,%s,%s,%s,%d,%d", p[1], p[2], p[3], p[4], t, bad[k] + 0
    for (j = 1; j <= nv; j++) {
      for (r = 1; r <= t; r++) a[r] = v[k, j, r] + 0
      sortv(a, t)
      printf ",%.6g,%.6g,%.6g", med(a, t), a[1], a[t]
    }
    for (j = 1; j <= ns; j++) printf ",%d", s[k, j]
    printf "\n"
  }
}
