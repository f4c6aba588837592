/* lb_metrics.h: balance metrics of seed 003, each by its formula.
 *
 *   M1 = max_k l_k - min_k l_k
 *   M2 = (1 / l_max) * sqrt( sum_i (l_i - l_avg)^2 / (P - 1) )
 *   M3 = max_i l_i
 *   Q  = number of tasks whose processor changed
 *      = (1/2) sum_k ( |C_k \ C'_k| + |C'_k \ C_k| )
 *
 * The printed Q formula is garbled ("(sum |C_k| - |C_k \ C'_k|) +
 * |C'_k \ C_k|) / 2"); the form above is the migration count the text
 * describes.  Seed 003's Table 1 headings do not match these
 * definitions (docs/SEEDS.md); our outputs are labelled by formula. */
#ifndef LB_METRICS_H
#define LB_METRICS_H

#include <stddef.h>

double lb_metric_m1(const double *l, size_t p);
double lb_metric_m2(const double *l, size_t p); /* 0 when p < 2 or l_max = 0 */
double lb_metric_m3(const double *l, size_t p);

/* Migration level between two assignments of `ntasks` tasks to
 * processors (before[t], after[t]). */
size_t lb_metric_q(const size_t *before, const size_t *after, size_t ntasks);

#endif
