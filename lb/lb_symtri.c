/* lb_symtri.c: Householder tridiagonalisation and Sturm bisection. */
#include <math.h>
#include <float.h>
#include "lb_symtri.h"

void lb_symtri_reduce(double *a, size_t n, double *d, double *e, double *scratch)
{
  double *v = scratch, *p = scratch + n;
  for (size_t k = 0; k + 2 < n; k++) {
    size_t r = n - k - 1;                 /* size of the trailing block */
    double *sub = a + (k + 1) * n + (k + 1);
    double x0 = a[(k + 1) * n + k], nrm2 = 0;
    for (size_t i = 0; i < r; i++) {
      v[i] = a[(k + 1 + i) * n + k];
      nrm2 += v[i] * v[i];
    }
    d[k] = a[k * n + k];
    double tail = nrm2 - x0 * x0;
    if (tail <= 0) { e[k] = x0; continue; }   /* already tridiagonal here */
    double alpha = x0 > 0 ? -sqrt(nrm2) : sqrt(nrm2);
    v[0] = x0 - alpha;                        /* no cancellation: signs differ */
    double tau = 1.0 / (alpha * (alpha - x0));   /* 2 / v'v */
    e[k] = alpha;
    double vp = 0;
    for (size_t i = 0; i < r; i++) {
      double s = 0;
      const double *row = sub + i * n;
      for (size_t j = 0; j < r; j++) s += row[j] * v[j];
      p[i] = tau * s;
      vp += v[i] * p[i];
    }
    double K = 0.5 * tau * vp;
    for (size_t i = 0; i < r; i++) p[i] -= K * v[i];   /* q */
    for (size_t i = 0; i < r; i++) {
      double *row = sub + i * n;
      for (size_t j = 0; j < r; j++) row[j] -= v[i] * p[j] + p[i] * v[j];
    }
  }
  if (n >= 2) {
    d[n - 2] = a[(n - 2) * n + (n - 2)];
    e[n - 2] = a[(n - 1) * n + (n - 2)];
  }
  d[n - 1] = a[(n - 1) * n + (n - 1)];
}

static double pivmin_of(const double *e2, size_t n)
{
  double m = 1.0;
  for (size_t i = 0; i + 1 < n; i++) if (e2[i] > m) m = e2[i];
  return DBL_MIN * m;
}

static inline size_t count_piv(const double *d, const double *e2, size_t n,
                               double sigma, double pivmin)
{
  size_t c = 0;
  double q = d[0] - sigma;
  if (fabs(q) < pivmin) q = -pivmin;   /* LAPACK's dstebz rule */
  c += q < 0;
  for (size_t i = 1; i < n; i++) {
    q = d[i] - sigma - e2[i - 1] / q;
    if (fabs(q) < pivmin) q = -pivmin;
    c += q < 0;
  }
  return c;
}

/* Two counts in one pass: two independent division chains overlap. */
static inline void count2(const double *d, const double *e2, size_t n,
                          double s1, double s2, double pivmin,
                          size_t *c1, size_t *c2)
{
  size_t a = 0, b = 0;
  double q = d[0] - s1, r = d[0] - s2;
  if (fabs(q) < pivmin) q = -pivmin;
  if (fabs(r) < pivmin) r = -pivmin;
  a += q < 0;
  b += r < 0;
  for (size_t i = 1; i < n; i++) {
    q = d[i] - s1 - e2[i - 1] / q;
    r = d[i] - s2 - e2[i - 1] / r;
    if (fabs(q) < pivmin) q = -pivmin;
    if (fabs(r) < pivmin) r = -pivmin;
    a += q < 0;
    b += r < 0;
  }
  *c1 = a;
  *c2 = b;
}

size_t lb_symtri_count(const double *d, const double *e2, size_t n, double sigma)
{
  return count_piv(d, e2, n, sigma, pivmin_of(e2, n));
}

void lb_symtri_bisect2(const double *d, const double *e2, size_t n,
                       size_t k1, size_t k2, double rtol,
                       double *x1, double *x2)
{
  /* Gershgorin interval holds every eigenvalue. */
  double glo = INFINITY, ghi = -INFINITY;
  for (size_t i = 0; i < n; i++) {
    double r = (i ? sqrt(e2[i - 1]) : 0) + (i + 1 < n ? sqrt(e2[i]) : 0);
    if (d[i] - r < glo) glo = d[i] - r;
    if (d[i] + r > ghi) ghi = d[i] + r;
  }
  double pad = (ghi - glo) * 4 * DBL_EPSILON + DBL_MIN;
  glo -= pad; ghi += pad;
  double pivmin = pivmin_of(e2, n);
  double atol = (ghi - glo) * 2 * DBL_EPSILON + pivmin;
  double lo1 = glo, hi1 = ghi, lo2 = glo, hi2 = ghi;
  for (int it = 0; it < 200; it++) {
    int go1 = hi1 - lo1 > rtol * fmax(fabs(lo1), fabs(hi1)) + atol;
    int go2 = hi2 - lo2 > rtol * fmax(fabs(lo2), fabs(hi2)) + atol;
    if (!go1 && !go2) break;
    double m1 = 0.5 * (lo1 + hi1), m2 = 0.5 * (lo2 + hi2);
    /* Both counts every pass: the second chain costs almost nothing. */
    size_t c1, c2;
    count2(d, e2, n, m1, m2, pivmin, &c1, &c2);
    if (go1) { if (c1 > k1) hi1 = m1; else lo1 = m1; }
    if (go2) { if (c2 > k2) hi2 = m2; else lo2 = m2; }
  }
  *x1 = 0.5 * (lo1 + hi1);
  *x2 = 0.5 * (lo2 + hi2);
}
