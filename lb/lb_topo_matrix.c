/* lb_topo_matrix.c: see lb_topo_matrix.h. */
#include "lb_topo_matrix.h"
#include "lb_errno.h"

int lb_topo_laplacian(const lb_topo *t, gsl_matrix *L)
{
  if (L->size1 != t->n || L->size2 != t->n)
    return lb_error(LB_EINVAL, "Laplacian needs a %zux%zu matrix, got %zux%zu", t->n, t->n, L->size1, L->size2);
  gsl_matrix_set_zero(L);
  for (size_t k = 0; k < t->m; k++) {
    size_t i = t->edge[k][0], j = t->edge[k][1];
    gsl_matrix_set(L, i, j, -1.0);
    gsl_matrix_set(L, j, i, -1.0);
  }
  for (size_t i = 0; i < t->n; i++) gsl_matrix_set(L, i, i, (double)lb_topo_degree(t, i));
  return LB_SUCCESS;
}

int lb_topo_incidence(const lb_topo *t, gsl_matrix *A)
{
  if (A->size1 != t->n || A->size2 != t->m)
    return lb_error(LB_EINVAL, "incidence needs a %zux%zu matrix, got %zux%zu", t->n, t->m, A->size1, A->size2);
  gsl_matrix_set_zero(A);
  for (size_t k = 0; k < t->m; k++) {
    gsl_matrix_set(A, t->edge[k][1], k, 1.0);  /* start: larger index */
    gsl_matrix_set(A, t->edge[k][0], k, -1.0); /* end: smaller index */
  }
  return LB_SUCCESS;
}
