/* lb_spectrum.c: symmetric eigenvalues with a reusable workspace. */
#include <stdlib.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_sort_vector.h>
#include "lb_spectrum.h"
#include "lb_topo_matrix.h"
#include "lb_errno.h"

int lb_spectrum_alloc(size_t n, lb_spectrum **out)
{
  if (n == 0) return lb_error(LB_EINVAL, "spectrum of an empty matrix");
  gsl_set_error_handler_off();
  lb_spectrum *s = calloc(1, sizeof *s);
  if (s) {
    s->n = n;
    s->work_m = gsl_matrix_alloc(n, n);
    s->eval = gsl_vector_alloc(n);
    s->w = gsl_eigen_symm_alloc(n);
  }
  if (!s || !s->work_m || !s->eval || !s->w) {
    lb_spectrum_free(s);
    return lb_error(LB_ENOMEM, "out of memory for a %zu x %zu eigenproblem", n, n);
  }
  *out = s;
  return LB_SUCCESS;
}

void lb_spectrum_free(lb_spectrum *s)
{
  if (!s) return;
  if (s->work_m) gsl_matrix_free(s->work_m);
  if (s->eval) gsl_vector_free(s->eval);
  if (s->w) gsl_eigen_symm_free(s->w);
  free(s);
}

int lb_spectrum_symm(lb_spectrum *s, const gsl_matrix *a)
{
  if (a->size1 != s->n || a->size2 != s->n)
    return lb_error(LB_EINVAL, "spectrum workspace is %zu x %zu, matrix is %zu x %zu", s->n, s->n, a->size1, a->size2);
  gsl_matrix_memcpy(s->work_m, a);
  if (gsl_eigen_symm(s->work_m, s->eval, s->w)) return lb_error(LB_ENOCONV, "symmetric eigensolver failed");
  gsl_sort_vector(s->eval);
  return LB_SUCCESS;
}

int lb_spectrum_laplacian(const lb_topo *t, double *eval)
{
  lb_spectrum *s;
  int st = lb_spectrum_alloc(t->n, &s);
  if (st) return st;
  gsl_matrix *L = gsl_matrix_alloc(t->n, t->n);
  if (!L) {
    lb_spectrum_free(s);
    return lb_error(LB_ENOMEM, "out of memory");
  }
  st = lb_topo_laplacian(t, L);
  if (!st) st = lb_spectrum_symm(s, L);
  if (!st)
    for (size_t i = 0; i < t->n; i++) eval[i] = gsl_vector_get(s->eval, i);
  gsl_matrix_free(L);
  lb_spectrum_free(s);
  return st;
}
