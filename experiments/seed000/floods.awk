# floods.awk: RMTLB's floods in one farm run's message trace (sorted by
# time): for every heavy node, its floods (RM rounds to its neighbours),
# how many had an AM back before the node's next flood, and the
# processes its LMMs placed after the first flood, after the first
# answered one and in all.  One CSV row per heavy node:
# hv,floods,answered,placed_first,placed_by_first_answered,placed,first_answered
# Only a trace's send rows count (its receipts and states are skipped).
/^#/ { next }
!head { head = 1; for (i = 1; i <= NF; i++) c[$i] = i; next }
("ev" in c) && $c["ev"] != "send" { next }
{ t = $c["time"]; y = $c["type"]; s = $c["src"]; d = $c["dst"]; hv = $c["hv"] }
y == "RM" && s == hv {
  if (!(hv in nf) || t != last[hv]) { nf[hv]++; got[hv] = 0 }   # a flood: the RMs of one step
  last[hv] = t; next }
y == "AM" && d == hv && (hv in nf) && !got[hv] { got[hv] = 1; ans[hv]++; if (!fa[hv]) fa[hv] = nf[hv]; next }
y == "LMM" && s == hv && (hv in nf) {
  pl[hv]++; if (nf[hv] == 1) p1[hv]++; if (fa[hv] && nf[hv] == fa[hv]) pa[hv]++ }
END { for (h in nf) printf "%s,%d,%d,%d,%d,%d,%d\n", h, nf[h], ans[h], p1[h], pa[h], pl[h], fa[h] }
