# signrank.awk: paired statistics for the tournament, as awk functions
# (load with -f before the program that calls them; no main of its own).
#   wsr(d, n)       Wilcoxon's signed-rank test of d[1..n] (paired
#                   differences), two-sided, as R's wilcox.test(paired =
#                   TRUE) computes it: zeros dropped; the exact null
#                   distribution when fewer than 50 are left and there
#                   are no ties and no zeros, else the normal
#                   approximation with the tie and continuity corrections.
#                   Sets WSR_N (non-zero differences), WSR_V (sum of the
#                   positive ranks), WSR_P (p-value) and WSR_METHOD
#                   ("exact", "normal" or "none" when all are zero, p 1).
#   holm(p, n, adj) Holm's step-down adjustment of p[1..n] into adj[1..n]
#                   (R's p.adjust(p, "holm")).
#   medci(x, n)     the median of x[1..n] and its distribution-free
#                   interval from order statistics (the sign test's): sets
#                   MED, MED_LO, MED_HI and MED_CONF, the interval's exact
#                   coverage (at least 0.95 when n >= 6; below that the
#                   whole range, coverage 1 - 2^(1-n)).
# tests/paired_stats.sh checks them against published values.

function sr_sort(a, n,   i, j, t) {   # ascending, in place (n is small)
  for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
}

# Upper tail of the standard normal: Q(z) = erfc(z / sqrt 2) / 2, with
# Numerical Recipes' erfcc (fractional error below 1.2e-7 everywhere).
function sr_q(z,   x, t, e) {
  x = z / sqrt(2); if (x < 0) x = -x
  t = 1 / (1 + 0.5 * x)
  e = t * exp(-x * x - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + \
      t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + \
      t * (-0.82215223 + t * 0.17087277)))))))))
  return z >= 0 ? e / 2 : 1 - e / 2
}

function wsr(d, n,   i, j, k, m, a, s, r, ties, zeros, tc, v, mu, sd, z, c, cnt, tot, lo, hi, half) {
  m = 0; zeros = 0
  for (i = 1; i <= n; i++) {
    if (d[i] == 0) { zeros = 1; continue }
    m++; a[m] = (d[i] < 0 ? -d[i] : d[i]); s[m] = d[i] > 0
  }
  WSR_N = m
  if (!m) { WSR_V = 0; WSR_P = 1; WSR_METHOD = "none"; return }
  # midranks of |d|, by counting (m is small): rank = below + (equal + 1) / 2
  ties = 0; tc = 0
  for (i = 1; i <= m; i++) {
    lo = 0; k = 0
    for (j = 1; j <= m; j++) { if (a[j] < a[i]) lo++; else if (a[j] == a[i]) k++ }
    r[i] = lo + (k + 1) / 2
    if (k > 1) { ties = 1; tc += (k * k * k - k) / k }   # each of a group adds its share
  }
  v = 0
  for (i = 1; i <= m; i++) if (s[i]) v += r[i]
  WSR_V = v
  if (m < 50 && !ties && !zeros) {
    # exact: cnt[t] = subsets of {1..m} with rank sum t
    tot = m * (m + 1) / 2
    for (k = 0; k <= tot; k++) cnt[k] = 0
    cnt[0] = 1
    for (i = 1; i <= m; i++) for (k = tot; k >= i; k--) cnt[k] += cnt[k - i]
    lo = hi = 0
    for (k = 0; k <= tot; k++) { if (k <= v) lo += cnt[k]; if (k >= v) hi += cnt[k] }
    half = 2 ^ m
    WSR_P = 2 * (lo < hi ? lo : hi) / half
    if (WSR_P > 1) WSR_P = 1
    WSR_METHOD = "exact"
    return
  }
  mu = m * (m + 1) / 4
  sd = sqrt(m * (m + 1) * (2 * m + 1) / 24 - tc / 48)
  z = v - mu
  c = z > 0 ? 0.5 : z < 0 ? -0.5 : 0
  z = sd > 0 ? (z - c) / sd : 0
  WSR_P = 2 * (sr_q(z) < sr_q(-z) ? sr_q(z) : sr_q(-z))
  if (WSR_P > 1) WSR_P = 1
  WSR_METHOD = "normal"
}

