/* lb_transport_simplex.h: the network simplex under lb_tp_solve
 * (internal to lb/).
 *
 * A balanced transportation problem of M rows (suppliers) and N
 * columns (consumers) is a bipartite network with an arc from every row
 * to every column.  A basis is a spanning tree of M+N-1 cells; the
 * solver keeps it as parent, preorder thread, subtree size and last
 * node of each subtree, so that a pivot costs the length of the cycle
 * plus the size of the subtree that moves, not a walk of the whole
 * tree, and prices cells by blocks of rows with the potentials
 * u_i + v_j = c_ij of the basis (the MODI method). */
#ifndef LB_TRANSPORT_SIMPLEX_H
#define LB_TRANSPORT_SIMPLEX_H

#include <stddef.h>
#include "lb_transport.h"

/* The balanced problem: m x n real cells with costs c (row stride n);
 * M = m or m+1 and N = n or n+1, the extra row or column being the
 * fictitious supplier or consumer, whose cells cost 0. */
typedef struct lb_tp_prob {
  size_t m, n, M, N;
  const double *c;
  size_t bland_after; /* degenerate pivots in a row before Bland's rule */
} lb_tp_prob;

static inline double lb_tp_cost(const lb_tp_prob *p, size_t i, size_t j)
{
  return i < p->m && j < p->n ? p->c[i * p->n + j] : 0.0;
}

/* Optimise from the basic feasible solution of M+N-1 cells (br[k],
 * bc[k]) with flows bx[k] (zero for degenerate cells), which must form
 * a spanning tree.  Writes the real part of the optimal plan to x
 * (m x n) and counts pivots in st (may be NULL). */
int lb_tp_simplex(const lb_tp_prob *p, const size_t *br, const size_t *bc, const long *bx, long *x, lb_tp_stats *st);

/* lb_tp_solve with Bland's rule after `bland_after` degenerate pivots
 * in a row (lb_tp_solve: M+N+1; 0: Bland's rule throughout, which the
 * tests use to check that rule on its own). */
int lb_tp_solve_bland(size_t m, size_t n, const double *c, const long *supply, const long *demand, lb_tp_init init,
                      size_t bland_after, long *x, double *cost, lb_tp_stats *st);

#endif
