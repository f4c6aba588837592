# stats.awk: means over seeds of the tournament's runs, with 95 %
# confidence intervals of the mean makespan ratio from Student's t.
# Input: runs.csv (run.sh's seven labels, then lbsim --csv's columns,
# docs/FORMATS.md, read by name).  Output: one line
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
function add(k, cfg,  j) {
  key[k] = 1; cf[k] = cfg
  if ($c["violations"] != 0 || $c["ratio"] == "nan") { fail[k]++; return }
  n[k]++; r = $c["ratio"]; s[k] += r; ss[k] += r * r
  msg[k] += $c["messages"] / $c["procs"]; mig[k] += $c["migrated"]; hop[k] += $c["hops"]; ep[k] += $c["episodes"]
  p1[k] += $c["placed1"]; for (j = 1; j <= 7; j++) pl[k] += $c["placed" j]
  ds[k] += $c["dissolved"]; inv[k] += $c["invocations"]; ms[k] += $c["makespan"]; id[k] += $c["ideal"]
}
# lbsim's columns by name, from the eighth on (the first seven are labels)
$1 == "phase" { for (i = 8; i <= NF; i++) c[$i] = i; next }
$1 == "tune" { next }
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
