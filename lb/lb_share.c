/* lb_share.c: see lb_share.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "lb_errno.h"
#include "lb_share.h"

int lb_share_check(size_t n, const lb_share_proc *p, double t0)
{
  if (n == 0) return lb_error(LB_EINVAL, "no processors");
  if (!isfinite(t0)) return lb_error(LB_EINVAL, "start time t0 = %g is not finite", t0);
  for (size_t i = 0; i < n; i++) {
    if (!(p[i].speed > 0) || !isfinite(p[i].speed))
      return lb_error(LB_EINVAL, "processor %zu: speed %g is not a positive number", i + 1, p[i].speed);
    if (p[i].nwin > 0 && !p[i].win) return lb_error(LB_EINVAL, "processor %zu: no window array", i + 1);
    for (size_t k = 0; k < p[i].nwin; k++) {
      double a = p[i].win[k].a, b = p[i].win[k].b;
      if (isnan(a) || isnan(b) || isinf(a))
        return lb_error(LB_EINVAL, "processor %zu window %zu: bounds [%g, %g] are not valid", i + 1, k + 1, a, b);
      if (!(a < b))
        return lb_error(LB_EINVAL, "processor %zu window %zu: [%g, %g] is reversed or empty", i + 1, k + 1, a, b);
      if (a < t0)
        return lb_error(LB_EINVAL, "processor %zu window %zu: starts at %g, before t0 = %g", i + 1, k + 1, a, t0);
      if (k > 0 && a < p[i].win[k - 1].b)
        return lb_error(LB_EINVAL,
                        "processor %zu windows %zu and %zu overlap or are out of order ([%g, %g] then [%g, %g])", i + 1,
                        k, k + 1, p[i].win[k - 1].a, p[i].win[k - 1].b, a, b);
    }
  }
  return LB_SUCCESS;
}

typedef struct event {
  double t, ds;
} event;

static int ev_cmp(const void *x, const void *y)
{
  const event *a = x, *b = y;
  return (a->t > b->t) - (a->t < b->t);
}

int lb_share_curve_build(size_t n, const lb_share_proc *p, double t0, lb_share_curve **out)
{
  *out = NULL;
  int rc = lb_share_check(n, p, t0);
  if (rc) return rc;
  size_t ne = 0;
  for (size_t i = 0; i < n; i++) ne += 2 * p[i].nwin;
  event *ev = malloc((ne + 1) * sizeof *ev);
  lb_share_curve *cv = calloc(1, sizeof *cv);
  if (cv) {
    cv->c = malloc((ne + 1) * sizeof *cv->c);
    cv->x = malloc((ne + 1) * sizeof *cv->x);
    cv->r = malloc((ne + 1) * sizeof *cv->r);
  }
  if (!ev || !cv || !cv->c || !cv->x || !cv->r) {
    free(ev);
    lb_share_curve_free(cv);
    return lb_error(LB_ENOMEM, "share curve with %zu events", ne);
  }
  ne = 0;
  for (size_t i = 0; i < n; i++)
    for (size_t k = 0; k < p[i].nwin; k++) {
      ev[ne++] = (event){p[i].win[k].a, p[i].speed};
      if (isfinite(p[i].win[k].b)) ev[ne++] = (event){p[i].win[k].b, -p[i].speed};
    }
  qsort(ev, ne, sizeof *ev, ev_cmp);
  /* One breakpoint per distinct event time; all windows opening or
   * closing there change the rate together. */
  size_t m = 0, e = 0;
  cv->c[0] = t0;
  cv->x[0] = 0;
  cv->r[0] = 0;
  while (e < ne) {
    double t = ev[e].t, ds = 0;
    for (; e < ne && ev[e].t == t; e++) ds += ev[e].ds;
    if (t > cv->c[m]) {
      cv->c[m + 1] = t;
      cv->x[m + 1] = cv->x[m] + cv->r[m] * (t - cv->c[m]);
      cv->r[m + 1] = cv->r[m];
      m++;
    }
    cv->r[m] += ds;
    if (fabs(cv->r[m]) < 1e-12 * (1 + fabs(ds))) cv->r[m] = 0; /* rounding of +s -s */
  }
  cv->nc = m + 1;
  free(ev);
  *out = cv;
  return LB_SUCCESS;
}

void lb_share_curve_free(lb_share_curve *cv)
{
  if (!cv) return;
  free(cv->c);
  free(cv->x);
  free(cv->r);
  free(cv);
}

double lb_share_curve_eval(const lb_share_curve *cv, double t)
{
  if (t <= cv->c[0]) return 0;
  size_t lo = 0, hi = cv->nc; /* last m with c[m] <= t */
  while (hi - lo > 1) {
    size_t mid = (lo + hi) / 2;
    if (cv->c[mid] <= t) lo = mid;
    else hi = mid;
  }
  return cv->x[lo] + cv->r[lo] * (t - cv->c[lo]);
}

