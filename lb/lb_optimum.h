/* lb_optimum.h: the fewest process-hops that balance a placement.
 *
 * A reference for what any policy moves.  Given how many processes each
 * node holds and the nodes' speeds, a placement is balanced when every
 * node holds its speed share of the processes, rounded down or up
 * (floor or ceil of total * speed_i / sum of speeds).  Among all
 * balanced placements, and all ways of moving processes along shortest
 * paths to reach one, lb_optimum_hops finds the smallest sum over
 * processes of the hops each travels: a transportation problem
 * (lb_tp_solve) from surplus to deficit nodes with hop-distance costs,
 * the rounding freedom expressed as optional supply and demand.
 *
 * It counts processes, not work: with processes of unequal size, or
 * arrivals over time, a policy may balance work with fewer hops, so a
 * ratio below 1 is possible and is not an error. */
#ifndef LB_OPTIMUM_H
#define LB_OPTIMUM_H

#include <stddef.h>
#include "lb_topo.h"

typedef struct lb_optimum {
  unsigned long hops;  /* fewest process-hops */
  unsigned long moved; /* processes that move in that plan */
} lb_optimum;

/* Transport problems above this many cells are not solved (LB_ERANGE):
 * a caller reports "not computed" rather than waiting. */
#define LB_OPTIMUM_MAX_CELLS ((size_t)1 << 20)

/* load[i]: processes on node i (n = t->n); speed: NULL for equal speeds,
 * else n positive speeds.  LB_ETOPO if the graph is not connected,
 * LB_ERANGE if the problem is above LB_OPTIMUM_MAX_CELLS. */
int lb_optimum_hops(const lb_topo *t, const unsigned long *load, const double *speed, lb_optimum *opt);

/* hops / optimal: 1 when both are 0, INFINITY when only the optimum is. */
double lb_optimum_ratio(unsigned long hops, unsigned long optimal);

#endif
