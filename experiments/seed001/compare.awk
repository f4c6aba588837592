# Seed 001 beside the paper, for experiments/report.sh (with
# report/lib.awk).  -v speedup=speedup.csv (seed001/convergence.sh).
# The paper prints no measured numbers; its values here are the step
# counts its rates predict, gamma for first order and sqrt(beta-1) for
# second order, and their ratio.
BEGIN {
  n = csv(speedup, S)
  split("boillat optimal", coef, " ")
  for (c = 1; c <= 2; c++) for (r = 1; r <= n; r++) {
    if (S[r, "coefficient"] != coef[c]) continue
    item = S[r, "topology"]
    group = c == 1 ? "Boillat's alpha" : "optimal alpha"
    row("main", group, item, "steps of first order", S[r, "first_predicted"], S[r, "first_taken"], "first")
    row("main", group, item, "steps of second order", S[r, "second_predicted"], S[r, "second_taken"], "second")
    row("main", group, item, "speed-up of second order", sprintf("%.4g", S[r, "speedup_predicted"]), S[r, "speedup_taken"], "speedup")
    if (S[r, "second_min_load"] + 0 < 0)
      row("detail", group, item, "least load of second order (real loads)", "-", S[r, "second_min_load"], "negative")
  }
}
