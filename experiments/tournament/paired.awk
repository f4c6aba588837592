# paired.awk: who wins a setting, by paired tests over seeds (the same
# seed is the same load for every policy).  Run after signrank.awk:
#   awk -F, -f signrank.awk -f paired.awk PAIRS
# Input lines "setting,policy,seed,ratio" (no header; a ratio "nan" is
# a failed run and pairs with nothing).  Policy "none" is the baseline
# and is not compared.  Per setting: the winner is the policy with the
# lowest mean ratio; each other policy is compared with it on the seeds
# both ran: Wilcoxon's signed-rank test of the paired differences
# (two-sided), Holm-adjusted across the setting's comparisons; the effect
# is the median of the per-seed ratio policy / winner (of makespans:
# the same load has the same ideal) with its order-statistic interval.
# verdict: "worse" when the adjusted p is below 0.05 and the median
# ratio above 1, "tie" when the test cannot tell them apart, "better"
# when it is below 0.05 but the median favours the policy (its mean
# lost to outliers).  -v test=t decides by the paired t-test instead
# (more power with few seeds: at 5, no exact signed-rank p is below
# 0.0625); p, method and p_holm are the deciding test's, and both tests'
# p-values follow at the end.  Output: CSV with a header, settings in
# input order.
BEGIN {
  FS = OFS = ","
  print "setting,winner,winner_mean,policy,mean,pairs,nonzero,V,p,method,p_holm,median_ratio,ci_lo,ci_hi,ci_conf,verdict," \
        "wilcoxon_p,wilcoxon_p_holm,t,t_p,t_p_holm"
}
$4 == "nan" || $4 == "" || $2 == "none" { next }
{
  if (!($1 in seen)) { seen[$1] = 1; S[++ns] = $1 }
  if (!(($1, $2) in has)) { has[$1, $2] = 1; np[$1]++; P[$1, np[$1]] = $2 }
  r[$1, $2, $3] = $4; sum[$1, $2] += $4; cnt[$1, $2]++
  if (!(($1, $3) in sd)) { sd[$1, $3] = 1; nseed[$1]++; Z[$1, nseed[$1]] = $3 }
}
END {
  for (i = 1; i <= ns; i++) {
    s = S[i]; w = ""
    for (j = 1; j <= np[s]; j++) { p = P[s, j]; m = sum[s, p] / cnt[s, p]
      if (w == "" || m < wm) { w = p; wm = m } }
    nc = 0
    for (j = 1; j <= np[s]; j++) { p = P[s, j]; if (p == w) continue
      n = 0
      for (k = 1; k <= nseed[s]; k++) { z = Z[s, k]
        if (((s, p, z) in r) && ((s, w, z) in r)) { n++; d[n] = r[s, p, z] - r[s, w, z]; q[n] = r[s, p, z] / r[s, w, z] } }
      nc++; C[nc] = p; N[nc] = n
      if (n) { wsr(d, n); medci(q, n); ttest(d, n)
        pv[nc] = WSR_P; NZ[nc] = WSR_N; V[nc] = WSR_V; M[nc] = WSR_METHOD; TV[nc] = TT_T; tp[nc] = TT_P
        MD[nc] = MED; LO[nc] = MED_LO; HI[nc] = MED_HI; CF[nc] = MED_CONF }
      else { pv[nc] = tp[nc] = 1; TV[nc] = 0; NZ[nc] = 0; V[nc] = 0; M[nc] = "none"; MD[nc] = LO[nc] = HI[nc] = "nan"; CF[nc] = 0 }
    }
    if (nc) { holm(pv, nc, adj); holm(tp, nc, tadj) }
    for (j = 1; j <= nc; j++) { p = C[j]
      if (test == "t") { P1 = tp[j]; A1 = tadj[j]; M1 = "t" } else { P1 = pv[j]; A1 = adj[j]; M1 = M[j] }
      v = A1 >= 0.05 ? "tie" : MD[j] > 1 ? "worse" : "better"
      printf "%s,%s,%.4f,%s,%.4f,%d,%d,%s,%.4g,%s,%.4g,%.4f,%.4f,%.4f,%.3f,%s,%.4g,%.4g,%.4g,%.4g,%.4g\n", s, w, wm, p, sum[s, p] / cnt[s, p],
        N[j], NZ[j], V[j], P1, M1, A1, MD[j], LO[j], HI[j], CF[j], v, pv[j], adj[j], TV[j], tp[j], tadj[j] }
  }
}
