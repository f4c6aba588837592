# Seed 002 beside the paper, for experiments/report.sh (with
# report/lib.awk).  -v here=experiments/seed002 (the paper's tables),
# dir=the driver's output directory (table1.csv, table3.csv, fig2.csv,
# crosscheck.csv, convergence.csv).
# Graph 5 is printed identical to graph 4; the paper's result columns 5,
# 7 and 8 fit our graphs 7, 8 and (none): docs/DIFFUSION.md.
function t1key(g, ok) { return g == 5 ? "g5" : (g == 7 || g == 8) ? "cols578" : ok }
BEGIN {
  np = csv(here "/paper_table1.csv", P)
  n = csv(dir "/table1.csv", T)
  for (r = 1; r <= np; r++) pr[P[r, "graph"]] = r
  G = "Table 1 (speeds 1..9)"
  for (r = 1; r <= n; r++) {
    g = T[r, "no"]; q = pr[g]; if (!q) continue
    item = "graph " g
    row("main", G, item, "greedy p1", P[q, "p1"], T[r, "p1"], t1key(g, near(T[r, "p1"], P[q, "p1"], 0.025) ? "p1-agrees" : "p1-differs"))
    row("main", G, item, "p_min", P[q, "p_min"], T[r, "p_min"], "pmin")
    row("main", G, item, "p_max", P[q, "p_max"], T[r, "p_max"], t1key(g, near(T[r, "p_max"], P[q, "p_max"], 0.01) ? "pmax-agrees" : "pmax-differs"))
    row("main", G, item, "P_r %", P[q, "P_r_pct"], T[r, "P_r_pct"], t1key(g, "pr"))
    row("detail", G, item, "N(p < p1)", P[q, "N_below"], T[r, "N_below"], t1key(g, "counts"))
    row("detail", G, item, "N(p > p1)", P[q, "N_above"], T[r, "N_above"], t1key(g, "counts"))
    row("detail", G, item, "pct %", P[q, "pct"], T[r, "pct"], t1key(g, "counts"))
  }
  m = csv(dir "/crosscheck.csv", X)
  for (r = 1; r <= m; r++) agree += X[r, "agrees"] == "yes"
  if (m > 0) row("main", G, "graphs 1-9", "p_min and p_max by numpy's LAPACK", "-", agree " of " m " agree", agree == m ? "numpy" : "numpy-differs")
  # Table 3: the paper's P_r and pct for each speed set and graph.
  np = csv(here "/paper_table3.csv", P3)
  for (r = 1; r <= np; r++) { k = P3[r, "set"] SUBSEP P3[r, "graph"]; ppr[k] = P3[r, "P_r_pct"]; ppc[k] = P3[r, "pct"] }
  n = csv(dir "/table3.csv", T3)
  G = "Table 3 (speed sets of Table 2)"
  for (r = 1; r <= n; r++) {
    k = T3[r, "set"] SUBSEP T3[r, "graph"]; if (!(k in ppr)) continue
    g = T3[r, "graph"]; item = "set " T3[r, "set"] " graph " g
    row("detail", G, item, "P_r %", ppr[k], T3[r, "P_r_pct"], g == 5 ? "g5" : "pr")
    row("detail", G, item, "pct %", ppc[k], T3[r, "pct"], g == 5 ? "g5" : "t3-pct")
    c3++; spr += ppr[k]; sor += T3[r, "P_r_pct"]; spc += ppc[k]; soc += T3[r, "pct"]
    lower += T3[r, "P_r_pct"] + 0 < ppr[k] + 0
  }
  if (c3) {
    item = c3 " cases"
    row("main", G, item, "mean P_r %", sprintf("%.3g", spr / c3), num(sor / c3), "pr")
    row("main", G, item, "mean pct %", sprintf("%.3g", spc / c3), num(soc / c3), "t3-pct")
    row("main", G, item, "cases with our P_r lower", "-", lower " of " c3, "pr")
  }
  # Fig. 2: one sample of random speeds each; only the shape compares.
  csv(here "/paper_fig2.csv", PF)
  if (csv(dir "/fig2.csv", F) > 0) {
    G = "Fig. 2 (8x8 grid)"
    row("main", G, "100000 arrangements", "greedy p1", PF[1, "p1"], F[1, "p1"], "fig2")
    row("main", G, "100000 arrangements", "sampled p_min", PF[1, "p_min"], F[1, "p_min"], "fig2")
    row("main", G, "100000 arrangements", "sampled p_max", PF[1, "p_max"], F[1, "p_max"], "fig2")
    row("main", G, "100000 arrangements", "P_r %", PF[1, "P_r_pct"], F[1, "P_r_pct"], "fig2-greedy")
    row("main", G, "100000 arrangements", "N(p < p1)", PF[1, "N_below"], F[1, "N_below"], "fig2-greedy")
    row("main", G, "100000 arrangements", "pct %", PF[1, "pct"], F[1, "pct"], "fig2-greedy")
  }
  # Convergence at the paper's rate (p-1)/(p+1), and its constraint (4).
  n = csv(dir "/convergence.csv", C)
  G = "heterogeneous diffusion"
  for (r = 1; r <= n; r++) {
    if (C[r, "scheme"] != "hetero") continue
    tau = C[r, "coefficient"] == "tau_opt" ? "tau_opt" : "tau_safe"
    row("main", G, C[r, "topology"] " " tau, "steps (predicted by the rate)", C[r, "predicted"], C[r, "iterations"], "hetero-steps")
    if (C[r, "min_load"] + 0 < 0) row("main", G, C[r, "topology"] " " tau, "least time (constraint (4): >= 0)", 0, C[r, "min_load"], "tau4")
  }
}
