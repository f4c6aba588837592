/* lb_arrange.h: where to put processors of different speeds in a
 * fixed graph so that heterogeneous diffusion converges fastest
 * (seed 002, sections 2-4).
 *
 * An ARRANGEMENT is arr[0..P-1]: node i gets speed speed[arr[i]].  Its
 * convergence ratio is p = lambda_P / lambda_2 of S^-1 A A^T
 * (lb_hetero_extremes); diffusion contracts by (p-1)/(p+1) per step,
 * so smaller is better.
 *
 * The searches use an evaluator that allocates nothing per call:
 * S^-1/2 L S^-1/2 is reduced to tridiagonal form and only lambda_2 and
 * lambda_P are found, to relative accuracy LB_ARRANGE_RTOL (or what
 * rounding allows, ~eps p).  Up to 64 nodes four arrangements are
 * evaluated side by side, by Laguerre's method (lb_arrange_lanes.c);
 * above, one at a time by Sturm bisection and regula falsi
 * (lb_symtri_kth).  Ties: two arrangements whose p agree to within
 * LB_ARRANGE_TIE (relative) count as equal; graph automorphisms give
 * such exact ties. */
#ifndef LB_ARRANGE_H
#define LB_ARRANGE_H

#include <stddef.h>
#include "lb_topo.h"

struct lb_rng;

#define LB_ARRANGE_RTOL           1e-13
#define LB_ARRANGE_TIE            1e-9
#define LB_ARRANGE_EXHAUSTIVE_MAX 10

typedef struct lb_arrange_ws lb_arrange_ws;

/* Workspace for one graph (connected, P >= 2).  One per thread. */
int lb_arrange_ws_alloc(const lb_topo *t, lb_arrange_ws **out);
void lb_arrange_ws_free(lb_arrange_ws *ws);

/* p for the speeds node_speed[0..P-1] at the nodes (all > 0 and finite;
 * not re-checked here, for speed: check once with
 * lb_hetero_check_speeds). */
double lb_arrange_ratio(lb_arrange_ws *ws, const double *node_speed);

/* p of an arrangement: node i gets speed[arr[i]]. */
double lb_arrange_ratio_of(lb_arrange_ws *ws, const double *speed, const size_t *arr);

/* Check that arr is a permutation of 0..P-1. */
int lb_arrange_check(const size_t *arr, size_t n);

typedef struct lb_arrange_stats {
  double p_min, p_max; /* over every arrangement tried */
  double p_ref;        /* the reference for the counts (e.g. greedy p1) */
  size_t n_below, n_equal, n_above, n_total;
} lb_arrange_stats;

/* Every one of the P! arrangements (P <= LB_ARRANGE_EXHAUSTIVE_MAX,
 * LB_ERANGE above).  arg_min and arg_max (P each, may be NULL) receive
 * an arrangement of least and of greatest p; among ties the
 * lexicographically first, so the answer does not depend on nthreads
 * (0: one per online processor). */
int lb_arrange_exhaustive(const lb_topo *t, const double *speed, double p_ref, unsigned nthreads, size_t *arg_min,
                          size_t *arg_max, lb_arrange_stats *st);

/* The greedy method of section 3.  Speeds are ranked in descending
 * order; each in turn goes to the free node that gives the least p,
 * every node not yet given a speed counting as speed 1 (the paper
 * first divides by the slowest speed, so 1 is the slowest).  Ties go to
 * the lowest node.  P(P+1)/2 evaluations (*evals, may be NULL). */
int lb_arrange_greedy(const lb_topo *t, const double *speed, size_t *arr, double *p, size_t *evals);

/* One random arrangement by the paper's scheme: draw a random integer
 * m, take item mod(m, P-k) of the k not yet placed (in their order,
 * those after it moving up one), put it at node k.  order[] is the
 * starting order of the speed indices (the paper sorts by speed,
 * descending). */
void lb_arrange_random(struct lb_rng *r, const size_t *order, size_t n, size_t *arr);

/* `count` random arrangements (lb_arrange_random from the speeds in
 * descending order).  If p_all is not NULL it receives every p, in
 * draw order; hist (nbins, may be NULL) counts p in (k, k+1] at index k
 * for k < nbins-1, and everything above nbins-1 in the last bin.  The
 * draws come from r alone, so results do not depend on nthreads. */
int lb_arrange_monte_carlo(const lb_topo *t, const double *speed, size_t count, struct lb_rng *r, double p_ref,
                           unsigned nthreads, size_t *arg_min, size_t *arg_max, double *p_all, size_t *hist,
                           size_t nbins, lb_arrange_stats *st);

/* P_r = (p1 - p_min) / (p_max - p_min) and
 * pct = N< / (N< + N> + 1), both as fractions (the paper's definitions).
 * P_r is exactly 0 when p1 ties with p_min (LB_ARRANGE_TIE). */
double lb_arrange_pr(const lb_arrange_stats *st, double p1);
double lb_arrange_pct(const lb_arrange_stats *st);

#endif
