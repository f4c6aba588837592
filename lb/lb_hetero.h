/* lb_hetero.h: diffusion on heterogeneous processors (seed 002).
 *
 * Node i has speed s_i > 0, work w_i and time l_i = w_i / s_i.  One
 * step is l(t+1) = M l(t) with M = I - S^-1 A W A^T, W = tau I; the
 * edge flows of the step are y(t+1) = W A^T l(t).
 *
 * SIGN CONVENTION.  lb_topo_incidence gives column k of edge (i < j)
 * +1 at j and -1 at i: the paper's orientation from the larger index
 * to the smaller.  So y_k = tau (l_j - l_i) > 0 means work moved along
 * the edge, from j to i, and work changes by -A y.  Summing the steps,
 * x = sum_t y(t) satisfies
 *
 *   S^-1 A x = l(0) - l(inf) = -b,   b = lbar - l(0)  (paper eq. 2),
 *
 * i.e. the paper's eq. (3), S^-1 A x = b, holds for the flows counted
 * the other way (delta = -x, work arriving at the edge's start node).
 * The paper's eqs. (3) and (7) use opposite signs; we keep (7) and
 * check S^-1 A x = -b (lb_hetero_flow_residual).
 *
 * The optimal tau is 2 / (lambda_2 + lambda_P) of S^-1 A A^T (the
 * paper prints 2 / (eta_2 + eta_p), a slip: the eta are eigenvalues of
 * M).  The factor per step is then (p - 1) / (p + 1), p =
 * lambda_P / lambda_2. */
#ifndef LB_HETERO_H
#define LB_HETERO_H

#include <stddef.h>
#include "lb_topo.h"

/* Check n speeds: all finite and > 0 (message names the node). */
int lb_hetero_check_speeds(const double *speed, size_t n);

/* Eigenvalues lambda_2 and lambda_P of S^-1 A A^T (= S^-1 L) through
 * the symmetric S^-1/2 L S^-1/2, by gsl_eigen_symm.  The graph must be
 * connected with P >= 2. */
int lb_hetero_extremes(const lb_topo *t, const double *speed, double *lambda2, double *lambdaP);

/* The optimal tau and the factor (p-1)/(p+1) it gives (rate may be NULL). */
int lb_hetero_tau_opt(const lb_topo *t, const double *speed, double *tau, double *rate);

/* The largest tau that keeps the paper's constraint (4),
 * 1 - tau deg_i / s_i >= 0 at every node: min_i s_i / deg_i.  With it
 * M is non-negative, so no time (or load) ever goes negative; tau_opt
 * may exceed it. */
int lb_hetero_tau_safe(const lb_topo *t, const double *speed, double *tau);

/* The contraction per step for a given tau:
 * max(|1 - tau lambda_2|, |1 - tau lambda_P|). */
int lb_hetero_rate(const lb_topo *t, const double *speed, double tau, double *rate);

/* One step: l (n) in place, y (m) receives this step's edge flows and,
 * if x is not NULL, they are added to x (m). */
int lb_hetero_step(const lb_topo *t, const double *speed, double tau, double *l, double *y, double *x);

/* Iterate until max_i |l_i - lbar| <= tol (at most max_iter steps),
 * accumulating the flows into x (m, zeroed here; may be NULL). */
int lb_hetero_run(const lb_topo *t, const double *speed, double tau, double *l, double *x, double tol, size_t max_iter,
                  size_t *iters);

/* lbar = sum s_i l_i / sum s_i (paper eq. 1). */
double lb_hetero_lbar(const double *speed, const double *l, size_t n);

/* max_i |(S^-1 A x)_i + b_i| with b = lbar - l0: how well the
 * accumulated flows x explain the move from l0 to balance. */
int lb_hetero_flow_residual(const lb_topo *t, const double *speed, const double *l0, const double *x, double *resid);

#endif
