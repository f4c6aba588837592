/* lb_diffuse.h: first-order (Cybenko) and second-order (SOR, Ghosh et
 * al.) diffusion on any topology, in the edge-flow form
 *
 *   y_ij(1)   = alpha_ij (w_i(0) - w_j(0))
 *   y_ij(t+1) = beta alpha_ij (w_i(t) - w_j(t)) + (beta - 1) y_ij(t)
 *   w_i(t+1)  = w_i(t) - sum_j y_ij(t+1)
 *
 * which equals w(t+1) = beta M w(t) + (1 - beta) w(t-1) after the first
 * step (beta = 1 is first order).  The flow form is what a distributed
 * node computes from its neighbours' loads, and every transfer is
 * antisymmetric, so total load is conserved exactly.
 *
 * Integer loads (lb_diffuse_int_*): flows are rounded to whole units,
 * and the NON-NEGATIVITY GUARD scales down a node's outgoing flows
 * (floor of flow * load / outflow) whenever their sum would exceed its
 * current load; the memory term then remembers the flow actually sent,
 * so the recurrence keeps describing the real transfers. */
#ifndef LB_DIFFUSE_H
#define LB_DIFFUSE_H

#include <stddef.h>
#include "lb_topo.h"

/* One step on real loads: w (n) in place, y (m) the edge flows of the
 * previous step, updated (y_k > 0 means load moved from edge[k][0] to
 * edge[k][1]).  Set y to zero and beta = 1 for the first step. */
int lb_diffuse_step(const lb_topo *t, const double *edge_alpha, double beta, double *w, double *y);

/* Iterate from w until max_i |w_i - mean| <= tol, at most max_iter
 * steps; *iters is the number of steps taken.  Returns LB_ENOCONV (with
 * *iters = max_iter) if tol was not reached. */
int lb_diffuse_run(const lb_topo *t, const double *edge_alpha, double beta, double *w, double tol, size_t max_iter,
                   size_t *iters);

/* Integer loads.  y (m) holds the previous integer flows (zero at the
 * start); *guarded (may be NULL) is increased by the number of node
 * steps in which the non-negativity guard cut the outflow. */
int lb_diffuse_int_step(const lb_topo *t, const double *edge_alpha, double beta, long *w, long *y, size_t *guarded);

/* Iterate integer loads until max_i |w_i - mean| <= tol (tol >= 0.5 is
 * sensible: integer diffusion stalls once neighbours differ by less than
 * about 1/alpha).  Loads must start >= 0 and stay >= 0. */
int lb_diffuse_int_run(const lb_topo *t, const double *edge_alpha, double beta, long *w, double tol, size_t max_iter,
                       size_t *iters, size_t *guarded);

/* max_i |w_i - mean(w)| */
double lb_diffuse_imbalance(const double *w, size_t n);

#endif
