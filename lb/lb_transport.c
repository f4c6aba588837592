/* lb_transport.c: the balancer of seed 003 Fig. 1 on top of lb_tp_solve. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "lb_errno.h"
#include "lb_transport.h"

int lb_transport_pass(const lb_paths *paths, long *load, long target, lb_tp_init init, long *delta)
{
  size_t P = paths->n, no = 0, ni = 0;
  for (size_t i = 0; i < P; i++) {
    if (load[i] < 0) return lb_error(LB_EINVAL, "load %ld < 0 at processor %zu", load[i], i);
    no += load[i] > target;
    ni += load[i] < target;
  }
  if (no == 0 || ni == 0) return LB_SUCCESS;
  size_t *O = malloc(no * sizeof *O), *I = malloc(ni * sizeof *I);
  long *sup = malloc(no * sizeof *sup), *dem = malloc(ni * sizeof *dem);
  double *T = calloc(no * ni, sizeof *T);
  long *TS = malloc(no * ni * sizeof *TS);
  int rc = LB_SUCCESS;
  if (!O || !I || !sup || !dem || !T || !TS) {
    rc = lb_error(LB_ENOMEM, "transport pass for %zu processors", P);
    goto done;
  }
  no = ni = 0;
  for (size_t i = 0; i < P; i++) {
    if (load[i] > target) {
      O[no] = i;
      sup[no++] = load[i] - target;
    }
    if (load[i] < target) {
      I[ni] = i;
      dem[ni++] = target - load[i];
    }
  }
  for (size_t k = 0; k < no; k++)
    for (size_t m = 0; m < ni; m++) {
      double d = lb_paths_dist(paths, O[k], I[m]);
      if (!isfinite(d)) {
        rc = lb_error(LB_ETOPO, "no path from processor %zu to %zu", O[k], I[m]);
        goto done;
      }
      T[k * ni + m] = d;
    }
  if ((rc = lb_tp_solve(no, ni, T, sup, dem, init, TS, NULL, NULL)) != LB_SUCCESS) {
    rc = lb_error_wrap(rc, "transport pass with target %ld", target);
    goto done;
  }
  /* Fig. 1 steps 12-20: add TS[k,m] to every edge of the route. */
  for (size_t k = 0; k < no; k++)
    for (size_t m = 0; m < ni; m++) {
      long q = TS[k * ni + m];
      if (q == 0) continue;
      for (size_t c = O[k]; c != I[m];) {
        size_t nx = lb_paths_next(paths, c, I[m]);
        delta[c * P + nx] += q;
        c = nx;
      }
      load[O[k]] -= q;
      load[I[m]] += q;
    }
done:
  free(O);
  free(I);
  free(sup);
  free(dem);
  free(T);
  free(TS);
  return rc;
}

int lb_transport_plan_paths(const lb_paths *paths, const long *load, lb_transport_variant v, lb_tp_init init,
                            long *delta)
{
  size_t P = paths->n;
  if (v != LB_TRANSPORT_T && v != LB_TRANSPORT_TB) return lb_error(LB_EINVAL, "unknown transport variant %d", (int)v);
  if (P == 0) return lb_error(LB_EINVAL, "no processors");
  memset(delta, 0, P * P * sizeof *delta);
  long sum = 0;
  for (size_t i = 0; i < P; i++) {
    if (load[i] < 0) return lb_error(LB_EINVAL, "load %ld < 0 at processor %zu", load[i], i);
    sum += load[i];
  }
  long *cur = malloc(P * sizeof *cur);
  if (!cur) return lb_error(LB_ENOMEM, "loads of %zu processors", P);
  memcpy(cur, load, P * sizeof *cur);
  long lo = sum / (long)P, hi = lo + (sum % (long)P != 0);
  int rc = lb_transport_pass(paths, cur, hi, init, delta);
  if (rc == LB_SUCCESS && v == LB_TRANSPORT_TB && lo != hi) rc = lb_transport_pass(paths, cur, lo, init, delta);
  free(cur);
  return rc;
}

int lb_transport_plan(const lb_topo *t, const long *load, lb_transport_variant v, long *delta)
{
  lb_paths *p = NULL;
  int rc = lb_paths_alloc(t->n, &p);
  if (rc == LB_SUCCESS) rc = lb_paths_floyd(t, NULL, p);
  if (rc == LB_SUCCESS) rc = lb_transport_plan_paths(p, load, v, LB_TP_NWC, delta);
  lb_paths_free(p);
  return rc;
}

void lb_transport_apply(size_t p, const long *load, const long *delta, long *after)
{
  for (size_t i = 0; i < p; i++) after[i] = load[i];
  for (size_t i = 0; i < p; i++)
    for (size_t j = 0; j < p; j++) {
      after[i] -= delta[i * p + j];
      after[j] += delta[i * p + j];
    }
}
