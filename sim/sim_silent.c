/* sim_silent.c: silent faults (lb_sim.h: a node frozen, or cut off) and
 * the leases that find them, as the farm's master keeps them
 * (lb_lease.h): every node renews its lease every period with a message
 * of one hop's latency to the master; the master checks the leases
 * every quarter period and fences a node whose lease ran out.  A fenced
 * node is out for good: the survivors learn of it as of a failure and
 * the sink recovers its work (sim_detect); whatever it sends from then
 * on is dropped where it arrives and counted; the master's order to stop
 * ends it when it reaches it (a frozen node when it thaws, a cut-off one
 * when its partition heals).  Nothing here knows a policy. */
#include <math.h>
#include <stdlib.h>
#include "sim_impl.h"
#include "lb_errno.h"

int sim_silent_alloc(sim *S)
{
  const lb_sim_config *c = S->c;
  if (!c->nsilent) return LB_SUCCESS;
  if (!(S->sil = calloc(S->n, sizeof *S->sil))) return lb_error(LB_ENOMEM, "silent faults");
  int rc = lb_lease_alloc(S->n, c->node.lease.duration, INFINITY, &S->lease);
  if (!rc) rc = lb_rng_alloc_stream(c->seed, 1u << 23, &S->brng);
  for (size_t i = 0; i < S->n && !rc; i++) rc = lb_lease_start(S->lease, i, 0);
  for (size_t k = 0; k < c->nsilent && !rc; k++)
    rc = sim_queue_push(
        &S->h, (sim_ev){.t = c->silent[k].t, .kind = SIM_EV_SILENT, .node = (uint32_t)c->silent[k].node, .id = k});
  if (!rc) rc = sim_queue_push(&S->h, (sim_ev){.t = 0, .kind = SIM_EV_LEASE});
  return rc;
}

void sim_silent_free(sim *S)
{
  free(S->sil);
  S->sil = NULL;
  lb_lease_free(S->lease);
  S->lease = NULL;
  lb_rng_free(S->brng);
  S->brng = NULL;
}

int sim_frozen(const sim *S, size_t i, double t) { return S->sil && S->sil[i].frozen_until > t; }
int sim_cut(const sim *S, size_t i, double t) { return S->sil && S->sil[i].cut_until > t; }

double sim_silent_end(const sim *S, size_t i, double t)
{
  if (!S->sil) return t;
  double f = S->sil[i].frozen_until, c = S->sil[i].cut_until;
  double e = f > c ? f : c;
  return e > t ? e : t;
}

double sim_arrival(const sim *S, size_t src, size_t dst, double now, double d)
{
  double t = now + d;
  if (!S->sil) return t;
  /* Held while either end is frozen or cut off, then on its way. */
  double a = sim_silent_end(S, src, now), b = sim_silent_end(S, dst, now);
  if (a > now && a + d > t) t = a + d;
  if (b > now && b + d > t) t = b + d;
  return t;
}

/* Node-local events of a frozen node wait for its thaw; frozen for good,
 * they are lost with it. */
int sim_defer(sim *S, sim_ev *e)
{
  double until = S->sil[e->node].frozen_until;
  if (isfinite(until)) {
    sim_ev d = *e;
    d.t = until;
    return sim_queue_push(&S->h, d);
  }
  if (e->kind == SIM_EV_DELIVER) {
    S->inflight -= (long)e->msg->nproc;
    S->msgs_inflight--;
    sim_lose(S, e->msg);
    e->msg = NULL;
  } else if (e->kind == SIM_EV_ARRIVE) {
    S->r->lost++;
    lb_proc_free(e->proc);
    e->proc = NULL;
  }
  return LB_SUCCESS;
}

static int begin(sim *S, const sim_ev *e)
{
  const lb_sim_silent *f = &S->c->silent[e->id];
  size_t d = f->node;
  S->silent_begun++;
  if (S->node[d].out) return LB_SUCCESS; /* failed already */
  double until = e->t + f->dur;
  simsil *x = &S->sil[d];
  if (f->kind == LB_SIM_FREEZE) {
    if (until > x->frozen_until) x->frozen_until = until;
  } else if (until > x->cut_until) x->cut_until = until;
  S->silent_open++;
  if (isfinite(until)) return sim_queue_push(&S->h, (sim_ev){.t = until, .kind = SIM_EV_RESUME, .node = (uint32_t)d});
  return LB_SUCCESS;
}

/* A node's freeze or partition ends (unless another holds it): it goes
 * on, and answers an inventory round it missed. */
static int resume(sim *S, const sim_ev *e)
{
  size_t d = e->node;
  if (sim_frozen(S, d, e->t) || sim_cut(S, d, e->t)) return LB_SUCCESS;
  if (!S->node[d].fenced && S->silent_open) S->silent_open--;
  if (S->node[d].out) return LB_SUCCESS;
  int rc = LB_SUCCESS;
  if (lb_sink_waiting(S->sink)) {
    rc = sim_answer(S, d, e->t);
    if (!rc && !lb_sink_waiting(S->sink)) rc = sim_rerun(S, e->t);
  }
  return rc ? rc : sim_kick(S, d, e->t);
}

