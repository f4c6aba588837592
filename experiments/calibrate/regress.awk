# regress.awk: least squares of msg_s = a x messages + b x bytes between
# workers + d x bytes to the master, over rows of hostmsg.awk
# (tag,host,messages,bytes,deliver_bytes,msg_s,share), by the 3x3
# normal equations.  Prints a, b, d and the fit's R^2.  With -v cpu=1
# the fit is of msg_s x share, CPU seconds: a host throttled to a share
# s spends 1/s wall seconds per CPU second on messages too.
{ x[1] = $3; x[2] = $4; x[3] = $5; y = cpu ? $6 * $7 : $6
  for (i = 1; i <= 3; i++) { r[i] += x[i] * y; for (j = 1; j <= 3; j++) m[i, j] += x[i] * x[j] }
  sy += y; syy += y * y; k++; yy[k] = y; for (i = 1; i <= 3; i++) xx[k, i] = x[i] }
END {
  # Gauss-Jordan on [m | r]
  for (i = 1; i <= 3; i++) {
    p = i; for (j = i + 1; j <= 3; j++) if ((m[j, i] < 0 ? -m[j, i] : m[j, i]) > (m[p, i] < 0 ? -m[p, i] : m[p, i])) p = j
    for (j = 1; j <= 3; j++) { t = m[i, j]; m[i, j] = m[p, j]; m[p, j] = t } t = r[i]; r[i] = r[p]; r[p] = t
    if (m[i, i] == 0) { print "singular" > "/dev/stderr"; exit 1 }
    for (j = 1; j <= 3; j++) if (j != i) { q = m[j, i] / m[i, i]; for (l = 1; l <= 3; l++) m[j, l] -= q * m[i, l]; r[j] -= q * r[i] }
  }
  for (i = 1; i <= 3; i++) a[i] = r[i] / m[i, i]
  for (q = 1; q <= k; q++) { e = yy[q] - a[1] * xx[q, 1] - a[2] * xx[q, 2] - a[3] * xx[q, 3]; sse += e * e }
  sst = syy - sy * sy / k
  printf "cost_msg_s=%.6g\ncost_byte_s=%.6g\ncost_deliver_byte_s=%.6g\nr2=%.3f\nhosts=%d\n", a[1], a[2], a[3], (sst > 0 ? 1 - sse / sst : 0), k
}
