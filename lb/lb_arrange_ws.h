/* lb_arrange_ws.h: the evaluator's workspace, shared by lb_arrange*.c
 * only (callers see an opaque type). */
#ifndef LB_ARRANGE_WS_H
#define LB_ARRANGE_WS_H

#include <stddef.h>

struct lb_arrange_ws {
  size_t n;
  double *L; /* dense Laplacian, n x n (owns the one buffer) */
  double *B; /* S^-1/2 L S^-1/2, destroyed by the reduction */
  double *d, *e, *e2, *r, *ns, *scratch;
  /* The lane evaluator (n <= LB_ARRANGE_LANES_MAXN), NULL above:
   * lane_a holds n x n vectors, lane_v 8n vectors (one allocation,
   * vector-aligned), lane_s LANES x n speeds, lane_fd 2n doubles. */
  double *lane_a, *lane_v, *lane_s, *lane_fd;
};

/* The lane evaluator: LB_ARRANGE_LANES arrangements side by side in
 * vector registers, for small graphs, where it is several times faster
 * per arrangement than one at a time (docs/PERFORMANCE.md). */
#define LB_ARRANGE_LANES      4
#define LB_ARRANGE_LANES_MAXN 64

/* p[l] for the speeds s[l*n + i] at node i, l < LB_ARRANGE_LANES.
 * Each lane's result depends on that lane's speeds only, bit for bit.
 * Needs ws->lane_a (ws->n <= LB_ARRANGE_LANES_MAXN). */
void lb_arrange_ratio_lanes(lb_arrange_ws *ws, const double *s, double *p);

/* Indices of speed[] in descending order of speed (ties: lower index). */
int lb_arrange_order_desc(const double *speed, size_t n, size_t *order);

#endif
