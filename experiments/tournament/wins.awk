# wins.awk: per policy, in how many settings it had the lowest mean ratio
# at its best setting (wins) and in how many its 95 % interval overlapped
# the winner's (ties), overall and per topology.  -v pols="...".
BEGIN { np = split(pols, P, " ") }
NR > 1 && $6 == "best" && $5 != "none" && $10 != "nan" {
  r = $1 SUBSEP $2 SUBSEP $3 SUBSEP $4
  if (!(r in seen)) { seen[r] = 1; order[++nr] = r; topo[r] = $1 }
  m[r, $5] = $10; lo[r, $5] = $13; hi[r, $5] = $14
}
END {
  for (i = 1; i <= nr; i++) {
    r = order[i]; w = ""
    for (j = 1; j <= np; j++) if ((r, P[j]) in m && (w == "" || m[r, P[j]] + 0 < m[r, w] + 0)) w = P[j]
    t = topo[r]; if (!(t in ts)) { ts[t] = 1; to[++nt] = t }
    win[w]++; wt[w, t]++; cnt[t]++
    for (j = 1; j <= np; j++) { p = P[j]
      if ((r, p) in m && lo[r, p] + 0 <= hi[r, w] + 0) { tie[p]++; tt[p, t]++ } }
  }
  printf "| policy | wins (of %d) | within the winner's CI |", nr
  for (k = 1; k <= nt; k++) printf " %s (%d) |", to[k], cnt[to[k]]
  printf "\n|---|---|---|"; for (k = 1; k <= nt; k++) printf "---|"; print ""
  for (j = 1; j <= np; j++) { p = P[j]
    printf "| %s | %d | %d |", p, win[p], tie[p]
    for (k = 1; k <= nt; k++) printf " %d / %d |", wt[p, to[k]], tt[p, to[k]]
    print "" }
  print ""
  print "Per topology: wins / within the winner's CI."
}
