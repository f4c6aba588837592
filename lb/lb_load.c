/* lb_load.c: heavy / normal / light classification. */
#include <math.h>
#include "lb_load.h"

double lb_load_threshold(int capacity, double pct)
{
  if (capacity <= 0 || !(pct > 0)) return 0;
  return (double)capacity * pct / 100.0;
}

double lb_load_threshold_ceil(int capacity, double pct)
{
  /* a tolerance so that 30 x 10 % stays 3 */
  return ceil(lb_load_threshold(capacity, pct) - 1e-9);
}

lb_state lb_load_state(long q, int capacity, double threshold)
{
  if ((double)q > capacity + threshold) return LB_HEAVY;
  if ((double)q < capacity - threshold) return LB_LIGHT;
  return LB_NORMAL;
}

long lb_load_epn(long q, int capacity, double threshold)
{
  return lb_load_state(q, capacity, threshold) == LB_HEAVY ? (long)ceil((double)q - capacity - threshold - 1e-9) : 0;
}

long lb_load_ipn(long q, int capacity, double threshold)
{
  return lb_load_state(q, capacity, threshold) == LB_LIGHT ? (long)floor(capacity + threshold - (double)q + 1e-9) : 0;
}

const char *lb_load_state_name(lb_state s) { return s == LB_HEAVY ? "heavy" : s == LB_LIGHT ? "light" : "normal"; }
