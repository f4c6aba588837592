/* lb_topo_matrix.h: a graph's Laplacian and incidence matrix as GSL
 * matrices, for the spectral code (seed 002); apart from lb_topo.h so
 * that what only needs graphs needs no GSL headers. */
#ifndef LB_TOPO_MATRIX_H
#define LB_TOPO_MATRIX_H

#include <gsl/gsl_matrix.h>
#include "lb_topo.h"

/* L = D - Adj, n x n, caller-allocated. */
int lb_topo_laplacian(const lb_topo *t, gsl_matrix *L);
/* Incidence A, n x m: column k of edge (i<j) has +1 at j, -1 at i;
 * edges as lb_topo.h numbers and orients them. */
int lb_topo_incidence(const lb_topo *t, gsl_matrix *A);

#endif
