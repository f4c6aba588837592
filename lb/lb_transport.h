/* lb_transport.h: transport-problem load balancing (seed 003).
 *
 * Two layers.  lb_tp_solve is a general transportation-problem solver
 * (the potentials / MODI method, with north-west corner or Vogel start,
 * epsilon cells for degeneracy and a fictitious supplier or consumer
 * when supply != demand).  lb_transport_plan is the balancer of seed
 * 003 Fig. 1 built on it: shortest paths, one transport problem from
 * overloaded to underloaded processors, and the P x P matrix Delta of
 * transfers accumulated hop by hop along the routes.
 *
 * Delta[i*P+j] is the number of tasks that cross edge i->j; it is zero
 * unless i and j are adjacent.  A task routed i->k->j counts once on
 * i->k and once on k->j, so node k forwards what it receives.  Both
 * Delta[i*P+j] and Delta[j*P+i] can be non-zero after the two passes of
 * TB; lb_transport_apply gives the resulting loads either way. */
#ifndef LB_TRANSPORT_H
#define LB_TRANSPORT_H

#include <stddef.h>
#include "lb_topo.h"
#include "lb_paths.h"

typedef enum {
  LB_TP_NWC = 0,  /* north-west corner initial solution */
  LB_TP_VOGEL = 1 /* Vogel's approximation initial solution */
} lb_tp_init;

typedef struct lb_tp_stats {
  size_t pivots;     /* MODI basis changes */
  size_t degenerate; /* of which with theta = 0 */
  double init_cost;  /* cost of the initial basic solution */
} lb_tp_stats;

/* Minimise sum c[i*n+j] x[i*n+j] subject to row sums <= supply[i],
 * column sums <= demand[j], with as much shipped as possible
 * (min(sum supply, sum demand)): the unbalanced part goes to a
 * fictitious consumer or comes from a fictitious supplier at zero cost.
 * x (m*n) receives the optimal plan; *cost (if not NULL) its cost.
 * Costs must be finite; supplies and demands >= 0.  `st` may be NULL. */
int lb_tp_solve(size_t m, size_t n, const double *c, const long *supply, const long *demand, lb_tp_init init, long *x,
                double *cost, lb_tp_stats *st);

typedef enum {
  LB_TRANSPORT_T = 0, /* one pass with target ceil(avg) */
  LB_TRANSPORT_TB = 1 /* ceil(avg) pass, then a floor(avg) pass */
} lb_transport_variant;

/* One pass of Fig. 1 with a given integer target: processors above it
 * send load - target, processors below it may receive target - load.
 * Adds the transfers to delta (P*P, not cleared) and updates load[]. */
int lb_transport_pass(const lb_paths *paths, long *load, long target, lb_tp_init init, long *delta);

/* The balancer: delta (P*P) is cleared and filled.  Routes are the
 * shortest paths of `paths` (P = paths->n); the graph must be
 * connected.  Loads must be >= 0. */
int lb_transport_plan_paths(const lb_paths *paths, const long *load, lb_transport_variant v, lb_tp_init init,
                            long *delta);

/* Convenience for a caller that holds only the topology: unit edge
 * lengths, Floyd shortest paths, north-west corner start. */
int lb_transport_plan(const lb_topo *t, const long *load, lb_transport_variant v, long *delta);

/* after[i] = load[i] - sum_j delta[i][j] + sum_j delta[j][i]. */
void lb_transport_apply(size_t p, const long *load, const long *delta, long *after);

#endif
