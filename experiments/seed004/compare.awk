# Seed 004 beside the paper, for experiments/report.sh (with
# report/lib.awk).  -v here=experiments/seed004 (the paper's tables),
# dir=tables.sh's output directory (table1.csv, table2.csv),
# example=lbshare --example --csv.  Speedups over one speed-1 host are
# what compare (our hosts are ~200x faster than the paper's).
# The bounds the speeds allow: sharing the sum of the speeds of the k
# machines used, bidding the fastest of them, balance six times the slowest.
function sum(k) { return k <= 4 ? k : (k == 5 ? 6 : 7.8) }
function key(ok, x, bound, small) {
  return x > bound * 1.02 ? "above-bound" : small ? "small" : near(x, ok, 0.05) ? "agrees" : \
    x < ok * 0.7 ? "busy" : x < ok ? "memory" : "noise"
}
BEGIN {
  np = csv(here "/paper_table1.csv", P1)
  for (r = 1; r <= np; r++) { pb[P1[r, "k"]] = 134.8 / P1[r, "bidding"]; ps[P1[r, "k"]] = 134.8 / P1[r, "sharing"] }
  n = csv(dir "/table1.csv", T1)
  for (r = 1; r <= n; r++) if (T1[r, "scale"] != T1[1, "scale"]) multi = 1
  G = "Table 1 (600 x 600 x scale; k machines)"
  for (r = 1; r <= n; r++) {
    k = T1[r, "k"]; if (!(k in ps)) continue
    item = "k = " k (multi ? " x" T1[r, "scale"] : "")
    row("main", G, item, "speedup of sharing", sprintf("%.4g", ps[k]), T1[r, "speedup_sharing"], key(ps[k], T1[r, "speedup_sharing"], sum(k), 0))
    row("main", G, item, "speedup of bidding", sprintf("%.4g", pb[k]), T1[r, "speedup_bidding"],
        T1[r, "speedup_bidding"] > (k <= 4 ? 1 : 2) * 1.02 ? "above-bound" : "bidding")
  }
  np = csv(here "/paper_table2.csv", P2)
  for (r = 1; r <= np; r++) { z = P2[r, "size"]; pbal[z] = P2[r, "speedup_balance"]; psh[z] = P2[r, "speedup_sharing"] }
  n = csv(dir "/table2.csv", T2)
  G = "Table 2 (all six; size x scale)"
  for (r = 1; r <= n; r++) {
    z = T2[r, "size"]; if (!(z in psh)) continue
    item = "size " z (multi ? " x" T2[r, "scale"] : "")
    row("main", G, item, "speedup of balance", pbal[z], T2[r, "speedup_balance"], key(pbal[z], T2[r, "speedup_balance"], 6, z <= 300))
    row("main", G, item, "speedup of sharing", psh[z], T2[r, "speedup_sharing"], key(psh[z], T2[r, "speedup_sharing"], 7.8, z <= 300))
    # the smallest size from which sharing beats balance at every larger one
    if (T2[r, "speedup_sharing"] + 0 <= T2[r, "speedup_balance"] + 0) ofrom = ""
    else if (ofrom == "") ofrom = z
    if (psh[z] + 0 <= pbal[z] + 0) pfrom = ""
    else if (pfrom == "") pfrom = z
  }
  if (n > 0 && !multi) row("main", G, "sizes 100-1000", "sharing ahead of balance from size", pfrom, ofrom == "" ? "never" : ofrom, "crossover")
  # The worked example of section 4.1.
  n = csv(example, E)
  split("10 8 3 4 0", share, " ")
  G = "worked example (section 4.1)"
  if (n > 0) {
    row("main", G, "lambda = 25", "t*", 10, E[1, "t_star"], "example")
    for (r = 1; r <= n; r++) row("main", G, "lambda = 25", "share of p" E[r, "proc"], share[r], E[r, "share"], "example")
    row("main", G, "lambda = 25", "speedup over p1 alone", 2.5, num(E[1, "bidding_completion"] / E[1, "t_star"]), "example")
  }
}
