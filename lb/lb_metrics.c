/* lb_metrics.c: M1, M2, M3 and the migration level Q. */
#include <math.h>
#include "lb_metrics.h"

double lb_metric_m1(const double *l, size_t p)
{
  if (!p) return 0.0;
  double lo = l[0], hi = l[0];
  for (size_t i = 1; i < p; i++) {
    if (l[i] < lo) lo = l[i];
    if (l[i] > hi) hi = l[i];
  }
  return hi - lo;
}

double lb_metric_m3(const double *l, size_t p)
{
  double hi = p ? l[0] : 0.0;
  for (size_t i = 1; i < p; i++)
    if (l[i] > hi) hi = l[i];
  return hi;
}

double lb_metric_m2(const double *l, size_t p)
{
  if (p < 2) return 0.0;
  double hi = lb_metric_m3(l, p);
  if (hi == 0.0) return 0.0;
  double avg = 0.0, ss = 0.0;
  for (size_t i = 0; i < p; i++) avg += l[i];
  avg /= (double)p;
  for (size_t i = 0; i < p; i++) ss += (l[i] - avg) * (l[i] - avg);
  return sqrt(ss / (double)(p - 1)) / hi;
}

size_t lb_metric_q(const size_t *before, const size_t *after, size_t ntasks)
{
  size_t q = 0;
  for (size_t t = 0; t < ntasks; t++) q += before[t] != after[t];
  return q;
}
