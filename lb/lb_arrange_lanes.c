/* lb_arrange_lanes.c: p = lambda_P / lambda_2 of LB_ARRANGE_LANES
 * arrangements at once, one per lane of a vector.
 *
 * On small graphs one evaluation is all short loops and dependency
 * chains (a Householder step on 8 x 8, a Sturm count of 9 divisions);
 * the same operations on four matrices side by side cost about what one
 * did (6x less per matrix at P = 9, 2x at 64).  Three steps, each lane
 * independent of the others:
 *  1. B = S^-1/2 L S^-1/2 + c z z', z = S^1/2 1 (B's null vector), with
 *     c z'z = trace(B)/(P-1), the mean non-zero eigenvalue.  This moves
 *     the known eigenvalue 0 to a value in [lambda_2, lambda_P], so
 *     lambda_2 becomes the smallest eigenvalue and lambda_P stays the
 *     largest, and B is positive definite.
 *  2. Householder reduction to tridiagonal T, scaled by its Gershgorin
 *     bound so that the spectrum lies in (0, 1] (p does not change, and
 *     det(T - x I) and its derivatives cannot overflow at these sizes).
 *  3. Laguerre's method on det(T - x I) from 0, below every root, and
 *     from 1, above.  For a polynomial with real roots a step from
 *     outside the roots never passes the nearest one, so the two
 *     converge monotonically to the smallest and largest (cubically
 *     when simple).  A lane that does not converge (a multiple root at the
 *     end, which Laguerre approaches only linearly) is finished by
 *     lb_symtri_kth. */
#include <float.h>
#include <math.h>
#include <string.h>
#include "lb_arrange.h"
#include "lb_arrange_ws.h"
#include "lb_symtri.h"

#if defined(__GNUC__) && !defined(__clang__)
/* Vectors are passed between the static helpers below, which GCC warns
 * about for the non-AVX clone; they are all inlined. */
#pragma GCC diagnostic ignored "-Wpsabi"
#endif

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define LANES_HOT __attribute__((optimize("O3"), target_clones("avx2", "default")))
#elif defined(__GNUC__) && !defined(__clang__)
#define LANES_HOT __attribute__((optimize("O3")))
#else
#define LANES_HOT
#endif

#define W LB_ARRANGE_LANES
typedef double vd __attribute__((vector_size(W * sizeof(double))));
typedef long long vm __attribute__((vector_size(W * sizeof(double))));

static inline vd splat(double x) { return (vd){x, x, x, x}; }
static inline vd vsel(vm m, vd a, vd b) { return (vd)(((vm)a & m) | ((vm)b & ~m)); }
static inline vd vabs(vd x) { return (vd)((vm)x & ~(vm)splat(-0.0)); }
static inline vd vsqrt(vd x)
{
  vd r;
  for (int l = 0; l < W; l++) r[l] = sqrt(x[l]);
  return r;
}
static inline int all(vm m)
{
  long long a = -1;
  for (int l = 0; l < W; l++) a &= m[l];
  return a != 0;
}

#define LAGUERRE_MAX_IT 40

/* Laguerre's step from x, given f = det(T - xI), f' and f''/2 there:
 * G = f'/f, H = G^2 - f''/f, step -n / (G +- sqrt((n-1)(nH - G^2))),
 * the sign that makes the denominator larger.  From below every root
 * that is a step up, from above a step down, never past the nearest
 * root; after a rounding overshoot it is a step back. */
static inline vd laguerre_step(vd f, vd fd, vd fh, double nn)
{
  vd G = fd / f, H = G * G - 2 * fh / f, D = (nn - 1) * (nn * H - G * G);
  vd s = vsqrt(vsel(D > 0, D, splat(0)));
  s = (vd)((vm)s | ((vm)G & (vm)splat(-0.0))); /* sign of G */
  return -nn / (G + s);
}