function holm(p, n, adj,   o, i, j, t, run, x) {
  for (i = 1; i <= n; i++) o[i] = i
  for (i = 2; i <= n; i++) {   # order by p, stable
    t = o[i]
    for (j = i - 1; j >= 1 && p[o[j]] > p[t]; j--) o[j + 1] = o[j]
    o[j + 1] = t
  }
  run = 0
  for (i = 1; i <= n; i++) {
    x = (n - i + 1) * p[o[i]]
    if (x > run) run = x
    adj[o[i]] = run < 1 ? run : 1
  }
}

function medci(x, n,   b, i, k, c, tail) {
  for (i = 1; i <= n; i++) b[i] = x[i]
  sr_sort(b, n)
  MED = n % 2 ? b[(n + 1) / 2] : (b[n / 2] + b[n / 2 + 1]) / 2
  # the largest k with P(Binom(n, 1/2) <= k - 1) <= 0.025; k = 1 at least
  k = 1; c = 1; tail = 1 / 2 ^ n   # c = C(n, k - 1) ... tail = P(B <= k - 1)
  while (1) {
    c = c * (n - k + 1) / k
    if (tail + c / 2 ^ n > 0.025) break
    tail += c / 2 ^ n; k++
  }
  MED_LO = b[k]; MED_HI = b[n + 1 - k]
  MED_CONF = 1 - 2 * tail
}

# ttest(d, n): the paired t-test of d[1..n], two-sided (R's t.test(x, y,
# paired = TRUE)): sets TT_T, TT_DF and TT_P.  Differences all equal give
# p 1 when they are zero, else 0 (R refuses such data).  The t
# distribution through the regularized incomplete beta function
# (Numerical Recipes' betai and betacf, Lanczos's log gamma).
function sr_lgamma(x,   y, t, s, j, c) {
  split("76.18009172947146 -86.50532032941677 24.01409824083091 -1.231739572450155 0.001208650973866179 -0.000005395239384953", c, " ")
  y = x; t = x + 5.5; t -= (x + 0.5) * log(t); s = 1.000000000190015
  for (j = 1; j <= 6; j++) s += c[j] / ++y
  return -t + log(2.5066282746310005 * s / x)
}
function sr_betacf(a, b, x,   m, m2, aa, c, d, del, h, qab, qam, qap) {
  qab = a + b; qap = a + 1; qam = a - 1; c = 1; d = 1 - qab * x / qap
  if (d < 0 ? -d < 1e-300 : d < 1e-300) d = 1e-300
  d = 1 / d; h = d
  for (m = 1; m <= 300; m++) {
    m2 = 2 * m; aa = m * (b - m) * x / ((qam + m2) * (a + m2))
    d = 1 + aa * d; if ((d < 0 ? -d : d) < 1e-300) d = 1e-300
    c = 1 + aa / c; if ((c < 0 ? -c : c) < 1e-300) c = 1e-300
    d = 1 / d; h *= d * c
    aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
    d = 1 + aa * d; if ((d < 0 ? -d : d) < 1e-300) d = 1e-300
    c = 1 + aa / c; if ((c < 0 ? -c : c) < 1e-300) c = 1e-300
    d = 1 / d; del = d * c; h *= del
    if ((del - 1 < 0 ? 1 - del : del - 1) < 3e-14) break
  }
  return h
}
function sr_betai(a, b, x,   bt) {
  if (x <= 0) return 0
  if (x >= 1) return 1
  bt = exp(sr_lgamma(a + b) - sr_lgamma(a) - sr_lgamma(b) + a * log(x) + b * log(1 - x))
  return x < (a + 1) / (a + b + 2) ? bt * sr_betacf(a, b, x) / a : 1 - bt * sr_betacf(b, a, 1 - x) / b
}
function ttest(d, n,   i, m, v) {
  TT_DF = n - 1
  if (n < 2) { TT_T = 0; TT_P = 1; return }
  m = 0; for (i = 1; i <= n; i++) m += d[i]; m /= n
  v = 0; for (i = 1; i <= n; i++) v += (d[i] - m) ^ 2; v /= n - 1
  if (v <= 0) { TT_T = 0; TT_P = m == 0 ? 1 : 0; return }
  TT_T = m / sqrt(v / n)
  TT_P = sr_betai(TT_DF / 2, 0.5, TT_DF / (TT_DF + TT_T * TT_T))
}
