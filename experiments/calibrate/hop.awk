# hop.awk: one-hop times of small policy messages from lbmaster traces
# (docs/TRACES.md): for each message a host sent (ev send: src, dst, id)
# and its neighbour took in (ev recv, the same src, dst and id), the
# time from the send to the take-in; messages of at most `small` bytes
# (default 256).  Prints the count, the median, the 10th and 90th
# percentiles and the mean, in seconds.
# Usage: awk -F, [-v small=B] -f hop.awk TRACE...
function pct(p,   k) { k = int(p * (n - 1) + 0.5) + 1; return d[k] }
FNR == 1 { f++ }
/^#/ || $1 == "time" { next }
$12 == "send" && $11 <= (small ? small : 256) && $13 != "" { s[f, $4, $5, $13] = $1 }
$12 == "recv" && $13 != "" && ((f, $4, $5, $13) in s) {
  x = $1 - s[f, $4, $5, $13]; if (x >= 0) { d[++n] = x; sum += x }
  delete s[f, $4, $5, $13] }
END {
  if (!n) { print "hop: no message was both sent and taken in" > "/dev/stderr"; exit 1 }
  for (i = 2; i <= n; i++) { v = d[i]; for (j = i - 1; j >= 1 && d[j] > v; j--) d[j + 1] = d[j]; d[j + 1] = v }
  printf "hops=%d\nhop_median_s=%.4f\nhop_p10_s=%.4f\nhop_p90_s=%.4f\nhop_mean_s=%.4f\n", n, pct(0.5), pct(0.1), pct(0.9), sum / n }
