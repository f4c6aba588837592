# hoststats.awk: a farm.sh set's runs and hosts tables -> Markdown lines:
# the runs' makespans and CPU per process (set-ups included); how much
# the paused share (holdout.sh --shares paused) lowers the hosts'; and,
# on the runs of none from the skewed start (hosts of 12, 6, 3, 2 and 1
# processes), a least-squares fit of each host's CPU seconds = set-up +
# processes x CPU per process, per run.
# Usage: awk -F, -f hoststats.awk DIR/runs.csv DIR/hosts/*.csv
function srt(a, n,   i, j, v) { for (i = 2; i <= n; i++) { v = a[i]; for (j = i - 1; j >= 1 && a[j] > v; j--) a[j + 1] = a[j]; a[j + 1] = v } }
FNR == 1 { f++; delete c; for (i = 1; i <= NF; i++) if (!($i in c)) c[$i] = i
  if (f > 1) { nn = 0; Su = Sy = Suu = Suy = 0 }; next }
f == 1 { if ($c["verified"] != "yes") next; n++
  m = $c["makespan_s"]; p = $c["ideal_s"] * 6 * 0.30 / $c["procs"]
  if (n == 1 || m < m0) m0 = m; if (m > m1) m1 = m; if (n == 1 || p < p0) p0 = p; if (p > p1) p1 = p; next }
$c["cpu_s"] > 0 { w = $c["span_s"] - $c["msg_s"] - $c["idle_s"]; r = w > $c["busy_s"] ? $c["cpu_s"] / w / $c["share"] : 1
  R[++nr] = r; if (r < 1) low++
  if (FILENAME ~ /-skewed-none-/) { u = $c["done"]; y = $c["cpu_s"]; nn++; Su += u; Sy += y; Suu += u * u; Suy += u * y
    if (nn == 5) { d = nn * Suu - Su * Su; a = (nn * Suy - Su * Sy) / d
      fit[++nf] = sprintf("%s: set-up %.3f s, %.3f s a process", FILENAME, (Sy - a * Su) / nn, a) } } }
END {
  printf "- %d runs: makespans %.1f-%.1f s; CPU a process (set-ups included) %.0f-%.0f ms\n", n, m0, m1, 1000 * p0, 1000 * p1
  srt(R, nr)
  printf "- paused share / host share, over %d hosts that ran work: lower for %d; 10th percentile %.3f, median %.3f\n", nr, low, R[int(nr * 0.1) + 1], R[int((nr + 1) / 2)]
  for (i = 1; i <= nf; i++) { s = fit[i]; sub(/.*\//, "", s); print "- none, skewed, " s } }
