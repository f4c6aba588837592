/* lb_share.h: divisible-load sharing on heterogeneous processors with
 * availability windows (seed 004, OPT_LOAD_SHARE).
 *
 * Processor i works at speed s_i during its windows T_i = U_k [a_ik, b_ik]
 * (b may be INFINITY).  x(t) = sum_i s_i |T_i ∩ [t0, t]| is the work the
 * whole system can do by time t: continuous, piecewise linear and
 * non-decreasing, with breakpoints at the window ends.  On [c_m, c_m+1]
 *
 *     x(t) = x_m + r_m (t - c_m),
 *     r_m  = r_(m-1) + sum{ s_i : a_ik = c_m } - sum{ s_i : b_ik = c_m },
 *     x_(m+1) = x_m + r_m (c_(m+1) - c_m),   x_1 = 0,
 *
 * where r_0 = 0 and c_1 = t0 (windows open at t0 count at c_1).  The
 * paper prints "r_m = r_m +- s_i" with one s_i: the rate must come from
 * the previous segment's rate, and every window opening or closing at
 * c_m must count (coincident ends).  Its eq. (2) also lacks brackets:
 * lambda = r_m* (t* - c_m*) + x_m*.  t* = min{ t : x(t) = lambda },
 * R_i = T_i ∩ [t0, t*], lambda_i = s_i |R_i|, S* = { i : lambda_i > 0 }. */
#ifndef LB_SHARE_H
#define LB_SHARE_H

#include <stddef.h>

typedef struct lb_share_window {
  double a, b;
} lb_share_window;

typedef struct lb_share_proc {
  double speed; /* > 0 */
  size_t nwin;
  const lb_share_window *win; /* sorted, a < b, not overlapping, a >= t0 */
} lb_share_proc;

/* The curve x(t): breakpoints c[0..nc-1] (c[0] = t0), x[m] = x(c[m]),
 * r[m] the slope on [c[m], c[m+1]) (the last one holds to infinity). */
typedef struct lb_share_curve {
  size_t nc;
  double *c, *x, *r;
} lb_share_curve;

/* LB_EINVAL naming the processor and window for: a speed that is not a
 * positive number, a window with a >= b (reversed or empty), a < t0,
 * windows out of order or overlapping (touching is allowed). */
int lb_share_check(size_t n, const lb_share_proc *p, double t0);

int lb_share_curve_build(size_t n, const lb_share_proc *p, double t0, lb_share_curve **out);
void lb_share_curve_free(lb_share_curve *cv);
double lb_share_curve_eval(const lb_share_curve *cv, double t);

/* OPT_LOAD_SHARE.  share[i] = lambda_i, busy[i] = |R_i| (either may be
 * NULL).  LB_EINVAL if lambda <= 0; LB_ERANGE if the windows can never
 * hold lambda. */
int lb_share_opt(size_t n, const lb_share_proc *p, double t0, double lambda, double *tstar, double *share,
                 double *busy);

/* When processor i alone, starting at t0, finishes `amount` of work
 * inside its windows (INFINITY if it never does). */
double lb_share_finish(const lb_share_proc *p, double t0, double amount);

/* Bidding baseline: the whole job goes to the fastest processor whose
 * window is open at t0 (lowest index on ties). */
int lb_share_bidding(size_t n, const lb_share_proc *p, double t0, double lambda, double *t, size_t *who);

/* Balance baseline: shares proportional to speed, ignoring the windows;
 * each processor then works its share inside its real windows, so the
 * completion time is the latest finish (INFINITY if one never ends). */
int lb_share_balance(size_t n, const lb_share_proc *p, double t0, double lambda, double *t, double *share);

/* Whole units for shares: count[i] >= 0 with sum = total and
 * |count[i] - total share[i] / sum(share)| < 1, by largest remainder
 * (ties to the lower index).  For jobs cut into processes: the
 * processes a processor gets for its lambda_i.  LB_EINVAL if a share is
 * negative or not a number, or all are zero. */
int lb_share_apportion(size_t n, const double *share, unsigned long total, unsigned long *count);

#endif
