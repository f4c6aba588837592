/* lb_symtri.c: Householder tridiagonalisation and Sturm bisection. */
#include <math.h>
#include <float.h>
#include "lb_symtri.h"

/* The hot loops of the reduction: O3 lets GCC vectorise them (the
 * project builds at -O2, whose cost model leaves them scalar), and on
 * x86-64 an AVX2 clone is picked at load time where the CPU has it. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define LB_HOT __attribute__((optimize("O3"), target_clones("avx2", "default")))
#elif defined(__GNUC__) && !defined(__clang__)
#define LB_HOT __attribute__((optimize("O3")))
#else
#define LB_HOT
#endif

/* p = tau * S v over the r x r lower triangle of S (row stride ld). */
LB_HOT static void symv_lower(const double *restrict S, size_t ld, size_t r, const double *restrict v, double tau,
                              double *restrict p)
{
  for (size_t i = 0; i < r; i++) p[i] = 0;
  for (size_t i = 0; i < r; i++) {
    const double *restrict row = S + i * ld;
    double s = 0, vi = v[i];
    for (size_t j = 0; j < i; j++) { /* S[i][j] = S[j][i] */
      s += row[j] * v[j];
      p[j] += row[j] * vi;
    }
    p[i] += s + row[i] * vi;
  }
  for (size_t i = 0; i < r; i++) p[i] *= tau;
}

/* S -= v q' + q v' on the lower triangle. */
LB_HOT static void syr2_lower(double *restrict S, size_t ld, size_t r, const double *restrict v,
                              const double *restrict q)
{
  for (size_t i = 0; i < r; i++) {
    double *restrict row = S + i * ld;
    double vi = v[i], qi = q[i];
    for (size_t j = 0; j <= i; j++) row[j] -= vi * q[j] + qi * v[j];
  }
}

/* Below this size the plain full-square loops beat the vectorised
 * triangle ones (short loops, no dispatch): measured at n = 9. */
#define SMALL_N 16

static void update_full(double *sub, size_t ld, size_t r, const double *v, double tau, double *p)
{
  double vp = 0;
  for (size_t i = 0; i < r; i++) {
    double s = 0;
    const double *row = sub + i * ld;
    for (size_t j = 0; j < r; j++) s += row[j] * v[j];
    p[i] = tau * s;
    vp += v[i] * p[i];
  }
  double K = 0.5 * tau * vp;
  for (size_t i = 0; i < r; i++) p[i] -= K * v[i];
  for (size_t i = 0; i < r; i++) {
    double *row = sub + i * ld;
    for (size_t j = 0; j < r; j++) row[j] -= v[i] * p[j] + p[i] * v[j];
  }
}

