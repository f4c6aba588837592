/* lb_optimum.c: see lb_optimum.h. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include "lb_errno.h"
#include "lb_optimum.h"
#include "lb_transport.h"

/* One row or column: part of a node's surplus or deficit.  A mandatory
 * part must move (the node is outside [lo, hi]); an optional one is the
 * rounding freedom (hi - lo = 1) and may stay. */
typedef struct part {
  size_t node;
  long amount;
  int optional;
} part;

/* lo[i] and hi[i]: floor and ceil of node i's share of `total`. */
static int shares(size_t n, const double *speed, unsigned long total, long *lo, long *hi)
{
  if (!speed) {
    for (size_t i = 0; i < n; i++) {
      lo[i] = (long)(total / n);
      hi[i] = lo[i] + (total % n != 0);
    }
    return LB_SUCCESS;
  }
  long double sum = 0;
  for (size_t i = 0; i < n; i++) {
    if (!(speed[i] > 0) || !isfinite(speed[i]))
      return lb_error(LB_EINVAL, "node %zu: speed %g is not a positive number", i, speed[i]);
    sum += speed[i];
  }
  for (size_t i = 0; i < n; i++) {
    long double q = (long double)total * speed[i] / sum, f = floorl(q + 1e-9L);
    lo[i] = (long)f;
    hi[i] = q - f > 1e-9L ? lo[i] + 1 : lo[i];
  }
  return LB_SUCCESS;
}

static void add(part *v, size_t *k, size_t node, long amount, int optional, long *sum)
{
  if (amount <= 0) return;
  v[(*k)++] = (part){node, amount, optional};
  *sum += amount;
}

int lb_optimum_hops(const lb_topo *t, const unsigned long *load, const double *speed, lb_optimum *opt)
{
  if (!t || !load || !opt) return lb_error(LB_EINVAL, "optimum: null argument");
  if (!lb_topo_is_connected(t)) return lb_error(LB_ETOPO, "graph '%s' is not connected", t->name);
  size_t n = t->n;
  unsigned long total = 0;
  for (size_t i = 0; i < n; i++) {
    if (load[i] > (unsigned long)(LONG_MAX / 4) - total) return lb_error(LB_ERANGE, "optimum: too many processes");
    total += load[i];
  }
  *opt = (lb_optimum){0, 0};
  long *lo = malloc(n * sizeof *lo), *hi = malloc(n * sizeof *hi);
  part *r = malloc(2 * n * sizeof *r), *c = malloc(2 * n * sizeof *c);
  double *cost = NULL;
  long *sup = NULL, *dem = NULL, *x = NULL;
  int rc = LB_SUCCESS;
  if (!lo || !hi || !r || !c) {
    rc = lb_error(LB_ENOMEM, "optimum for %zu nodes", n);
    goto done;
  }
  if ((rc = shares(n, speed, total, lo, hi))) goto done;
  size_t nr = 0, nc = 0;
  long ms = 0, os = 0, md = 0, od = 0;
  for (size_t i = 0; i < n; i++) {
    long l = (long)load[i];
    if (l >= hi[i]) {
      add(r, &nr, i, l - hi[i], 0, &ms);
      if (l > lo[i]) add(r, &nr, i, hi[i] - lo[i], 1, &os);
    } else {
      add(c, &nc, i, lo[i] - l, 0, &md);
      add(c, &nc, i, hi[i] - (l > lo[i] ? l : lo[i]), 1, &od);
    }
  }
  if (!ms && !md) goto done; /* already balanced: nothing must move */
  size_t m = nr + 1, k = nc + 1;
  if (k > LB_OPTIMUM_MAX_CELLS / m) {
    rc = lb_error(LB_ERANGE, "optimum: %zu x %zu transport problem is above %zu cells", m, k, LB_OPTIMUM_MAX_CELLS);
    goto done;
  }
  cost = malloc(m * k * sizeof *cost);
  x = malloc(m * k * sizeof *x);
  sup = malloc(m * sizeof *sup);
  dem = malloc(k * sizeof *dem);
  if (!cost || !x || !sup || !dem) {
    rc = lb_error(LB_ENOMEM, "optimum: %zu x %zu transport problem", m, k);
    goto done;
  }
  size_t dmax = 0;
  for (size_t a = 0; a < nr; a++)
    for (size_t b = 0; b < nc; b++) {
      size_t d;
      if ((rc = lb_topo_distance_e(t, r[a].node, c[b].node, &d))) goto done;
      if (d > dmax) dmax = d;
      cost[a * k + b] = (double)d;
    }
  /* A unit of mandatory supply or demand left to the dummy costs more
   * than any chain of real cells that could replace it (at most m + k
   * cells of at most dmax each), so the optimum moves all of it. */
  double big = (double)(m + k + 1) * (double)(dmax + 1);
  for (size_t a = 0; a < nr; a++) {
    cost[a * k + nc] = r[a].optional ? 0 : big;
    sup[a] = r[a].amount;
  }
  for (size_t b = 0; b < nc; b++) {
    cost[nr * k + b] = c[b].optional ? 0 : big;
    dem[b] = c[b].amount;
  }
  cost[nr * k + nc] = 0;
  /* Balanced, so the solver adds no zero-cost dummy of its own. */
  sup[nr] = od + (md > ms ? md - ms : 0);
  dem[nc] = os + (ms > md ? ms - md : 0);
  if ((rc = lb_tp_solve(m, k, cost, sup, dem, LB_TP_VOGEL, x, NULL, NULL))) goto done;
  for (size_t a = 0; a < nr; a++) {
    if (!r[a].optional && x[a * k + nc]) {
      rc = lb_error(LB_ENOCONV, "optimum: a surplus was left in place");
      goto done;
    }
    for (size_t b = 0; b < nc; b++) {
      opt->moved += (unsigned long)x[a * k + b];
      opt->hops += (unsigned long)x[a * k + b] * (unsigned long)cost[a * k + b];
    }
  }
  for (size_t b = 0; b < nc; b++)
    if (!c[b].optional && x[nr * k + b]) {
      rc = lb_error(LB_ENOCONV, "optimum: a deficit was left unfilled");
      goto done;
    }
done:
  if (rc) *opt = (lb_optimum){0, 0};
  free(lo);
  free(hi);
  free(r);
  free(c);
  free(cost);
  free(x);
  free(sup);
  free(dem);
  return rc;
}

double lb_optimum_ratio(unsigned long hops, unsigned long optimal)
{
  if (optimal) return (double)hops / (double)optimal;
  return hops ? INFINITY : 1;
}
