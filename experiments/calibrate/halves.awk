# halves.awk: compare.csv of calibrate.sh -> Markdown: per workload and
# half (fit: the runs whose message costs were fitted; held-out: the
# others), the single runs whose prediction is within 10 % of the
# farm's makespan / ideal at the received share, for "sim" and
# "sim+deliver".
function pc(a, b) { return b ? sprintf("%d of %d (%.0f %%)", a, b, 100 * a / b) : "-" }
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
{ k = $c["workload"] SUBSEP $c["half"]; if (!(k in n)) key[++nk] = k; n[k]++
  e = $c["sim_ratio"] / $c["farm_ratio_received"] - 1; d = $c["sim_deliver_ratio"] / $c["farm_ratio_received"] - 1
  if (e < 0.1 && e > -0.1) a[k]++; if (d < 0.1 && d > -0.1) b[k]++ }
END {
  print ""; print "Single runs within 10 %, by half (message costs fitted on the fit half):"; print ""
  print "| workload | half | sim | sim+deliver |"; print "|---|---|---|---|"
  for (i = 1; i <= nk; i++) { split(key[i], p, SUBSEP); printf "| %s | %s | %s | %s |\n", p[1], p[2], pc(a[key[i]], n[key[i]]), pc(b[key[i]], n[key[i]]) } }
