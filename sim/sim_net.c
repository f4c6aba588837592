/* sim_net.c: messages between simulated nodes.  A message costs hops x
 * (latency + bytes / bandwidth) plus jitter, and CPU time at each node
 * that handles it; with the codec on it travels as the farm's bytes;
 * a node that polls takes what came during a quantum at its end. */
#include <math.h>
#include <stdlib.h>
#include "sim_impl.h"
#include "lb_errno.h"

int sim_encode(sim *S, const lb_msg *m, size_t *len)
{
  int rc = lb_codec_encode(m, (uint32_t)S->c->seed, S->wire, S->wirecap, len);
  if (rc != LB_ERANGE || *len <= S->wirecap) return rc; /* done, or a field out of range */
  size_t cap = *len > 2 * S->wirecap ? *len : 2 * S->wirecap;
  unsigned char *b = realloc(S->wire, cap);
  if (!b) return lb_error(LB_ENOMEM, "%s of %zu bytes", lb_msg_type_name(m->type), *len);
  S->wire = b;
  S->wirecap = cap;
  return lb_codec_encode(m, (uint32_t)S->c->seed, S->wire, S->wirecap, len);
}

/* The context bytes m's processes carry. */
static size_t ctx_bytes(const lb_msg *m)
{
  size_t b = 0;
  for (size_t k = 0; k < m->nproc; k++) b += m->procs[k]->ctx_len;
  return b;
}

/* Round-trip *m through the codec, as the farm sends it: *m becomes
 * what the receiver decodes.  A message the codec refuses is a
 * violation (and goes on as it was); out of memory is an error.
 *
 * `thin`: the contexts' bytes stay out of it.  Each process crosses
 * with a context of length 0, and the receiver's message is the decoded
 * one holding the sender's process records, every field of them but
 * the context set from what was decoded; the contexts move by
 * reference. */
static int round_trip(sim *S, lb_msg **m, int thin)
{
  lb_msg *x = *m;
  size_t len = 0;
  lb_msg *d = NULL;
  if (thin && x->nproc > S->nlens) {
    uint32_t *v = realloc(S->lens, x->nproc * sizeof *v);
    if (!v) return lb_error(LB_ENOMEM, "context lengths of %zu processes", x->nproc);
    S->lens = v;
    S->nlens = x->nproc;
  }
  for (size_t k = 0; thin && k < x->nproc; k++) {
    S->lens[k] = x->procs[k]->ctx_len;
    x->procs[k]->ctx_len = 0;
  }
  int rc = sim_encode(S, x, &len);
  for (size_t k = 0; thin && k < x->nproc; k++) x->procs[k]->ctx_len = S->lens[k];
  if (rc == LB_ENOMEM) return rc;
  if (rc) {
    sim_violation(S, "%s %zu -> %zu cannot be encoded: %s", lb_msg_type_name(x->type), x->src, x->dst, lb_errmsg());
    return LB_SUCCESS;
  }
  rc = lb_codec_decode(S->wire, len, (uint32_t)S->c->seed, &S->lim, &d);
  if (rc == LB_ENOMEM) return rc;
  if (rc) {
    sim_violation(S, "%s %zu -> %zu does not decode: %s", lb_msg_type_name(x->type), x->src, x->dst, lb_errmsg());
    return LB_SUCCESS;
  }
  if (thin) {
    if (d->nproc != x->nproc) {
      sim_violation(S, "%s %zu -> %zu: %zu processes decoded of %zu", lb_msg_type_name(x->type), x->src, x->dst,
                    d->nproc, x->nproc);
      lb_msg_free(d);
      return LB_SUCCESS;
    }
    for (size_t k = 0; k < x->nproc; k++) {
      lb_proc *o = x->procs[k], *n = d->procs[k];
      o->id = n->id;
      o->origin = n->origin;
      o->work = n->work;
      o->quanta = n->quanta;
      o->hops = n->hops;
      o->est = n->est;
      o->ran = n->ran;
      lb_proc_free(n);
      d->procs[k] = o;
    }
    x->nproc = 0; /* its processes are d's now */
  }
  d->trace_id = x->trace_id;
  lb_msg_free(x);
  *m = d;
  return LB_SUCCESS;
}

