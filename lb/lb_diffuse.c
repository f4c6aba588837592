/* lb_diffuse.c: first- and second-order diffusion in edge-flow form. */
#include <math.h>
#include <stdlib.h>
#include "lb_diffuse.h"
#include "lb_errno.h"

static int check_beta(double beta)
{
  /* SOR converges for 0 < beta < 2 whenever first order does. */
  if (!(beta > 0 && beta < 2)) return lb_error(LB_EINVAL, "second-order beta %g is not in (0, 2)", beta);
  return LB_SUCCESS;
}

int lb_diffuse_step(const lb_topo *t, const double *edge_alpha, double beta, double *w, double *y)
{
  int st = check_beta(beta);
  if (st) return st;
  for (size_t k = 0; k < t->m; k++) {
    size_t i = t->edge[k][0], j = t->edge[k][1];
    y[k] = beta * edge_alpha[k] * (w[i] - w[j]) + (beta - 1.0) * y[k];
  }
  for (size_t k = 0; k < t->m; k++) {
    w[t->edge[k][0]] -= y[k];
    w[t->edge[k][1]] += y[k];
  }
  return LB_SUCCESS;
}

double lb_diffuse_imbalance(const double *w, size_t n)
{
  double mean = 0, d = 0;
  for (size_t i = 0; i < n; i++) mean += w[i];
  mean /= (double)n;
  for (size_t i = 0; i < n; i++)
    if (fabs(w[i] - mean) > d) d = fabs(w[i] - mean);
  return d;
}

int lb_diffuse_run(const lb_topo *t, const double *edge_alpha, double beta, double *w, double tol, size_t max_iter,
                   size_t *iters)
{
  int st = check_beta(beta);
  if (st) return st;
  double *y = calloc(t->m ? t->m : 1, sizeof *y);
  if (!y) return lb_error(LB_ENOMEM, "out of memory");
  size_t it = 0;
  while (lb_diffuse_imbalance(w, t->n) > tol && it < max_iter) {
    /* The first step has no memory: plain first order. */
    lb_diffuse_step(t, edge_alpha, it == 0 ? 1.0 : beta, w, y);
    it++;
  }
  *iters = it;
  free(y);
  if (lb_diffuse_imbalance(w, t->n) > tol)
    return lb_error(LB_ENOCONV, "diffusion did not reach imbalance %g in %zu steps", tol, max_iter);
  return LB_SUCCESS;
}

int lb_diffuse_int_step(const lb_topo *t, const double *edge_alpha, double beta, long *w, long *y, size_t *guarded)
{
  int st = check_beta(beta);
  if (st) return st;
  size_t n = t->n;
  double *out = calloc(n, sizeof *out);
  if (!out) return lb_error(LB_ENOMEM, "out of memory");
  for (size_t k = 0; k < t->m; k++) {
    size_t i = t->edge[k][0], j = t->edge[k][1];
    double f = beta * edge_alpha[k] * (double)(w[i] - w[j]) + (beta - 1.0) * (double)y[k];
    y[k] = lround(f);
    if (y[k] > 0) out[i] += (double)y[k];
    else out[j] -= (double)y[k];
  }
  /* The guard: a node cannot send more than it holds.  Flows are cut
   * before any is applied, so incoming load in the same step is not
   * counted on (neighbours act simultaneously). */
  for (size_t k = 0; k < t->m; k++) {
    size_t src = y[k] > 0 ? t->edge[k][0] : t->edge[k][1];
    if (y[k] == 0 || out[src] <= (double)w[src]) continue;
    double scale = (double)w[src] / out[src];
    long mag = (long)floor(fabs((double)y[k]) * scale);
    y[k] = y[k] > 0 ? mag : -mag;
  }
  if (guarded)
    for (size_t i = 0; i < n; i++) *guarded += out[i] > (double)w[i];
  free(out);
  for (size_t k = 0; k < t->m; k++) {
    w[t->edge[k][0]] -= y[k];
    w[t->edge[k][1]] += y[k];
  }
  return LB_SUCCESS;
}

int lb_diffuse_int_run(const lb_topo *t, const double *edge_alpha, double beta, long *w, double tol, size_t max_iter,
                       size_t *iters, size_t *guarded)
{
  size_t n = t->n;
  for (size_t i = 0; i < n; i++)
    if (w[i] < 0) return lb_error(LB_EINVAL, "load %ld < 0 at node %zu", w[i], i + 1);
  long *y = calloc(t->m ? t->m : 1, sizeof *y);
  double *wd = malloc(n * sizeof *wd);
  if (!y || !wd) {
    free(y);
    free(wd);
    return lb_error(LB_ENOMEM, "out of memory");
  }
  size_t it = 0;
  int st = LB_SUCCESS;
  for (;;) {
    for (size_t i = 0; i < n; i++) wd[i] = (double)w[i];
    if (lb_diffuse_imbalance(wd, n) <= tol) break;
    if (it == max_iter) {
      st = lb_error(LB_ENOCONV, "integer diffusion did not reach imbalance %g in %zu steps", tol, max_iter);
      break;
    }
    st = lb_diffuse_int_step(t, edge_alpha, it == 0 ? 1.0 : beta, w, y, guarded);
    if (st) break;
    it++;
  }
  *iters = it;
  free(y);
  free(wd);
  return st;
}
