# tables.awk: summary.csv -> Markdown.  Per workload and result mode:
# one row per (size, policy) with medians and [min-max] over the runs;
# then a compact table (policy x size) and RMTLB's placement counts.
function rng(f) { return sprintf("%.3f [%.3f-%.3f]", $c[f "_med"], $c[f "_min"], $c[f "_max"]) }
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
{
  w = $c["workload"]; m = $c["results"]; p = $c["policy"]; s = $c["size"]
  if (!(w in sw)) { ws[++nw] = w; sw[w] = 1 }
  if (!((w, s) in ss)) { sz[w, ++nsz[w]] = s; ss[w, s] = 1 }
  if (!(p in sp)) { pol[++np] = p; sp[p] = 1 }
  if (!(m in sm) && p != "none") { md[++nm] = m; sm[m] = 1 }
  full[w, m, p, s] = sprintf("| %s | %s | %d | %s | %s | %s | %d | %d | %d | %d (%d) |", s, p, $c["runs"],
    rng("makespan_s"), rng("ratio"), rng("ratio_received"), $c["msgs_med"], $c["hops_med"], $c["payloads_med"],
    $c["migrated_med"], $c["migrated_started_med"])
  cell[w, m, p, s] = sprintf("%.2f [%.2f-%.2f]; %d; %d (%d)", $c["ratio_received_med"], $c["ratio_received_min"],
    $c["ratio_received_max"], $c["hops_med"], $c["migrated_med"], $c["migrated_started_med"])
  if (p == "rmtlb") {
    pl = ""; for (k = 1; k <= 7; k++) pl = pl (k > 1 ? "/" : "") $c["placed" k]
    plc[w, m, s] = sprintf("| %s | %s | %d | %d | %s | %d | %d |", s, m, $c["runs"], $c["episodes"], pl, $c["dissolved"],
      $c["invocations_med"])
  }
}
function mode_of(p, m) { return p == "none" ? "direct" : m }
END {
  for (a = 1; a <= nw; a++) { w = ws[a]
    for (b = 1; b <= nm; b++) { m = md[b]
      print "### " w ", results " m " (none: moves nothing; its runs stand for both modes)\n"
      print "| size | policy | runs | makespan s | ratio | ratio received | msgs | hops | payloads | migrations (mid-run) |"
      print "|---|---|---|---|---|---|---|---|---|---|"
      for (i = 1; i <= nsz[w]; i++) for (j = 1; j <= np; j++)
        if ((w, mode_of(pol[j], m), pol[j], sz[w, i]) in full) print full[w, mode_of(pol[j], m), pol[j], sz[w, i]]
      print ""
    }
    print "### " w ": ratio at the received share, median [min-max]; policy messages between hosts (each hop); migrations (mid-run)\n"
    h = "| policy | results"; sep = "|---|---"
    for (i = 1; i <= nsz[w]; i++) { h = h " | " sz[w, i]; sep = sep "|---" }
    print h " |"; print sep "|"
    for (j = 1; j <= np; j++) for (b = 1; b <= nm; b++) {
      p = pol[j]; m = md[b]; if (p == "none" && b > 1) continue
      r = "| " p " | " (p == "none" ? "-" : m)
      for (i = 1; i <= nsz[w]; i++) r = r " | " (((w, mode_of(p, m), p, sz[w, i]) in cell) ? cell[w, mode_of(p, m), p, sz[w, i]] : "")
      print r " |"
    }
    print ""
  }
  print "### RMTLB heavy episodes: placed by 1/2/.../7+ floods, or dissolved (sums over the runs)\n"
  print "| workload | size | results | runs | episodes | placed by 1/2/3/4/5/6/7+ floods | dissolved | floods per run (median) |"
  print "|---|---|---|---|---|---|---|---|"
  for (a = 1; a <= nw; a++) for (i = 1; i <= nsz[ws[a]]; i++) for (b = 1; b <= nm; b++)
    if ((ws[a], md[b], sz[ws[a], i]) in plc) { x = plc[ws[a], md[b], sz[ws[a], i]]; sub(/^\| /, "| " ws[a] " | ", x); print x }
}
