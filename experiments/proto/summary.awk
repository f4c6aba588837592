# summary.awk: scale.sh's runs (a label, then lbsim's row, read by
# column name) to one row per (topology, load, policy): the number of
# runs, the means over seeds, violations summed, and the 95 % t
# interval's half-width of the mean ratio (ci95, experiments/stats.awk).
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
{ k = $c["topology"] "," $c["load"] "," $c["label"]; n[k]++; r[k] += $c["ratio"]; rr[k] += $c["ratio"] ^ 2; m[k] += $c["messages"]
  b[k] += $c["bytes"]; mig[k] += $c["migrated"]; h[k] += $c["hops"]
  ep[k] += $c["episodes"]; inv[k] += $c["invocations"]; v[k] += $c["violations"] }
END { for (k in n) printf "%s,%d,%.3f,%.0f,%.0f,%.0f,%.0f,%.1f,%.1f,%.2f,%d,%.3f\n", k, n[k], r[k] / n[k], m[k] / n[k],
    b[k] / n[k], mig[k] / n[k], h[k] / n[k], ep[k] / n[k], inv[k] / n[k], ep[k] ? inv[k] / ep[k] : 0, v[k],
    ci95(n[k], r[k], rr[k]) }
