/* lb_spectrum.h: eigenvalues of symmetric matrices through GSL's
 * gsl_eigen_symm, with a reusable workspace so hot loops (arrangement
 * search) do not allocate. */
#ifndef LB_SPECTRUM_H
#define LB_SPECTRUM_H

#include <stddef.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>
#include <gsl/gsl_eigen.h>
#include "lb_topo.h"

typedef struct lb_spectrum {
  size_t n;
  gsl_matrix *work_m; /* copy of the input (gsl_eigen_symm destroys it) */
  gsl_vector *eval;   /* ascending after each call */
  gsl_eigen_symm_workspace *w;
} lb_spectrum;

int lb_spectrum_alloc(size_t n, lb_spectrum **out);
void lb_spectrum_free(lb_spectrum *s);

/* Eigenvalues of symmetric `a` (left untouched), ascending, in s->eval. */
int lb_spectrum_symm(lb_spectrum *s, const gsl_matrix *a);

/* Laplacian eigenvalues of t, ascending, into eval[0..n-1]. */
int lb_spectrum_laplacian(const lb_topo *t, double *eval);

#endif
