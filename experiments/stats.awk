# stats.awk: the 95 % confidence interval of a mean from Student's t,
# for the experiments' summaries (awk -f experiments/stats.awk -f ...).
# ci95(n, sum, sumsq): the half-width t_{0.975, n-1} x sd / sqrt(n) of
# the mean of n values with that sum and sum of squares; 0 for n < 2.
function t975(df) {
  if (!t975_n)
    t975_n = split("12.706 4.303 3.182 2.776 2.571 2.447 2.365 2.306 2.262 2.228 2.201 2.179 2.160 2.145 " \
                   "2.131 2.120 2.110 2.101 2.093 2.086 2.080 2.074 2.069 2.064 2.060 2.056 2.052 2.048 2.045 2.042",
                   t975_q, " ")
  return df < 1 ? 0 : df <= 30 ? t975_q[df] : df <= 60 ? 2.000 : 1.960
}
function ci95(n, sum, sumsq,   mean, var) {
  if (n < 2) return 0
  mean = sum / n
  var = (sumsq - n * mean * mean) / (n - 1)
  return var > 0 ? t975(n - 1) * sqrt(var) / sqrt(n) : 0
}
