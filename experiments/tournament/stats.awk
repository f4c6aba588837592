# stats.awk: means over seeds of the tournament's runs, with 95 %
# confidence intervals of the mean makespan ratio from Student's t.
# Input: runs.csv (run.sh's labels, then lbsim --csv).  Output: one line
# per (setting, policy, kind), kind = default or best; a run whose phase
# is "both" counts for both.  Runs with a violation are left out and
# counted in `fails`.
BEGIN {
  FS = OFS = ","
  # t_{0.975, df}
  split("12.706 4.303 3.182 2.776 2.571 2.447 2.365 2.306 2.262 2.228 2.201 2.179 2.160 2.145 " \
        "2.131 2.120 2.110 2.101 2.093 2.086 2.080 2.074 2.069 2.064 2.060 2.056 2.052 2.048 2.045 2.042", tq, " ")
  print "topology,L,workload,load,policy,kind,cfg,runs,fails,ratio,sd,ci95,lo,hi,msgs_per_proc,migrated,hops," \
        "episodes,placed1,placed,dissolved,inv_per_episode,makespan,ideal"
}
function tval(df) { return df < 1 ? 0 : df <= 30 ? tq[df] : df <= 60 ? 2.000 : 1.960 }
function add(k, cfg) {
  key[k] = 1; cf[k] = cfg
  if ($23 != 0 || $15 == "nan") { fail[k]++; return }
  n[k]++; r = $15; s[k] += r; ss[k] += r * r
  msg[k] += $16 / $11; mig[k] += $18; hop[k] += $19; ep[k] += $20
  p1[k] += $33; pl[k] += $34; ds[k] += $35; inv[k] += $21; ms[k] += $13; id[k] += $14
}
$1 == "phase" || $1 == "tune" { next }
{
  base = $2 OFS $3 OFS $4 OFS $5 OFS $6
  if ($1 == "default" || $1 == "both") add(base OFS "default", $7)
  if ($1 == "best" || $1 == "both") add(base OFS "best", $7)
}
END {
  for (k in key) {
    m = n[k] + 0
    if (!m) { print k, cf[k], 0, fail[k] + 0, "nan", "nan", "nan", "nan", "nan", 0, 0, 0, 0, 0, 0, 0, 0, "nan", "nan"; continue }
    mean = s[k] / m
    var = m > 1 ? (ss[k] - m * mean * mean) / (m - 1) : 0
    sd = var > 0 ? sqrt(var) : 0
    ci = tval(m - 1) * sd / sqrt(m)
    printf "%s,%s,%d,%d,%.4f,%.4f,%.4f,%.4f,%.4f,%.2f,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%.2f,%.2f,%.2f\n",
      k, cf[k], m, fail[k], mean, sd, ci, mean - ci, mean + ci, msg[k] / m, mig[k] / m, hop[k] / m,
      ep[k] / m, p1[k] / m, pl[k] / m, ds[k] / m, ep[k] ? inv[k] / ep[k] : 0, ms[k] / m, id[k] / m
  }
}
