/* lb_load.h: the load index of seed 000, eq. (1), as corrected.
 *
 *   heavy   Q > C + A              EPN = ceil(Q - (C + A))   processes to send
 *   normal  C - A <= Q <= C + A    (the paper prints "C-A >= Q <= C+A")
 *   light   Q < C - A              IPN = floor((C + A) - Q)  processes to accept
 *
 * Q is the run-queue length, C the capacity (processes per unit time)
 * and A the threshold, "usually 10 % of C": a real number here, so for
 * small C the band is as narrow as the paper says.  EPN and IPN both aim
 * at C + A, the top of the normal band, rounded so that neither
 * overshoots it: a heavy node sends just enough to be at most C + A, a
 * light node takes no more than brings it to C + A; both end normal. */
#ifndef LB_LOAD_H
#define LB_LOAD_H

typedef enum { LB_LIGHT = -1, LB_NORMAL = 0, LB_HEAVY = 1 } lb_state;

#define LB_LOAD_DEFAULT_PCT 10.0

/* A = C x pct / 100 exactly; C >= 0, 0 <= pct <= 100. */
double lb_load_threshold(int capacity, double pct);
/* A rounded up to a whole process: an option (it widens the band to
 * 25-50 % of C for C = 2..4). */
double lb_load_threshold_ceil(int capacity, double pct);

lb_state lb_load_state(long q, int capacity, double threshold);
/* 0 unless heavy / light respectively. */
long lb_load_epn(long q, int capacity, double threshold);
long lb_load_ipn(long q, int capacity, double threshold);

const char *lb_load_state_name(lb_state s);

#endif
