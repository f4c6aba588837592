/* lb_hublake.h: Hu and Blake's optimal diffusion (seed 003's comparator H).
 *
 * With b_i = l_i - l_avg, the flow that balances the loads with the
 * least Euclidean norm is f_ij = lambda_i - lambda_j where L lambda = b
 * (L the graph Laplacian).  L is singular, but b sums to zero and so
 * lies in its range: conjugate gradient from lambda = 0 stays in the
 * range and converges to the minimum-norm solution.
 *
 * Edge flows are indexed like t->edge: flow[k] > 0 moves load from
 * edge[k][0] to edge[k][1], flow[k] < 0 the other way. */
#ifndef LB_HUBLAKE_H
#define LB_HUBLAKE_H

#include <stddef.h>
#include "lb_topo.h"

/* Solve L lambda = load - avg by CG to relative residual `tol` (e.g.
 * 1e-10).  *iters (if not NULL) receives the iteration count.
 * LB_ENOCONV after 10 n iterations (n is the exact-arithmetic bound);
 * the graph must be connected. */
int lb_hublake_solve(const lb_topo *t, const double *load, double tol, double *lambda, size_t *iters);

/* Real edge flows lambda_i - lambda_j (m values). */
void lb_hublake_flow(const lb_topo *t, const double *lambda, double *flow);

/* Integer plan: flows rounded so that the net outflow of every node is
 * exactly load_i - target_i, where target_i is floor or ceil of the
 * average (the sum %% P extra units stay on the most loaded nodes, ties
 * to the lower id), with no directed cycles of flow.  flow has m
 * entries; target (n) may be NULL. */
int lb_hublake_plan(const lb_topo *t, const long *load, long *flow, long *target, size_t *iters);

typedef struct lb_transfer {
  size_t round;    /* 0, 1, ...: transfers of one round run together */
  size_t from, to; /* adjacent processors */
  long amount;
} lb_transfer;

/* Order the integer edge flows into rounds so that no node ever sends
 * load it does not hold: in each round a node sends at most what it
 * held at the start of the round.  *out (malloc'ed, caller frees) gets
 * *nout transfers, *nrounds the number of rounds.  The flow must be
 * acyclic (lb_hublake_plan's is) and leave no load negative. */
int lb_transfer_schedule(const lb_topo *t, const long *load, const long *flow, lb_transfer **out, size_t *nout,
                         size_t *nrounds);

#endif
