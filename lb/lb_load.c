/* lb_load.c: heavy / normal / light classification. */
#include "lb_load.h"

int lb_load_threshold(int capacity, int pct)
{
  if (capacity <= 0 || pct <= 0) return 0;
  long long a = ((long long)capacity * pct + 99) / 100;
  return (int)a;
}

lb_state lb_load_state(int q, int capacity, int threshold)
{
  if (q > capacity + threshold) return LB_HEAVY;
  if (q < capacity - threshold) return LB_LIGHT;
  return LB_NORMAL;
}

int lb_load_epn(int q, int capacity, int threshold)
{
  return lb_load_state(q, capacity, threshold) == LB_HEAVY ? q - capacity - threshold : 0;
}

int lb_load_ipn(int q, int capacity, int threshold)
{
  return lb_load_state(q, capacity, threshold) == LB_LIGHT ? capacity + threshold - q : 0;
}

const char *lb_load_state_name(lb_state s)
{
  return s == LB_HEAVY ? "heavy" : s == LB_LIGHT ? "light" : "normal";
}
