# table.awk: the settings x policies table of the verdict from
# summary.csv.  -v pols="..." (columns), -v kind=best|default.
# best: "mean [lo, hi]", the lowest mean in bold, and the policies whose
# interval overlaps the winner's; default: "mean (messages/process)".
BEGIN { np = split(pols, P, " "); if (kind == "") kind = "best" }
NR > 1 && $6 == kind {
  r = $1 " " $2 "/host " $3 " " $4
  if (!(r in seen)) { seen[r] = 1; order[++nr] = r }
  m[r, $5] = $10; lo[r, $5] = $13; hi[r, $5] = $14; msg[r, $5] = $15
}
END {
  printf "| setting |"; for (j = 1; j <= np; j++) printf " %s |", P[j]
  if (kind == "best") printf " winner | ties |"
  printf "\n|---|"; for (j = 1; j <= np; j++) printf "---|"
  if (kind == "best") printf "---|---|"
  print ""
  for (i = 1; i <= nr; i++) {
    r = order[i]; w = ""
    for (j = 1; j <= np; j++) if (P[j] != "none" && (r, P[j]) in m && m[r, P[j]] != "nan" && (w == "" || m[r, P[j]] + 0 < m[r, w] + 0)) w = P[j]
    printf "| %s |", r
    for (j = 1; j <= np; j++) {
      p = P[j]
      if (!((r, p) in m) || m[r, p] == "nan") { printf " - |"; continue }
      if (kind == "best") printf(p == w ? " **%.3f** [%.3f, %.3f] |" : " %.3f [%.3f, %.3f] |", m[r, p], lo[r, p], hi[r, p])
      else printf " %.3f (%.1f) |", m[r, p], msg[r, p]
    }
    if (kind == "best") {
      t = ""
      for (j = 1; j <= np; j++) { p = P[j]
        if (p != w && p != "none" && (r, p) in m && m[r, p] != "nan" && lo[r, p] + 0 <= hi[r, w] + 0) t = t (t == "" ? "" : ", ") p }
      printf " %s | %s |", w, t == "" ? "-" : t
    }
    print ""
  }
}
