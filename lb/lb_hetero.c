/* lb_hetero.c: heterogeneous diffusion, its optimal tau and the check
 * of the accumulated edge flows. */
#include <math.h>
#include <stdlib.h>
#include "lb_hetero.h"
#include "lb_spectrum.h"
#include "lb_topo_matrix.h"
#include "lb_errno.h"

int lb_hetero_check_speeds(const double *speed, size_t n)
{
  for (size_t i = 0; i < n; i++)
    if (!(speed[i] > 0) || !isfinite(speed[i]))
      return lb_error(LB_EINVAL, "speed %g <= 0 at node %zu", speed[i], i + 1);
  return LB_SUCCESS;
}

int lb_hetero_extremes(const lb_topo *t, const double *speed, double *lambda2, double *lambdaP)
{
  size_t n = t->n;
  if (n < 2) return lb_error(LB_ETOPO, "a convergence ratio needs at least 2 nodes");
  int st = lb_hetero_check_speeds(speed, n);
  if (st) return st;
  if (!lb_topo_is_connected(t)) return lb_error(LB_ETOPO, "graph %s is not connected", t->name);
  gsl_matrix *B = gsl_matrix_alloc(n, n);
  lb_spectrum *s = NULL;
  if (!B) return lb_error(LB_ENOMEM, "out of memory");
  st = lb_topo_laplacian(t, B);
  if (!st) {
    /* S^-1/2 L S^-1/2 is similar to S^-1 L and symmetric. */
    for (size_t i = 0; i < n; i++)
      for (size_t j = 0; j < n; j++) *gsl_matrix_ptr(B, i, j) /= sqrt(speed[i] * speed[j]);
    st = lb_spectrum_alloc(n, &s);
  }
  if (!st) st = lb_spectrum_symm(s, B);
  if (!st) {
    *lambda2 = gsl_vector_get(s->eval, 1);
    *lambdaP = gsl_vector_get(s->eval, n - 1);
  }
  lb_spectrum_free(s);
  gsl_matrix_free(B);
  return st;
}

int lb_hetero_tau_opt(const lb_topo *t, const double *speed, double *tau, double *rate)
{
  double l2, lP;
  int st = lb_hetero_extremes(t, speed, &l2, &lP);
  if (st) return st;
  *tau = 2.0 / (l2 + lP);
  if (rate) *rate = (lP - l2) / (lP + l2);
  return LB_SUCCESS;
}

int lb_hetero_tau_safe(const lb_topo *t, const double *speed, double *tau)
{
  int st = lb_hetero_check_speeds(speed, t->n);
  if (st) return st;
  double m = INFINITY;
  for (size_t i = 0; i < t->n; i++) {
    size_t d = lb_topo_degree(t, i);
    if (d == 0) return lb_error(LB_ETOPO, "node %zu of %s has no neighbours", i + 1, t->name);
    if (speed[i] / (double)d < m) m = speed[i] / (double)d;
  }
  *tau = m;
  return LB_SUCCESS;
}

int lb_hetero_rate(const lb_topo *t, const double *speed, double tau, double *rate)
{
  if (!(tau > 0)) return lb_error(LB_EINVAL, "tau %g <= 0", tau);
  double l2, lP;
  int st = lb_hetero_extremes(t, speed, &l2, &lP);
  if (st) return st;
  *rate = fmax(fabs(1 - tau * l2), fabs(1 - tau * lP));
  return LB_SUCCESS;
}

int lb_hetero_step(const lb_topo *t, const double *speed, double tau, double *l, double *y, double *x)
{
  if (!(tau > 0)) return lb_error(LB_EINVAL, "tau %g <= 0", tau);
  for (size_t k = 0; k < t->m; k++) {
    size_t i = t->edge[k][0], j = t->edge[k][1];
    y[k] = tau * (l[j] - l[i]); /* (W A^T l)_k */
    if (x) x[k] += y[k];
  }
  for (size_t k = 0; k < t->m; k++) { /* l -= S^-1 A y */
    size_t i = t->edge[k][0], j = t->edge[k][1];
    l[j] -= y[k] / speed[j];
    l[i] += y[k] / speed[i];
  }
  return LB_SUCCESS;
}

double lb_hetero_lbar(const double *speed, const double *l, size_t n)
{
  double w = 0, s = 0;
  for (size_t i = 0; i < n; i++) {
    w += speed[i] * l[i];
    s += speed[i];
  }
  return w / s;
}

static double time_imbalance(const double *l, double lbar, size_t n)
{
  double d = 0;
  for (size_t i = 0; i < n; i++)
    if (fabs(l[i] - lbar) > d) d = fabs(l[i] - lbar);
  return d;
}

int lb_hetero_run(const lb_topo *t, const double *speed, double tau, double *l, double *x, double tol, size_t max_iter,
                  size_t *iters)
{
  int st = lb_hetero_check_speeds(speed, t->n);
  if (st) return st;
  double *y = malloc((t->m ? t->m : 1) * sizeof *y);
  if (!y) return lb_error(LB_ENOMEM, "out of memory");
  if (x)
    for (size_t k = 0; k < t->m; k++) x[k] = 0;
  double lbar = lb_hetero_lbar(speed, l, t->n);
  size_t it = 0;
  while (time_imbalance(l, lbar, t->n) > tol && it < max_iter) {
    st = lb_hetero_step(t, speed, tau, l, y, x);
    if (st) break;
    it++;
  }
  free(y);
  *iters = it;
  if (!st && time_imbalance(l, lbar, t->n) > tol)
    st = lb_error(LB_ENOCONV, "heterogeneous diffusion did not reach %g in %zu steps", tol, max_iter);
  return st;
}

int lb_hetero_flow_residual(const lb_topo *t, const double *speed, const double *l0, const double *x, double *resid)
{
  size_t n = t->n;
  int st = lb_hetero_check_speeds(speed, n);
  if (st) return st;
  double *ax = calloc(n, sizeof *ax);
  if (!ax) return lb_error(LB_ENOMEM, "out of memory");
  for (size_t k = 0; k < t->m; k++) { /* A x: +1 at the larger end */
    ax[t->edge[k][1]] += x[k];
    ax[t->edge[k][0]] -= x[k];
  }
  double lbar = lb_hetero_lbar(speed, l0, n), r = 0;
  for (size_t i = 0; i < n; i++) {
    double d = fabs(ax[i] / speed[i] + (lbar - l0[i]));
    if (d > r) r = d;
  }
  free(ax);
  *resid = r;
  return LB_SUCCESS;
}