/* Node d's lease ran out: fenced.  The survivors and the sink take it
 * for failed; the master tells it to stop, which ends it once the order
 * reaches it. */
static int fence(sim *S, size_t d, double now)
{
  simnode *x = &S->node[d];
  x->fenced = 1;
  S->r->fenced++;
  if (sim_frozen(S, d, now) || sim_cut(S, d, now)) S->silent_open--;
  if (!x->out) {
    x->out = 1;
    S->ndead++;
  }
  int rc = sim_detect(S, d, now);
  double at = sim_arrival(S, d, d, now, S->c->latency);
  if (!rc && !x->dead && isfinite(at))
    rc = sim_queue_push(&S->h, (sim_ev){.t = at, .kind = SIM_EV_QUIT, .node = (uint32_t)d});
  return rc;
}

/* The master's order reaches fenced node d, which stops: what it still
 * holds is lost with it (its work ran again when it was fenced). */
static int quit(sim *S, size_t d, double now)
{
  if (sim_cut(S, d, now))
    return sim_queue_push(&S->h, (sim_ev){.t = S->sil[d].cut_until, .kind = SIM_EV_QUIT, .node = (uint32_t)d});
  return sim_crash(S, d, 0);
}

/* Run over?  The checks stop once every result is in and no silent
 * fault is left to begin or resolve, or when nothing but them has
 * happened for a long while (a stuck run: the end checks say why). */
static int over(const sim *S, double now)
{
  if (S->nsunk == S->np && !sim_silent_pending(S)) return 1;
  return now - S->last_real > 1000 * (S->c->node.lease.period + S->c->latency + S->c->quantum);
}

/* Every quarter period the master checks the leases; every period
 * before that, the nodes that can send renew theirs. */
static int lease_check(sim *S, double now)
{
  const lb_sim_config *c = S->c;
  int rc = LB_SUCCESS;
  if (S->lease_ticks++ % 4 == 0) {
    for (size_t i = 0; i < S->n && !rc; i++) {
      if (S->node[i].dead || sim_frozen(S, i, now)) continue;
      S->r->beats++;
      double d = c->latency * (1 + (c->jitter > 0 ? c->jitter * lb_rng_uniform(S->brng) : 0));
      rc =
          sim_queue_push(&S->h, (sim_ev){.t = sim_arrival(S, i, i, now, d), .kind = SIM_EV_RENEW, .node = (uint32_t)i});
    }
  }
  size_t *exp = malloc(S->n * sizeof *exp), ne = 0;
  if (!exp) return lb_error(LB_ENOMEM, "leases");
  if (!rc) rc = lb_lease_tick(S->lease, now, exp, S->n, &ne, NULL, 0, NULL);
  for (size_t k = 0; k < ne && !rc; k++) rc = fence(S, exp[k], now);
  free(exp);
  if (!rc && !over(S, now))
    rc = sim_queue_push(&S->h, (sim_ev){.t = now + c->node.lease.period / 4, .kind = SIM_EV_LEASE});
  return rc;
}

/* A heartbeat reaches the master: it renews the lease of a live node;
 * a fenced node's is dropped and counted. */
static int renew(sim *S, size_t i, double now)
{
  simnode *x = &S->node[i];
  if (x->fenced) {
    S->r->fenced_dropped++;
    return LB_SUCCESS;
  }
  if (x->out) return LB_SUCCESS; /* a crash not yet noticed */
  return lb_lease_renew(S->lease, i, S->sil[i].quanta, lb_node_queue_len(x->nd), now);
}

int sim_silent_event(sim *S, sim_ev *e)
{
  switch (e->kind) {
  case SIM_EV_SILENT: return begin(S, e);
  case SIM_EV_RESUME: return resume(S, e);
  case SIM_EV_LEASE: return lease_check(S, e->t);
  case SIM_EV_RENEW: return renew(S, e->node, e->t);
  case SIM_EV_QUIT: return quit(S, e->node, e->t);
  case SIM_EV_SINK: return sim_sink_take(S, e->node, e->id, (uint64_t)e->work, e->t);
  default: return lb_error(LB_EINVAL, "event %u is not a silent fault's", e->kind);
  }
}

int sim_silent_pending(const sim *S)
{
  /* Faults to begin; a node frozen or cut off, neither back nor fenced;
   * a fenced node that may still come back and send. */
  if (S->silent_begun < S->c->nsilent || S->silent_open) return 1;
  for (size_t i = 0; i < S->n; i++)
    if (S->node[i].fenced && !S->node[i].dead && isfinite(S->sil[i].frozen_until)) return 1;
  return 0;
}