LANES_HOT void lb_arrange_ratio_lanes(lb_arrange_ws *ws, const double *s, double *p)
{
  size_t n = ws->n;
  const double *L = ws->L;
  vd *A = (vd *)ws->lane_a, *r = (vd *)ws->lane_v, *z = r + n, *v = z + n, *q = v + n, *d = q + n, *e = d + n,
     *e2 = e + n;
  /* 1. B with the zero eigenvalue moved up. */
  vd tr = splat(0), zz = splat(0);
  for (size_t i = 0; i < n; i++) {
    vd si;
    for (int l = 0; l < W; l++) si[l] = s[(size_t)l * n + i];
    r[i] = splat(1.0) / vsqrt(si);
    z[i] = si * r[i];
    zz += si;
    tr += L[i * n + i] * r[i] * r[i];
  }
  vd c = tr / ((double)(n - 1) * zz);
  for (size_t i = 0; i < n; i++) {
    vd ri = r[i], czi = c * z[i];
    for (size_t j = 0; j < n; j++) A[i * n + j] = L[i * n + j] * ri * r[j] + czi * z[j];
  }
  /* 2. Householder, as lb_symtri_reduce's small-matrix path; a lane
   * whose column is already reduced gets tau = 0 (no reflection). */
  for (size_t k = 0; k + 2 < n; k++) {
    size_t m = n - k - 1;
    vd *sub = A + (k + 1) * n + (k + 1);
    vd x0 = A[(k + 1) * n + k], nrm2 = splat(0);
    for (size_t i = 0; i < m; i++) {
      v[i] = A[(k + 1 + i) * n + k];
      nrm2 += v[i] * v[i];
    }
    d[k] = A[k * n + k];
    vm go = nrm2 - x0 * x0 > 0;
    vd nr = vsqrt(nrm2), alpha = vsel(x0 > 0, -nr, nr);
    v[0] = x0 - alpha;
    vd tau = vsel(go, splat(1.0) / (alpha * (alpha - x0)), splat(0));
    e[k] = vsel(go, alpha, x0);
    vd vq = splat(0);
    for (size_t i = 0; i < m; i++) {
      const vd *row = sub + i * n;
      vd acc = splat(0);
      for (size_t j = 0; j < m; j++) acc += row[j] * v[j];
      q[i] = tau * acc;
      vq += v[i] * q[i];
    }
    vd K = 0.5 * tau * vq;
    for (size_t i = 0; i < m; i++) q[i] -= K * v[i];
    for (size_t i = 0; i < m; i++) {
      vd *row = sub + i * n, vi = v[i], qi = q[i];
      for (size_t j = 0; j < m; j++) row[j] -= vi * q[j] + qi * v[j];
    }
  }
  d[n - 2] = A[(n - 2) * n + (n - 2)];
  e[n - 2] = A[(n - 1) * n + (n - 2)];
  d[n - 1] = A[(n - 1) * n + (n - 1)];
  /* Scale by the Gershgorin upper bound g: eigenvalues in (0, 1]. */
  vd g = splat(0);
  for (size_t i = 0; i < n; i++) {
    vd t = d[i] + (i ? vabs(e[i - 1]) : splat(0)) + (i + 1 < n ? vabs(e[i]) : splat(0));
    g = vsel(t > g, t, g);
  }
  vd ig = splat(1.0) / g;
  for (size_t i = 0; i < n; i++) d[i] *= ig;
  for (size_t i = 0; i + 1 < n; i++) e2[i] = (e[i] * ig) * (e[i] * ig);
  /* 3. Laguerre: a from 0 up to lambda_2, b from 1 down to lambda_P;
   * the two chains run interleaved.  f, f' and f''/2 by the three-term
   * recurrence, no divisions. */
  const double nn = (double)n, rtol = LB_ARRANGE_RTOL;
  /* What the spectrum of T/g can be resolved to (lb_symtri_kth's atol). */
  const double atol = 4 * DBL_EPSILON;
  vd a = splat(0), b = splat(1);
  vm da = {0}, db = {0};
  for (int it = 0; it < LAGUERRE_MAX_IT && !(all(da) && all(db)); it++) {
    vd f0 = splat(1), f1 = d[0] - a, g0 = splat(0), g1 = splat(-1), h0 = splat(0), h1 = splat(0);
    vd F0 = splat(1), F1 = d[0] - b, G0 = splat(0), G1 = splat(-1), H0 = splat(0), H1 = splat(0);
    for (size_t i = 1; i < n; i++) {
      vd t = d[i] - a, T = d[i] - b, ee = e2[i - 1];
      vd f2 = t * f1 - ee * f0, g2 = t * g1 - f1 - ee * g0, h2 = t * h1 - g1 - ee * h0;
      vd F2 = T * F1 - ee * F0, G2 = T * G1 - F1 - ee * G0, H2 = T * H1 - G1 - ee * H0;
      f0 = f1;
      f1 = f2;
      g0 = g1;
      g1 = g2;
      h0 = h1;
      h1 = h2;
      F0 = F1;
      F1 = F2;
      G0 = G1;
      G1 = G2;
      H0 = H1;
      H1 = H2;
    }
    vd sa = laguerre_step(f1, g1, h1, nn), sb = laguerre_step(F1, G1, H1, nn);
    vm za = f1 == 0, zb = F1 == 0; /* on a root exactly */
    a = vsel(da | za, a, a + sa);
    b = vsel(db | zb, b, b + sb);
    da |= za | (vabs(sa) <= 0.5 * rtol * vabs(a) + atol);
    db |= zb | (vabs(sb) <= 0.5 * rtol * vabs(b) + atol);
  }
  for (int l = 0; l < W; l++) {
    /* Monotone convergence keeps a in (0, b] and b in (0, 1]. */
    if (da[l] && db[l] && a[l] > 0 && a[l] <= b[l] && b[l] <= 1 + 1e-12) {
      p[l] = b[l] / a[l];
      continue;
    }
    double *dl = ws->lane_fd, *el = dl + n;
    for (size_t i = 0; i < n; i++) dl[i] = d[i][l];
    for (size_t i = 0; i + 1 < n; i++) el[i] = e2[i][l];
    p[l] = lb_symtri_kth(dl, el, n, n - 1, rtol) / lb_symtri_kth(dl, el, n, 0, rtol);
  }
}