void lb_symtri_reduce(double *a, size_t n, double *d, double *e, double *scratch)
{
  /* Large n reads and updates the lower triangle only. */
  double *v = scratch, *p = scratch + n;
  for (size_t k = 0; k + 2 < n; k++) {
    size_t r = n - k - 1; /* size of the trailing block */
    double *sub = a + (k + 1) * n + (k + 1);
    double x0 = a[(k + 1) * n + k], nrm2 = 0;
    for (size_t i = 0; i < r; i++) {
      v[i] = a[(k + 1 + i) * n + k];
      nrm2 += v[i] * v[i];
    }
    d[k] = a[k * n + k];
    double tail = nrm2 - x0 * x0;
    if (tail <= 0) {
      e[k] = x0;
      continue;
    } /* already tridiagonal here */
    double alpha = x0 > 0 ? -sqrt(nrm2) : sqrt(nrm2);
    v[0] = x0 - alpha;                         /* no cancellation: signs differ */
    double tau = 1.0 / (alpha * (alpha - x0)); /* 2 / v'v */
    e[k] = alpha;
    if (n <= SMALL_N) {
      update_full(sub, n, r, v, tau, p);
      continue;
    }
    symv_lower(sub, n, r, v, tau, p);
    double vp = 0;
    for (size_t i = 0; i < r; i++) vp += v[i] * p[i];
    double K = 0.5 * tau * vp;
    for (size_t i = 0; i < r; i++) p[i] -= K * v[i]; /* q */
    syr2_lower(sub, n, r, v, p);
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
  for (size_t i = 0; i + 1 < n; i++)
    if (e2[i] > m) m = e2[i];
  return DBL_MIN * m;
}

static inline size_t count_piv(const double *d, const double *e2, size_t n, double sigma, double pivmin)
{
  size_t c = 0;
  double q = d[0] - sigma;
  if (fabs(q) < pivmin) q = -pivmin; /* LAPACK's dstebz rule */
  c += q < 0;
  for (size_t i = 1; i < n; i++) {
    q = d[i] - sigma - e2[i - 1] / q;
    if (fabs(q) < pivmin) q = -pivmin;
    c += q < 0;
  }
  return c;
}

/* Two counts in one pass: two independent division chains overlap. */
static inline void count2(const double *d, const double *e2, size_t n, double s1, double s2, double pivmin, size_t *c1,
                          size_t *c2)
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

/* det(T - sigma I) by the three-term recurrence: no divisions.  Its
 * sign changes exactly once across an isolated simple eigenvalue. */
static inline double det_shift(const double *d, const double *e2, size_t n, double sigma)
{
  double p0 = 1.0, p1 = d[0] - sigma;
  for (size_t i = 1; i < n; i++) {
    double p2 = (d[i] - sigma) * p1 - e2[i - 1] * p0;
    p0 = p1;
    p1 = p2;
  }
  return p1;
}

static void gershgorin(const double *d, const double *e2, size_t n, double *lo, double *hi)
{
  double glo = INFINITY, ghi = -INFINITY;
  for (size_t i = 0; i < n; i++) {
    double r = (i ? sqrt(e2[i - 1]) : 0) + (i + 1 < n ? sqrt(e2[i]) : 0);
    if (d[i] - r < glo) glo = d[i] - r;
    if (d[i] + r > ghi) ghi = d[i] + r;
  }
  double pad = (ghi - glo) * 4 * DBL_EPSILON + DBL_MIN;
  *lo = glo - pad;
  *hi = ghi + pad;
}

double lb_symtri_kth(const double *d, const double *e2, size_t n, size_t k, double rtol)
{
  double lo, hi;
  gershgorin(d, e2, n, &lo, &hi);
  double pivmin = pivmin_of(e2, n);
  double atol = (hi - lo) * 2 * DBL_EPSILON + pivmin;
  size_t clo = 0, chi = n;
#define NARROW(a, b) ((b) - (a) <= rtol * fmax(fabs(a), fabs(b)) + atol)
  /* Bisection until (lo, hi] holds eigenvalue k alone ... */
  while (!(clo == k && chi == k + 1) && !NARROW(lo, hi)) {
    double mid = 0.5 * (lo + hi);
    size_t c = count_piv(d, e2, n, mid, pivmin);
    if (c > k) {
      hi = mid;
      chi = c;
    } else {
      lo = mid;
      clo = c;
    }
  }
  if (NARROW(lo, hi)) return 0.5 * (lo + hi); /* a multiple eigenvalue */
  /* ... then the Illinois variant of regula falsi on det(T - sigma I),
   * superlinear; a bisection step whenever it stalls or overflows. */
  double flo = det_shift(d, e2, n, lo), fhi = det_shift(d, e2, n, hi);
  int side = 0;
  for (int it = 0; it < 200 && !NARROW(lo, hi); it++) {
    double x;
    int secant = isfinite(flo) && isfinite(fhi) && flo * fhi < 0;
    x = secant ? hi - fhi * (hi - lo) / (fhi - flo) : 0.5 * (lo + hi);
    if (!(x > lo && x < hi)) x = 0.5 * (lo + hi);
    double fx = det_shift(d, e2, n, x);
    if (!isfinite(fx) || !secant) {
      /* No usable signs: decide by counting. */
      if (count_piv(d, e2, n, x, pivmin) > k) {
        hi = x;
        fhi = fx;
      } else {
        lo = x;
        flo = fx;
      }
      side = 0;
      continue;
    }
    if (fx == 0) return x;
    if ((fx < 0) == (fhi < 0)) {
      hi = x;
      fhi = fx;
      if (side == 1) flo *= 0.5;
      side = 1;
    } else {
      lo = x;
      flo = fx;
      if (side == -1) fhi *= 0.5;
      side = -1;
    }
  }
#undef NARROW
  return 0.5 * (lo + hi);
}

void lb_symtri_bisect2(const double *d, const double *e2, size_t n, size_t k1, size_t k2, double rtol, double *x1,
                       double *x2)
{
  /* Gershgorin interval holds every eigenvalue. */
  double glo, ghi;
  gershgorin(d, e2, n, &glo, &ghi);
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
    if (go1) {
      if (c1 > k1) hi1 = m1;
      else lo1 = m1;
    }
    if (go2) {
      if (c2 > k2) hi2 = m2;
      else lo2 = m2;
    }
  }
  *x1 = 0.5 * (lo1 + hi1);
  *x2 = 0.5 * (lo2 + hi2);
}