/* Every message crosses the codec.  One whose processes carry more than
 * SIM_CODEC_THIN bytes of context (matmul-like: 16 KB each, a run
 * spent most of its time copying them in and out of the codec) crosses
 * it whole one time in SIM_CODEC_WHOLE (lb_sim_config.codec_whole),
 * and thin (round_trip) the others: every field of every message is still encoded and checked,
 * and the contexts' path in one such message of SIM_CODEC_WHOLE.  The
 * outputs are the same either way (a round trip gives back what was
 * sent, or a violation). */
static int through_codec(sim *S, lb_msg **m)
{
  if (ctx_bytes(*m) <= SIM_CODEC_THIN) return round_trip(S, m, 0);
  unsigned long every = S->c->codec_whole ? S->c->codec_whole : SIM_CODEC_WHOLE;
  return round_trip(S, m, S->big_msgs++ % every != 0);
}

/* A node's CPU spends time on every message it handles. */
static void charge(sim *S, size_t i, const lb_msg *m, double now)
{
  if (!(S->c->cost_msg > 0) && !(S->c->cost_byte > 0)) return;
  double c = S->c->cost_msg + (S->c->cost_byte > 0 ? S->c->cost_byte * (double)lb_msg_size(m) : 0);
  if (c <= 0) return;
  double start = S->node[i].cpu_free > now ? S->node[i].cpu_free : now;
  S->node[i].cpu_free = start + c;
  if (S->tr) sim_trace_cpu(S, i, LB_HOST_BALANCING, start, start + c);
}

double sim_sending(sim *S, size_t i, const lb_msg *m, double now)
{
  charge(S, i, m, now);
  if (lb_msg_type_has_result(m->type) && m->res.payload) sim_result_sent(S, i, m->res.pid);
  /* A hop on the way, where no node failed (the graph is the one
   * given), is to a neighbour. */
  int on_way = S->c->node.route == LB_ROUTE_HOPS && !S->ndead && m->hop_dst != m->dst;
  double hops = on_way ? 1 : (double)lb_topo_distance(S->c->topo, i, m->hop_dst);
  S->inflight += (long)m->nproc;
  S->msgs_inflight++;
  S->r->hops += m->nproc * (unsigned long)hops; /* direct sends cross several links */
  return hops;
}

/* ---- the runtime's callbacks ---- */
static int cb_send(void *ctx, lb_msg *m, double now)
{
  simnode *x = ctx;
  sim *S = x->S;
  size_t dst = m->hop_dst;
  double hops = sim_sending(S, sim_node_of(S, x), m, now);
  double d = hops * (S->c->latency + (S->c->bandwidth > 0 ? (double)lb_msg_size(m) / S->c->bandwidth : 0));
  if (S->c->jitter > 0) d += S->c->jitter * S->c->latency * lb_rng_uniform(S->rng);
  /* A relay passes on what its sender's round trip gave, with only its
   * hop fields changed: the trip would give it back unchanged. */
  if (S->c->codec && m->src == sim_node_of(S, x)) {
    int rc = through_codec(S, &m);
    if (rc) {
      lb_msg_free(m);
      return rc;
    }
  }
  /* Held while either end is frozen or cut off (sim_silent.c). */
  double at = S->sil ? sim_arrival(S, sim_node_of(S, x), dst, now, d) : now + d;
  if (!isfinite(at)) {
    /* To or from a node frozen for good. */
    S->inflight -= (long)m->nproc;
    S->msgs_inflight--;
    sim_lose(S, m);
    return LB_SUCCESS;
  }
  int rc = sim_queue_push(&S->h, (sim_ev){.t = at, .kind = SIM_EV_DELIVER, .node = dst, .msg = m});
  if (rc) lb_msg_free(m);
  return rc;
}

