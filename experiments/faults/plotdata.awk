# plotdata.awk: faults.csv (run.sh) to the figure's data: o/penalty.dat
# (policy index, workload index, penalty), o/penalty-mean.dat (policy
# index, workload index, the mean penalty, its 95 % t interval's
# half-width, runs; with experiments/stats.awk), o/detect-GROUP.dat
# (detection times sorted, with their cumulative fraction) and o/groups
# (their names, for faults.gp).
BEGIN { np = split("rmtlb lowest dasud cchspmd diffusion diffusion2", pol, " "); for (k = 1; k <= np; k++) pi[pol[k]] = k - 1 }
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; printf "" > (o "/penalty.dat"); next }
{
  if ($c["kind"] == "farm" && $c["penalty"] != "" && ($c["policy"] in pi)) {
    k = pi[$c["policy"]] " " ($c["workload"] == "matmul")
    print k, $c["penalty"] > (o "/penalty.dat")
    pn[k]++; ps[k] += $c["penalty"]; pss[k] += $c["penalty"] ^ 2
  }
  g = $c["kind"] == "farm" ? $c["workload"] : "cluster-SIG" $c["signal"]
  if ($c["detect_s"] != "") { if (!m[g]++) gs = gs (gs ? " " : "") g; d[g, m[g]] = $c["detect_s"] + 0 }
}
END {
  f = o "/penalty-mean.dat"
  printf "" > f
  for (k in pn) printf "%s %.6f %.6f %d\n", k, ps[k] / pn[k], ci95(pn[k], ps[k], pss[k]), pn[k] > f
  for (g in m) {
    for (i = 2; i <= m[g]; i++)
      for (j = i; j > 1 && d[g, j - 1] > d[g, j]; j--) { t = d[g, j]; d[g, j] = d[g, j - 1]; d[g, j - 1] = t }
    f = o "/detect-" g ".dat"
    printf "" > f
    for (i = 1; i <= m[g]; i++) printf "%.6f %.4f\n", d[g, i], i / m[g] > f
  }
  print gs > (o "/groups")
}
