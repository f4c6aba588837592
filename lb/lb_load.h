/* lb_load.h: the load index of seed 000, eq. (1), as corrected.
 *
 *   heavy   Q > C + A              EPN = Q - (C + A)   processes to send
 *   normal  C - A <= Q <= C + A    (the paper prints "C-A >= Q <= C+A")
 *   light   Q < C - A              IPN = (C + A) - Q   processes to accept
 *
 * Q is the run-queue length, C the capacity (processes per unit time)
 * and A the threshold.  EPN and IPN both aim at C + A, the top of the
 * normal band, as printed.  A defaults to 10 % of C, rounded UP (integer
 * ceil(C * pct / 100)): rounding down would give A = 0 for C < 10, the
 * normal band would shrink to the single value Q = C, and a node one
 * process away from C would flip between heavy and light. */
#ifndef LB_LOAD_H
#define LB_LOAD_H

typedef enum { LB_LIGHT = -1, LB_NORMAL = 0, LB_HEAVY = 1 } lb_state;

#define LB_LOAD_DEFAULT_PCT 10

/* A = ceil(C * pct / 100); C >= 0, 0 <= pct <= 100. */
int lb_load_threshold(int capacity, int pct);

lb_state lb_load_state(int q, int capacity, int threshold);
/* 0 unless heavy / light respectively. */
int lb_load_epn(int q, int capacity, int threshold);
int lb_load_ipn(int q, int capacity, int threshold);

const char *lb_load_state_name(lb_state s);

#endif