/* |T_i ∩ [t0, t]| */
static int check_lambda(double lambda)
{
  if (!(lambda > 0) || !isfinite(lambda))
    return lb_error(LB_EINVAL, "job size lambda = %g must be a positive number", lambda);
  return LB_SUCCESS;
}

static double busy_until(const lb_share_proc *p, double t)
{
  double s = 0;
  for (size_t k = 0; k < p->nwin && p->win[k].a < t; k++) s += fmin(p->win[k].b, t) - p->win[k].a;
  return s;
}

int lb_share_opt(size_t n, const lb_share_proc *p, double t0, double lambda, double *tstar, double *share, double *busy)
{
  if (check_lambda(lambda)) return LB_EINVAL;
  lb_share_curve *cv;
  int rc = lb_share_curve_build(n, p, t0, &cv);
  if (rc) return rc;
  double ts = NAN;
  for (size_t m = 0; m < cv->nc; m++) {
    double xend = m + 1 < cv->nc ? cv->x[m + 1] : INFINITY;
    if (cv->r[m] > 0 && (xend >= lambda || m + 1 == cv->nc)) {
      ts = cv->c[m] + (lambda - cv->x[m]) / cv->r[m];
      /* x_(m+1) >= lambda guarantees ts <= c_(m+1) up to rounding */
      if (m + 1 < cv->nc && ts > cv->c[m + 1]) ts = cv->c[m + 1];
      break;
    }
  }
  double cap = cv->x[cv->nc - 1];
  lb_share_curve_free(cv);
  if (isnan(ts)) return lb_error(LB_ERANGE, "the windows can hold only %g of the job (lambda = %g)", cap, lambda);
  *tstar = ts;
  for (size_t i = 0; i < n; i++) {
    double b = busy_until(&p[i], ts);
    if (busy) busy[i] = b;
    if (share) share[i] = p[i].speed * b;
  }
  return LB_SUCCESS;
}

double lb_share_finish(const lb_share_proc *p, double t0, double amount)
{
  double done = 0;
  (void)t0;
  for (size_t k = 0; k < p->nwin; k++) {
    double cap = p->speed * (p->win[k].b - p->win[k].a);
    if (done + cap >= amount) return p->win[k].a + (amount - done) / p->speed;
    done += cap;
  }
  return amount <= 0 ? t0 : INFINITY;
}

int lb_share_bidding(size_t n, const lb_share_proc *p, double t0, double lambda, double *t, size_t *who)
{
  if (check_lambda(lambda)) return LB_EINVAL;
  int rc = lb_share_check(n, p, t0);
  if (rc) return rc;
  size_t best = n;
  for (size_t i = 0; i < n; i++)
    if (p[i].nwin > 0 && p[i].win[0].a <= t0 && (best == n || p[i].speed > p[best].speed)) best = i;
  if (best == n) return lb_error(LB_ERANGE, "no processor is available at t0 = %g", t0);
  *who = best;
  *t = lb_share_finish(&p[best], t0, lambda);
  return LB_SUCCESS;
}

int lb_share_balance(size_t n, const lb_share_proc *p, double t0, double lambda, double *t, double *share)
{
  if (check_lambda(lambda)) return LB_EINVAL;
  int rc = lb_share_check(n, p, t0);
  if (rc) return rc;
  double S = 0, tmax = t0;
  for (size_t i = 0; i < n; i++) S += p[i].speed;
  for (size_t i = 0; i < n; i++) {
    double li = lambda * p[i].speed / S;
    if (share) share[i] = li;
    double f = lb_share_finish(&p[i], t0, li);
    if (f > tmax) tmax = f;
  }
  *t = tmax;
  return LB_SUCCESS;
}

int lb_share_apportion(size_t n, const double *share, unsigned long total, unsigned long *count)
{
  double sum = 0;
  for (size_t i = 0; i < n; i++) {
    if (!(share[i] >= 0) || !isfinite(share[i]))
      return lb_error(LB_EINVAL, "share %zu is %g: shares must be finite and >= 0", i, share[i]);
    sum += share[i];
  }
  if (!(sum > 0)) return lb_error(LB_EINVAL, "all %zu shares are zero", n);
  unsigned long given = 0;
  for (size_t i = 0; i < n; i++) {
    count[i] = (unsigned long)floor((double)total * share[i] / sum);
    given += count[i];
  }
  /* Hand out what the floors left, largest remainder first. */
  while (given < total) {
    size_t best = 0;
    double bestr = -1;
    for (size_t i = 0; i < n; i++) {
      double r = (double)total * share[i] / sum - (double)count[i];
      if (r > bestr) {
        bestr = r;
        best = i;
      }
    }
    count[best]++;
    given++;
  }
  return LB_SUCCESS;
}
