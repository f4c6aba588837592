/* lb_lease.c: see lb_lease.h. */
#include <math.h>
#include <stdlib.h>
#include "lb_lease.h"
#include "lb_errno.h"

enum { L_IDLE, L_LIVE, L_FENCED };

typedef struct host {
  double renewed; /* last renewal */
  double moved;   /* last progress */
  uint64_t progress, held;
  unsigned char state;
  unsigned char stalled; /* reported stalled since its last progress */
  unsigned char expired; /* fenced by its lease running out */
} host;

struct lb_lease {
  size_t n;
  double duration, stall;
  double progress_at;
  size_t fenced, expired;
  host *h;
};

int lb_lease_params_check(double period, double duration)
{
  if (!(period > 0) || !(duration > 0) || !isfinite(duration))
    return lb_error(LB_EINVAL, "lease period %g and duration %g", period, duration);
  if (duration < 2 * period)
    return lb_error(LB_EINVAL, "a lease of %g s must outlast two renewal periods of %g s", duration, period);
  return LB_SUCCESS;
}

int lb_lease_alloc(size_t nhosts, double duration, double stall, lb_lease **out)
{
  *out = NULL;
  if (!nhosts) return lb_error(LB_EINVAL, "leases for no host");
  if (!(duration > 0) || !isfinite(duration)) return lb_error(LB_EINVAL, "lease of %g", duration);
  if (!(stall > 0)) return lb_error(LB_EINVAL, "stall time %g", stall);
  lb_lease *l = calloc(1, sizeof *l);
  if (!l || !(l->h = calloc(nhosts, sizeof *l->h))) {
    free(l);
    return lb_error(LB_ENOMEM, "leases of %zu hosts", nhosts);
  }
  l->n = nhosts;
  l->duration = duration;
  l->stall = stall;
  l->progress_at = -INFINITY;
  *out = l;
  return LB_SUCCESS;
}

void lb_lease_free(lb_lease *l)
{
  if (!l) return;
  free(l->h);
  free(l);
}

static int check(const lb_lease *l, size_t h)
{
  return h < l->n ? LB_SUCCESS : lb_error(LB_EINVAL, "lease of host %zu of %zu", h, l->n);
}

static void moved(lb_lease *l, host *x, double now)
{
  x->moved = now;
  x->stalled = 0;
  if (now > l->progress_at) l->progress_at = now;
}

int lb_lease_start(lb_lease *l, size_t h, double now)
{
  int rc = check(l, h);
  if (rc) return rc;
  host *x = &l->h[h];
  if (x->state == L_FENCED) return lb_error(LB_ESTATE, "host %zu is fenced", h);
  x->state = L_LIVE;
  x->renewed = now;
  moved(l, x, now);
  return LB_SUCCESS;
}

int lb_lease_touch(lb_lease *l, size_t h, double now)
{
  int rc = check(l, h);
  if (rc) return rc;
  host *x = &l->h[h];
  if (x->state == L_FENCED) return lb_error(LB_ESTATE, "host %zu is fenced", h);
  if (x->state == L_IDLE) return lb_lease_start(l, h, now);
  if (now > x->renewed) x->renewed = now;
  return LB_SUCCESS;
}

int lb_lease_renew(lb_lease *l, size_t h, uint64_t progress, uint64_t held, double now)
{
  int rc = lb_lease_touch(l, h, now);
  if (rc) return rc;
  host *x = &l->h[h];
  x->held = held;
  if (progress > x->progress) {
    x->progress = progress;
    moved(l, x, now);
  }
  return LB_SUCCESS;
}

static void fence(lb_lease *l, host *x)
{
  x->state = L_FENCED;
  l->fenced++;
}

int lb_lease_fence(lb_lease *l, size_t h)
{
  int rc = check(l, h);
  if (rc) return rc;
  if (l->h[h].state != L_FENCED) fence(l, &l->h[h]);
  return LB_SUCCESS;
}

int lb_lease_is_fenced(const lb_lease *l, size_t h) { return h < l->n && l->h[h].state == L_FENCED; }

static int stalled(const lb_lease *l, const host *x, double now)
{
  return x->state == L_LIVE && x->held > 0 && now - x->moved >= l->stall;
}

int lb_lease_tick(lb_lease *l, double now, size_t *expired, size_t cap, size_t *nexpired, size_t *stalls, size_t scap,
                  size_t *nstalled)
{
  size_t ne = 0, ns = 0;
  for (size_t h = 0; h < l->n; h++) {
    host *x = &l->h[h];
    if (x->state != L_LIVE) continue;
    /* Strictly after: a renewal exactly `duration` ago still holds. */
    if (now - x->renewed > l->duration) {
      fence(l, x);
      x->expired = 1;
      l->expired++;
      if (ne < cap && expired) expired[ne] = h;
      ne++;
      continue;
    }
    if (!x->stalled && stalled(l, x, now)) {
      x->stalled = 1;
      if (ns < scap && stalls) stalls[ns] = h;
      ns++;
    }
  }
  if (nexpired) *nexpired = ne;
  if (nstalled) *nstalled = ns;
  return LB_SUCCESS;
}

size_t lb_lease_stalled(const lb_lease *l, double now, size_t *hosts, size_t cap)
{
  size_t m = 0;
  for (size_t h = 0; h < l->n; h++)
    if (stalled(l, &l->h[h], now)) {
      if (m < cap && hosts) hosts[m] = h;
      m++;
    }
  return m;
}

double lb_lease_deadline(const lb_lease *l, size_t h)
{
  return h < l->n && l->h[h].state == L_LIVE ? l->h[h].renewed + l->duration : INFINITY;
}

double lb_lease_next_deadline(const lb_lease *l)
{
  double t = INFINITY;
  for (size_t h = 0; h < l->n; h++) {
    double d = lb_lease_deadline(l, h);
    if (d < t) t = d;
  }
  return t;
}

double lb_lease_progress_at(const lb_lease *l) { return l->progress_at; }
double lb_lease_renewed_at(const lb_lease *l, size_t h) { return h < l->n ? l->h[h].renewed : NAN; }
double lb_lease_host_progress_at(const lb_lease *l, size_t h) { return h < l->n ? l->h[h].moved : NAN; }
uint64_t lb_lease_progress(const lb_lease *l, size_t h) { return h < l->n ? l->h[h].progress : 0; }
uint64_t lb_lease_held(const lb_lease *l, size_t h) { return h < l->n ? l->h[h].held : 0; }
size_t lb_lease_fenced(const lb_lease *l) { return l->fenced; }
size_t lb_lease_expired(const lb_lease *l) { return l->expired; }
