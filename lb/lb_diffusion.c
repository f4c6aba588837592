/* lb_diffusion.c: edge coefficients, the diffusion matrix and the
 * spectral constants (optimal alpha, gamma, beta_opt). */
#include <math.h>
#include <string.h>
#include <stdlib.h>
#include "lb_diffusion.h"
#include "lb_spectrum.h"
#include "lb_errno.h"

static const char *const kind_names[] = {"uniform", "boillat", "optimal"};

const char *lb_diffusion_kind_name(lb_diffusion_kind k) { return (unsigned)k < 3 ? kind_names[k] : "?"; }

int lb_diffusion_kind_parse(const char *s, lb_diffusion_kind *k)
{
  for (unsigned i = 0; i < 3; i++)
    if (strcmp(s, kind_names[i]) == 0) {
      *k = (lb_diffusion_kind)i;
      return LB_SUCCESS;
    }
  return lb_error(LB_EINVAL, "unknown diffusion coefficient '%s' (uniform, boillat, optimal)", s);
}

int lb_diffusion_alpha_boillat(size_t deg_i, size_t deg_j, double *out)
{
  if (deg_i == 0 || deg_j == 0) return lb_error(LB_EINVAL, "edge end point of degree 0");
  *out = 1.0 / (double)((deg_i > deg_j ? deg_i : deg_j) + 1);
  return LB_SUCCESS;
}

int lb_diffusion_edge_alpha(lb_diffusion_kind k, double alpha, size_t deg_i, size_t deg_j, double *out)
{
  if (deg_i == 0 || deg_j == 0) return lb_error(LB_EINVAL, "edge end point of degree 0");
  switch (k) {
  case LB_DIFFUSION_BOILLAT: return lb_diffusion_alpha_boillat(deg_i, deg_j, out);
  case LB_DIFFUSION_UNIFORM:
  case LB_DIFFUSION_OPTIMAL:
    if (!(alpha > 0) || !isfinite(alpha)) return lb_error(LB_EINVAL, "diffusion alpha %g is not > 0", alpha);
    *out = alpha;
    return LB_SUCCESS;
  }
  return lb_error(LB_EINVAL, "unknown diffusion coefficient kind %d", (int)k);
}

int lb_diffusion_alpha_opt(const lb_topo *t, double *alpha)
{
  if (t->n < 2) return lb_error(LB_ETOPO, "optimal alpha needs at least 2 nodes");
  if (!lb_topo_is_connected(t)) return lb_error(LB_ETOPO, "graph %s is not connected", t->name);
  double *ev = malloc(t->n * sizeof *ev);
  if (!ev) return lb_error(LB_ENOMEM, "out of memory");
  int st = lb_spectrum_laplacian(t, ev);
  if (!st) *alpha = 2.0 / (ev[1] + ev[t->n - 1]);
  free(ev);
  return st;
}

int lb_diffusion_edge_alphas(const lb_topo *t, lb_diffusion_kind k, double alpha, double *edge_alpha)
{
  if (k == LB_DIFFUSION_OPTIMAL) {
    int st = lb_diffusion_alpha_opt(t, &alpha);
    if (st) return st;
  }
  for (size_t e = 0; e < t->m; e++) {
    size_t i = t->edge[e][0], j = t->edge[e][1];
    int st = lb_diffusion_edge_alpha(k, alpha, lb_topo_degree(t, i), lb_topo_degree(t, j), &edge_alpha[e]);
    if (st) return lb_error_wrap(st, "edge %zu-%zu", i + 1, j + 1);
  }
  return LB_SUCCESS;
}

int lb_diffusion_matrix(const lb_topo *t, const double *edge_alpha, gsl_matrix *M)
{
  if (M->size1 != t->n || M->size2 != t->n)
    return lb_error(LB_EINVAL, "diffusion matrix is %zu x %zu, graph has %zu nodes", M->size1, M->size2, t->n);
  gsl_matrix_set_identity(M);
  for (size_t e = 0; e < t->m; e++) {
    size_t i = t->edge[e][0], j = t->edge[e][1];
    double a = edge_alpha[e];
    if (!(a > 0) || !isfinite(a)) return lb_error(LB_EINVAL, "alpha %g <= 0 on edge %zu-%zu", a, i + 1, j + 1);
    gsl_matrix_set(M, i, j, a);
    gsl_matrix_set(M, j, i, a);
    *gsl_matrix_ptr(M, i, i) -= a;
    *gsl_matrix_ptr(M, j, j) -= a;
  }
  return LB_SUCCESS;
}

int lb_diffusion_gamma(const lb_topo *t, const double *edge_alpha, double *gamma)
{
  size_t n = t->n;
  if (n == 1) {
    *gamma = 0;
    return LB_SUCCESS;
  }
  /* Dense: n^2 doubles and n^3 time (8192 nodes: 0.5 GB, minutes). */
  if (n > LB_DIFFUSION_DENSE_MAX)
    return lb_error(LB_ERANGE, "the spectrum of %zu nodes: a dense %zu x %zu eigenproblem, above %d nodes", n, n, n,
                    LB_DIFFUSION_DENSE_MAX);
  gsl_matrix *M = gsl_matrix_alloc(n, n);
  lb_spectrum *s = NULL;
  if (!M) return lb_error(LB_ENOMEM, "out of memory");
  int st = lb_diffusion_matrix(t, edge_alpha, M);
  if (!st) st = lb_spectrum_alloc(n, &s);
  if (!st) st = lb_spectrum_symm(s, M);
  if (!st) {
    /* Ascending: eval[n-1] is the eigenvalue 1 of the uniform vector. */
    double lo = fabs(gsl_vector_get(s->eval, 0));
    double hi = fabs(gsl_vector_get(s->eval, n - 2));
    *gamma = lo > hi ? lo : hi;
    if (*gamma >= 1.0 - 1e-12)
      st = lb_error(LB_ENOCONV,
                    "diffusion on %s does not converge: gamma = %.6g "
                    "(alpha too large or graph disconnected)",
                    t->name, *gamma);
  }
  lb_spectrum_free(s);
  gsl_matrix_free(M);
  return st;
}

int lb_diffusion_beta_from_gamma(double gamma, double *beta)
{
  if (!(gamma >= 0 && gamma < 1)) return lb_error(LB_EINVAL, "gamma %g is not in [0, 1)", gamma);
  *beta = 2.0 / (1.0 + sqrt(1.0 - gamma * gamma));
  return LB_SUCCESS;
}

int lb_diffusion_beta_opt(const lb_topo *t, const double *edge_alpha, double *beta, double *gamma)
{
  double g;
  int st = lb_diffusion_gamma(t, edge_alpha, &g);
  if (st) return st;
  if (gamma) *gamma = g;
  return lb_diffusion_beta_from_gamma(g, beta);
}
