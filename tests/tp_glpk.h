/* tp_glpk.h: the transportation problem by GLPK's simplex, as an
 * independent reference for lb_tp_solve (tests and benchmarks only). */
#ifndef LB_TP_GLPK_H
#define LB_TP_GLPK_H

#include <stddef.h>

/* Optimal cost of the problem lb_tp_solve defines (ship
 * min(sum supply, sum demand)); returns 0 on success, -1 on failure. */
int tp_glpk_cost(size_t m, size_t n, const double *c, const long *supply, const long *demand, double *cost);

/* The same by GLPK's primal (dual = 0) or dual (dual = 1) simplex. */
int tp_glpk_solve(size_t m, size_t n, const double *c, const long *supply, const long *demand, int dual, double *cost);

#endif
