# Seed 003 beside the paper, for experiments/report.sh (with
# report/lib.awk).  -v paper=data/seed003-paper.csv, ours=ours.csv
# (run.sh), example=lbtransport --example --csv.  Columns by formula:
# the paper's "M1" is max, its "M2" max - min, its "M3" dev / max.
function pct(a, b) { return 100 * (a - b) / a }
BEGIN {
  np = csv(paper, P); n = csv(ours, O)
  for (r = 1; r <= np; r++) pr[P[r, "test"]] = r
  split("h t tb", m, " "); split("H T TB", M, " ")
  G = "Tables 1 and 2 (20 tests)"
  for (r = 1; r <= n; r++) {
    t = O[r, "test"]; q = pr[t]; if (!q) continue
    item = "test " t
    for (i = 1; i <= 3; i++) {
      row("detail", G, item, "max - min after " M[i], P[q, "pm2_" m[i]], O[r, m[i] "_m1"], i == 1 ? "h-rounding" : i == 2 ? "t-fictitious" : "tb")
      row("detail", G, item, "max after " M[i], P[q, "pm1_" m[i]], O[r, m[i] "_m3"], "max-total")
      row("detail", G, item, "dev / max after " M[i], P[q, "pm3_" m[i]], O[r, m[i] "_m2"], "dev")
      row("detail", G, item, "Q of " M[i], P[q, "q_" m[i]], O[r, m[i] "_q"], "q")
      pq[i] += P[q, "q_" m[i]]; oq[i] += O[r, m[i] "_q"]
      if (P[q, "pm2_" m[i]] + 0 > pmax[i]) pmax[i] = P[q, "pm2_" m[i]] + 0
      if (O[r, m[i] "_m1"] + 0 > omax[i]) omax[i] = O[r, m[i] "_m1"] + 0
    }
    c++; ptb += P[q, "pm2_tb"] <= 1; otb += O[r, "tb_m1"] <= 1
  }
  if (c) {
    item = c " tests"
    row("main", G, item, "Q of T below Q of H (%)", 24.7, num(pct(oq[1], oq[2])), "q")
    row("main", G, item, "Q of TB below Q of H (%)", 22.5, num(pct(oq[1], oq[3])), "q")
    row("main", G, item, "Q of TB above Q of T (%)", 2.2, num(-pct(oq[2], oq[3])), "q-text")
    row("main", G, item, "Q of TB above Q of T (%) from Table 2", sprintf("%.1f", -pct(pq[2], pq[3])), num(-pct(oq[2], oq[3])), "q")
    for (i = 1; i <= 3; i++) row("main", G, item, "mean Q of " M[i], sprintf("%.1f", pq[i] / c), num(oq[i] / c), "q")
    row("main", G, item, "largest max - min after H", pmax[1], omax[1], "h-rounding")
    row("main", G, item, "largest max - min after T", pmax[2], omax[2], "t-fictitious")
    row("main", G, item, "tests where TB ends with max - min <= 1", ptb, otb, "tb")
  }
  # The worked example (section 3): loads after T and after TB.
  n = csv(example, E)
  for (r = 1; r <= n; r++) {
    if (E[r, "start"] != "nwc") continue
    if (E[r, "method"] == "T") row("main", "worked example", "10 processors", "loads after T", "100 100 100 100 100 100 100 100 100 97", E[r, "loads_after"], "example")
    if (E[r, "method"] == "TB") row("main", "worked example", "10 processors", "loads after TB", "99 99 100 100 100 100 100 100 100 99", E[r, "loads_after"], "example")
  }
}
