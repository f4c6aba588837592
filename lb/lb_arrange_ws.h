/* lb_arrange_ws.h: the evaluator's workspace, shared by lb_arrange*.c
 * only (callers see an opaque type). */
#ifndef LB_ARRANGE_WS_H
#define LB_ARRANGE_WS_H

#include <stddef.h>

struct lb_arrange_ws {
  size_t n;
  double *L;        /* dense Laplacian, n x n (owns the one buffer) */
  double *B;        /* S^-1/2 L S^-1/2, destroyed by the reduction */
  double *d, *e, *e2, *r, *ns, *scratch;
};

/* Indices of speed[] in descending order of speed (ties: lower index). */
int lb_arrange_order_desc(const double *speed, size_t n, size_t *order);

#endif