static void cb_wake(void *ctx, double at)
{
  simnode *x = ctx;
  sim *S = x->S;
  if (sim_queue_push(&S->h, (sim_ev){.t = at, .kind = SIM_EV_TIMER, .node = sim_node_of(S, x)})) S->failed = LB_ENOMEM;
}

void sim_trace(void *ctx, const char *row)
{
  simnode *x = ctx;
  fprintf(x->S->c->msg_trace, "%s\n", row);
}

const lb_rt_ops sim_ops[4] = {
    {.send = cb_send, .home = sim_home, .deliver = sim_to_sink, .wake = cb_wake},
    {.send = cb_send, .home = sim_home, .deliver = sim_to_sink, .wake = cb_wake, .trace = sim_trace},
    {.send = cb_send, .leaving = sim_leaving, .home = sim_home, .deliver = sim_to_sink, .wake = cb_wake},
    {.send = cb_send,
     .leaving = sim_leaving,
     .home = sim_home,
     .deliver = sim_to_sink,
     .wake = cb_wake,
     .trace = sim_trace},
};

/* ---- arrivals ---- */
/* Node i takes message m at time t. */
static int take(sim *S, size_t i, lb_msg *m, double t)
{
  S->inflight -= (long)m->nproc;
  S->msgs_inflight--;
  charge(S, i, m, t);
  lb_event ev = {.type = LB_EV_MSG, .msg = m};
  return sim_step(S, i, &ev, t);
}

static int park(sim *S, size_t i, lb_msg *m)
{
  struct parked *p = &S->node[i].parked;
  if (p->n == p->cap) {
    size_t c = p->cap ? 2 * p->cap : 8;
    lb_msg **v = realloc(p->v, c * sizeof *v);
    if (!v) {
      lb_msg_free(m);
      return lb_error(LB_ENOMEM, "parked messages");
    }
    p->v = v;
    p->cap = c;
  }
  p->v[p->n++] = m;
  return LB_SUCCESS;
}

int sim_unpark(sim *S, size_t i, double t)
{
  struct parked *p = &S->node[i].parked;
  int rc = LB_SUCCESS;
  size_t k = 0;
  for (; k < p->n && !rc; k++) rc = take(S, i, p->v[k], t);
  for (; k < p->n; k++) lb_msg_free(p->v[k]);
  p->n = 0;
  return rc;
}

int sim_arrive(sim *S, size_t i, lb_msg *m, double t, int *kick)
{
  *kick = 0;
  int fenced_src = S->ndead && m->hop_src < S->n && S->node[m->hop_src].fenced;
  if (S->node[i].dead || S->node[i].fenced || fenced_src ||
      (S->ndead && m->hop_src < S->n && S->node[m->hop_src].dead)) {
    /* From a fenced node: out for good, whatever it sends is dropped. */
    if (fenced_src) S->r->fenced_dropped++;
    S->inflight -= (long)m->nproc;
    S->msgs_inflight--;
    sim_lose(S, m);
    return LB_SUCCESS;
  }
  if (lb_msg_type_has_result(m->type) && m->res.payload) sim_result_arrived(S, i, m->res.pid);
  if (S->c->poll && S->node[i].busy) return park(S, i, m);
  int rc = take(S, i, m, t);
  *kick = !rc;
  return rc;
}

int sim_deliver(sim *S, const sim_ev *e)
{
  if (S->sil && sim_cut(S, e->node, e->t)) {
    /* Cut off while it travelled: it arrives when the partition heals. */
    sim_ev d = *e;
    d.t = S->sil[e->node].cut_until;
    return sim_queue_push(&S->h, d);
  }
  int kick, rc = sim_arrive(S, e->node, e->msg, e->t, &kick);
  if (rc || !kick || !lb_node_tick_due(lb_rt_node_const(S->node[e->node].rt))) return rc;
  return sim_kick(S, e->node, e->t);
}
