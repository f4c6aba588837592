# lease_summary.awk: the summary of leases.csv (lease.sh), one line per
# kind of fault: trials, verified, all checks passed, detection time
# (median, max), makespan penalty (median, range), hosts fenced, late
# messages dropped, duplicates, and for master-kill the results taken
# from the journal and how soon the dead master's workers left.
function lo(g, k) { if (!n[g, k]) return "-"; sortv(g, k); return sprintf("%.3g", v[g, k, 1]) }
function hi(g, k) { if (!n[g, k]) return "-"; sortv(g, k); return sprintf("%.3g", v[g, k, n[g, k]]) }
function sum(g, k,   i, s) { for (i = 1; i <= n[g, k]; i++) s += v[g, k, i]; return s + 0 }
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
{
  g = $c["kind"]
  if (!(g in runs)) order[++ng] = g
  runs[g]++
  verified[g] += $c["verified"] == "yes"
  ok[g] += $c["status"] == "ok"
  add(g, "det", $c["detect_s"]); add(g, "pen", $c["penalty"]); add(g, "fen", $c["fenced"])
  add(g, "late", $c["late"]); add(g, "dup", $c["duplicates"]); add(g, "jr", $c["journalled"])
  add(g, "wl", $c["workers_left_s"]); add(g, "rer", $c["reruns"]); add(g, "ref", $c["ref_makespan_s"])
  if ($c["loss_by"] != "") by[g] = $c["loss_by"]
}
END {
  f = "%-12s %6s %8s %4s %9s %9s %8s %-11s %6s %7s %5s %5s %10s %12s %s\n"
  printf f, "kind", "trials", "verified", "ok", "detect_s", "detect_max", "penalty", "penalty_rng", "fenced", "reruns",
    "late", "dups", "journalled", "workers_left", "ref_s"
  for (i = 1; i <= ng; i++) {
    g = order[i]
    printf f, g (g in by ? "/" by[g] : ""), runs[g], verified[g], ok[g], med(g, "det"), hi(g, "det"), med(g, "pen"),
      lo(g, "pen") "-" hi(g, "pen"), sum(g, "fen"), sum(g, "rer"), sum(g, "late"), sum(g, "dup"),
      n[g, "jr"] ? med(g, "jr") " (" lo(g, "jr") "-" hi(g, "jr") ")" : "-",
      n[g, "wl"] ? med(g, "wl") " (max " hi(g, "wl") ")" : "-", med(g, "ref") " (" lo(g, "ref") "-" hi(g, "ref") ")"
  }
}
