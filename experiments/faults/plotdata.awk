# plotdata.awk: faults.csv (run.sh) to the figure's data: o/penalty.dat
# (policy index, workload index, penalty), o/detect-GROUP.dat (detection
# times sorted, with their cumulative fraction) and o/groups (their
# names, for faults.gp).
BEGIN { np = split("rmtlb lowest dasud cchspmd diffusion diffusion2", pol, " "); for (k = 1; k <= np; k++) pi[pol[k]] = k - 1 }
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; printf "" > (o "/penalty.dat"); next }
{
  if ($c["kind"] == "farm" && $c["penalty"] != "" && ($c["policy"] in pi))
    print pi[$c["policy"]], ($c["workload"] == "matmul"), $c["penalty"] > (o "/penalty.dat")
  g = $c["kind"] == "farm" ? $c["workload"] : "cluster-SIG" $c["signal"]
  if ($c["detect_s"] != "") { if (!m[g]++) gs = gs (gs ? " " : "") g; d[g, m[g]] = $c["detect_s"] + 0 }
}
END {
  for (g in m) {
    for (i = 2; i <= m[g]; i++)
      for (j = i; j > 1 && d[g, j - 1] > d[g, j]; j--) { t = d[g, j]; d[g, j] = d[g, j - 1]; d[g, j - 1] = t }
    f = o "/detect-" g ".dat"
    printf "" > f
    for (i = 1; i <= m[g]; i++) printf "%.6f %.4f\n", d[g, i], i / m[g] > f
  }
  print gs > (o "/groups")
}
