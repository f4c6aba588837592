# summary.awk: the summary of faults.csv (run.sh): per workload (and per
# cluster signal) counts, medians and ranges (ref_s: the reference
# runs' makespans, how noisy the machine was); then the penalty per
# policy.  -v csv=1 prints CSV.
function rng(g, k) { if (n[g, k]) sortv(g, k); return n[g, k] ? sprintf(csv ? "%.4g,%.4g" : "%.3g-%.3g", v[g, k, 1], v[g, k, n[g, k]]) : csv ? "," : "-" }
function sum(g, k,   i, s) { for (i = 1; i <= n[g, k]; i++) s += v[g, k, i]; return s + 0 }
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
{
  g = $c["kind"] == "farm" ? $c["workload"] : "cluster-SIG" $c["signal"]
  if (!(g in runs)) order[++ng] = g
  runs[g]++
  killed[g] += $c["status"] !~ /no kill/
  detected[g] += $c["detect_s"] != ""
  verified[g] += $c["verified"] == "yes"
  left[g] += $c["leftover"] != ""
  ok[g] += $c["status"] == "ok"
  add(g, "det", $c["detect_s"]); add(g, "pen", $c["penalty"])
  add(g, "rer", $c["reruns"]); add(g, "dup", $c["duplicates"]); add(g, "kat", $c["kill_at_s"])
  add(g, "ref", $c["ref_makespan_s"])
  if ($c["kind"] == "farm") {
    p = $c["workload"] " " $c["policy"]
    if (!(p in pruns)) porder[++np] = p
    pruns[p]++; pver[p] += $c["verified"] == "yes"; add(p, "pen", $c["penalty"]); add(p, "rer", $c["reruns"])
  }
}
END {
  f = csv ? "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n" : "%-15s %4s %6s %8s %8s %4s %4s %6s %-10s %4s %8s %-13s %7s %-11s %-13s %6s %-11s\n"
  r = csv ? "_min,%s_max" : "_rng"
  printf f, "group", "runs", "killed", "detected", "verified", "ok", "left", "reruns", sprintf("reruns" r, "reruns"),
    "dups", "detect_s", sprintf("detect_s" r, "detect_s"), "penalty", sprintf("penalty" r, "penalty"),
    sprintf("kill_at_s" r, "kill_at_s"), "ref_s", sprintf("ref_s" r, "ref_s")
  for (i = 1; i <= ng; i++) {
    g = order[i]
    printf f, g, runs[g], killed[g], detected[g], verified[g], ok[g], left[g], sum(g, "rer"), rng(g, "rer"),
      sum(g, "dup"), med(g, "det"), rng(g, "det"), med(g, "pen"), rng(g, "pen"), rng(g, "kat"),
      med(g, "ref"), rng(g, "ref")
  }
  print ""
  f = csv ? "%s,%s,%s,%s,%s,%s,%s\n" : "%-8s %-10s %4s %8s %6s %7s %-11s\n"
  printf f, "workload", "policy", "runs", "verified", "reruns", "penalty", sprintf("penalty" r, "penalty")
  for (i = 1; i <= np; i++) {
    p = porder[i]; split(p, pw, " ")
    printf f, pw[1], pw[2], pruns[p], pver[p], sum(p, "rer"), med(p, "pen"), rng(p, "pen")
  }
}
