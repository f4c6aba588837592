/* lbsg_run.c: the C side of the SimGrid driver (lbsg_run.h): lbsim's
 * run (sim_impl.h) with SimGrid's time.  What a node does at an event
 * is lbsim's (sim_start, sim_arrive, sim_quantum_done, lb_rt_fire);
 * what is this driver's own: messages go out as codec bytes through the
 * actors' mailboxes and are decoded where they arrive; the jitter a
 * message draws holds it at its receiver that much longer; a message a
 * node sends itself never leaves it (lbsim's cost: none but the
 * jitter); arrivals and held messages wait for their time in per-node
 * lists. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "lbsg_run.h"
#include "sim_impl.h"
#include "lb_errno.h"

struct lbsg_msg {
  lbsg_msg *prev, *next; /* the run's messages on their way */
  lb_msg *m;             /* the message itself when it travels as one */
  unsigned char *bytes;  /* else its codec bytes */
  size_t len;
  size_t src, dst; /* this link's ends */
  long nproc;      /* processes inside (for a message that does not decode) */
  uint64_t seq;    /* the run's messages in the order sent */
  uint32_t id;     /* its number in the trace (lb_msg.trace_id), which
                           * the codec does not carry */
  double hold;     /* jitter: time its receiver waits after it came */
};

/* A message held for its jitter: taken at t, in the order held. */
typedef struct held {
  double t;
  uint64_t seq;
  lb_msg *m;
} held;
typedef struct heldheap {
  held *v;
  size_t n, cap;
} heldheap;

struct lbsg_run {
  sim S; /* first: the runtime's callbacks get &S.node[i] */
  lbsg_net net;
  lb_rt_ops ops;
  lbsg_msg wire;         /* list head of the messages on their way */
  sim_quantum *q;        /* per node: the quantum it runs */
  size_t *arr_off, *arr; /* per node: its arrivals (process ids) in order of time */
  size_t *arr_next;      /* per node: the next one */
  heldheap *held;        /* per node */
  struct coming {
    struct soon {
      uint64_t seq;
      double t;
    } * v;
    size_t n, cap;
  } * coming;
  /* per node: its messages on their way, and the
                           * earliest each can arrive (latency alone) */
  double hop_min;        /* the least a link's latency can be */
  uint64_t made;         /* messages sent so far */
  double done_at;        /* when the work was done (sim_over), -1 before */
  unsigned long cap;     /* events before giving up */
  unsigned long sampled; /* events at the last load sample */
  size_t started;        /* nodes past lbsg_begin */
  int rc;                /* the first error */
  int stop;              /* over: done, or given up */
};

static lbsg_run *run_of(sim *S) { return (lbsg_run *)S; }

int lbsg_reached(double t, double deadline) { return deadline <= t + 1e-9 + 1e-12 * fabs(t); }

/* ---- held messages: a binary heap by (t, seq) ---- */
static int held_before(const held *a, const held *b) { return a->t < b->t || (a->t == b->t && a->seq < b->seq); }

static int held_push(heldheap *h, held x)
{
  if (h->n == h->cap) {
    size_t c = h->cap ? 2 * h->cap : 8;
    held *v = realloc(h->v, c * sizeof *v);
    if (!v) return lb_error(LB_ENOMEM, "held messages");
    h->v = v;
    h->cap = c;
  }
  size_t k = h->n++;
  while (k && held_before(&x, &h->v[(k - 1) / 2])) {
    h->v[k] = h->v[(k - 1) / 2];
    k = (k - 1) / 2;
  }
  h->v[k] = x;
  return LB_SUCCESS;
}

static held held_pop(heldheap *h)
{
  held top = h->v[0], x = h->v[--h->n];
  size_t k = 0;
  for (;;) {
    size_t c = 2 * k + 1;
    if (c >= h->n) break;
    if (c + 1 < h->n && held_before(&h->v[c + 1], &h->v[c])) c++;
    if (!held_before(&h->v[c], &x)) break;
    h->v[k] = h->v[c];
    k = c;
  }
  if (h->n) h->v[k] = x;
  return top;
}

/* ---- messages on their way ---- */
static void wire_unlink(lbsg_msg *w)
{
  w->prev->next = w->next;
  w->next->prev = w->prev;
}

static void wire_free(lbsg_msg *w)
{
  lb_msg_free(w->m);
  free(w->bytes);
  free(w);
}

/* The message w carries, decoded (NULL when it does not decode: a
 * violation, and it is lost); w is freed, *hold is its jitter. */
static int open_msg(lbsg_run *R, lbsg_msg *w, lb_msg **out, double *hold)
{
  sim *S = &R->S;
  wire_unlink(w);
  lb_msg *m = w->m;
  w->m = NULL;
  int rc = LB_SUCCESS;
  if (w->bytes) {
    rc = lb_codec_decode(w->bytes, w->len, (uint32_t)S->c->seed, &S->lim, &m);
    if (rc && rc != LB_ENOMEM) {
      sim_violation(S, "a message of %zu bytes from node %zu to %zu does not decode: %s", w->len, w->src, w->dst,
                    lb_errmsg());
      S->inflight -= w->nproc;
      S->msgs_inflight--;
      rc = LB_SUCCESS;
    }
    if (rc) m = NULL;
    if (m) m->trace_id = w->id;
  }
  *hold = w->hold;
  wire_free(w);
  *out = m;
  return rc;
}

/* The runtime's SEND: what lbsim charges and counts (sim_sending), the
 * jitter drawn from the same stream, then the codec's bytes out. */
static int cb_send(void *ctx, lb_msg *m, double now)
{
  simnode *x = ctx;
  sim *S = x->S;
  lbsg_run *R = run_of(S);
  size_t i = sim_node_of(S, x);
  sim_sending(S, i, m, now);
  lbsg_msg *w = calloc(1, sizeof *w);
  if (!w) {
    lb_msg_free(m);
    return lb_error(LB_ENOMEM, "a message on its way");
  }
  w->src = i;
  w->dst = m->hop_dst;
  w->seq = R->made++;
  w->nproc = (long)m->nproc;
  w->id = m->trace_id;
  if (S->c->jitter > 0) w->hold = S->c->jitter * S->c->latency * lb_rng_uniform(S->rng);
  double bytes = (double)lb_msg_size(m);
  if (S->c->codec) {
    size_t len = 0;
    int rc = sim_encode(S, m, &len);
    if (rc == LB_ENOMEM) {
      lb_msg_free(m);
      free(w);
      return rc;
    }
    if (rc)
      sim_violation(S, "%s %zu -> %zu cannot be encoded: %s", lb_msg_type_name(m->type), m->src, m->dst, lb_errmsg());
    else if (!(w->bytes = malloc(len ? len : 1))) {
      lb_msg_free(m);
      free(w);
      return lb_error(LB_ENOMEM, "%zu bytes of a message", len);
    } else {
      memcpy(w->bytes, S->wire, len);
      w->len = len;
      lb_msg_free(m);
      m = NULL;
    }
  }
  w->m = m; /* the message itself: codec off, or refused by it */
  w->next = &R->wire;
  w->prev = R->wire.prev;
  R->wire.prev->next = w;
  R->wire.prev = w;
  if (w->dst != i) {
    struct coming *c = &R->coming[w->dst];
    if (c->n == c->cap) {
      size_t cap = c->cap ? 2 * c->cap : 8;
      struct soon *v = realloc(c->v, cap * sizeof *v);
      if (!v) return lb_error(LB_ENOMEM, "messages on their way");
      c->v = v;
      c->cap = cap;
    }
    c->v[c->n++] = (struct soon){w->seq, now + R->hop_min * (double)lb_topo_distance(S->c->topo, i, w->dst)};
    R->net.post(R->net.ctx, w->src, w->dst, w, bytes);
    return LB_SUCCESS;
  }
  /* To itself: taken after this event, at once or after its jitter. */
  double hold;
  uint64_t seq = w->seq;
  int rc = open_msg(R, w, &m, &hold);
  return rc || !m ? rc : held_push(&R->held[i], (held){now + hold, seq, m});
}

/* ---- set-up ---- */
/* Each node's arrivals, in the order lbsim takes them (by time, then
 * process id). */
static int arrivals(lbsg_run *R)
{
  sim *S = &R->S;
  R->arr_off = calloc(S->n + 1, sizeof *R->arr_off);
  R->arr_next = calloc(S->n, sizeof *R->arr_next);
  R->arr = malloc((S->np ? S->np : 1) * sizeof *R->arr);
  if (!R->arr_off || !R->arr_next || !R->arr) return lb_error(LB_ENOMEM, "arrivals of %zu processes", S->np);
  for (size_t j = 0; j < S->np; j++) R->arr_off[sim_arr_node(S, j) + 1]++;
  for (size_t i = 0; i < S->n; i++) R->arr_off[i + 1] += R->arr_off[i];
  for (size_t i = 0; i < S->n; i++) R->arr_next[i] = R->arr_off[i];
  for (size_t j = 0; j < S->np; j++) {
    size_t i = sim_arr_node(S, j);
    R->arr[R->arr_next[i]++] = S->arr_order ? S->arr_order[j] : j;
  }
  for (size_t i = 0; i < S->n; i++) R->arr_next[i] = R->arr_off[i];
  return LB_SUCCESS;
}

static double arrival_time(const lbsg_run *R, size_t k)
{
  return R->S.c->load == LB_SIM_LOAD_TRACE ? R->S.c->trace[k].t : 0;
}

int lbsg_open(const lb_sim_config *c, lb_sim_result *res, const lbsg_net *net, lbsg_run **out)
{
  *out = NULL;
  if (c->ncrashes) return lb_error(LB_EINVAL, "--crash: the SimGrid driver does not simulate failures (lbsim does)");
  if (c->corrupt > 0)
    return lb_error(LB_EINVAL, "--corrupt: the SimGrid driver does not simulate wrong results (lbsim does)");
  if (c->nsilent)
    return lb_error(LB_EINVAL,
                    "--freeze, --partition: the SimGrid driver does not simulate silent faults (lbsim does)");
  if (c->norders) return lb_error(LB_EINVAL, "outside orders: the SimGrid driver has none (lbsim has)");
  if (c->snapshot_at > 0) return lb_error(LB_EINVAL, "snapshots: the SimGrid driver takes none (lbsim does)");
  lbsg_run *R = calloc(1, sizeof *R);
  if (!R) return lb_error(LB_ENOMEM, "the SimGrid driver's run");
  R->net = *net;
  R->wire.next = R->wire.prev = &R->wire;
  R->done_at = -1;
  R->cap = c->max_events ? c->max_events : 200000000ul;
  R->ops = (lb_rt_ops){.send = cb_send,
                       .leaving = c->leaving ? sim_leaving : NULL,
                       .home = sim_home,
                       .deliver = sim_to_sink,
                       .trace = c->msg_trace ? sim_trace : NULL};
  *out = R;
  int rc = sim_open(&R->S, c, res, &R->ops);
  if (rc) return rc;
  size_t n = R->S.n;
  if (!(R->q = calloc(n, sizeof *R->q))) return lb_error(LB_ENOMEM, "quanta of %zu nodes", n);
  if (!(R->held = calloc(n, sizeof *R->held)) || !(R->coming = calloc(n, sizeof *R->coming)))
    return lb_error(LB_ENOMEM, "messages of %zu nodes", n);
  R->hop_min = net->hop_min;
  return arrivals(R);
}

void lbsg_end(lbsg_run *R) { sim_end(&R->S); }

void lbsg_close(lbsg_run *R)
{
  if (!R) return;
  /* Records go back under the run's allocator, before sim_close puts
   * the caller's back. */
  while (R->wire.next != &R->wire) {
    lbsg_msg *w = R->wire.next;
    wire_unlink(w);
    wire_free(w);
  }
  for (size_t i = 0; R->held && i < R->S.n; i++) {
    for (size_t k = 0; k < R->held[i].n; k++) lb_msg_free(R->held[i].v[k].m);
    free(R->held[i].v);
  }
  free(R->held);
  for (size_t i = 0; R->coming && i < R->S.n; i++) free(R->coming[i].v);
  free(R->coming);
  free(R->q);
  free(R->arr_off);
  free(R->arr);
  free(R->arr_next);
  sim_close(&R->S);
  free(R);
}

size_t lbsg_nodes(const lbsg_run *R) { return R->S.n; }
int lbsg_started(const lbsg_run *R) { return R->started == R->S.n || R->stop; }

int lbsg_may_arrive(const lbsg_run *R, size_t i, double now)
{
  const struct coming *c = &R->coming[i];
  for (size_t k = 0; k < c->n; k++)
    if (lbsg_reached(now, c->v[k].t)) return 1;
  return 0;
}

int lbsg_status(const lbsg_run *R) { return R->rc; }

/* ---- events ---- */
/* An event happens: counted against the cap.  0 when the run is over. */
static int event(lbsg_run *R, double now)
{
  if (R->stop) return 0;
  if (++R->S.r->events > R->cap) {
    sim_violation(&R->S, "no termination after %lu events (t=%g)", R->cap, now);
    R->stop = 1;
    return 0;
  }
  return 1;
}

/* The status of an event: an error stops the run. */
static int status(lbsg_run *R, int rc)
{
  if (rc && !R->rc) R->rc = rc;
  if (rc) R->stop = 1;
  return rc;
}

/* After an event at node i: its check point, and the quantum it starts. */
static int kick(lbsg_run *R, size_t i, double now, double *end)
{
  sim_quantum q;
  int rc = sim_start(&R->S, i, now, &q);
  if (!rc && q.go) {
    R->q[i] = q;
    *end = q.end;
  }
  return rc;
}

/* The due arrivals of node i: made and handed to it, in order. */
static int arrive(lbsg_run *R, size_t i, double now, double *end)
{
  int rc = LB_SUCCESS;
  while (!rc && R->arr_next[i] < R->arr_off[i + 1]) {
    size_t k = R->arr[R->arr_next[i]];
    double t = arrival_time(R, k);
    if (!lbsg_reached(now, t)) break;
    R->arr_next[i]++;
    lb_proc *p;
    if ((rc = sim_new_proc(&R->S, k, i, &p))) break;
    lb_event ev = {.type = LB_EV_ARRIVE, .proc = p};
    rc = sim_step(&R->S, i, &ev, t);
    if (!rc) rc = kick(R, i, t, end);
  }
  return rc;
}

/* Message m reaches node i at t (lbsim's sim_arrive), then a check point. */
static int take(lbsg_run *R, size_t i, lb_msg *m, double t, double *end)
{
  int go, rc = sim_arrive(&R->S, i, m, t, &go);
  return rc || !go ? rc : kick(R, i, t, end);
}

int lbsg_begin(lbsg_run *R, size_t i, double now, double *end)
{
  *end = -1;
  if (!event(R, now)) return R->rc;
  int rc = arrive(R, i, now, end);
  /* The first check point, after the arrivals at time 0 (as lbsim's). */
  if (!rc) rc = kick(R, i, now, end);
  R->started++;
  return status(R, rc);
}

int lbsg_message(lbsg_run *R, size_t i, lbsg_msg *w, double now, double *end)
{
  *end = -1;
  lb_msg *m;
  double hold;
  uint64_t seq = w->seq;
  struct coming *c = &R->coming[i];
  for (size_t k = 0; k < c->n; k++)
    if (c->v[k].seq == seq) {
      c->v[k] = c->v[--c->n];
      break;
    }
  int rc = open_msg(R, w, &m, &hold);
  if (rc || !m) return status(R, rc);
  if (!event(R, now)) {
    lb_msg_free(m);
    return R->rc;
  }
  if (hold > 0) return status(R, held_push(&R->held[i], (held){now + hold, seq, m}));
  return status(R, take(R, i, m, now, end));
}

int lbsg_quantum_end(lbsg_run *R, size_t i, double now, double *end)
{
  *end = -1;
  if (!event(R, now)) return R->rc;
  int go, rc = sim_quantum_done(&R->S, i, R->q[i].pid, R->q[i].work, now, &go);
  if (!rc && go) rc = kick(R, i, now, end);
  return status(R, rc);
}

double lbsg_deadline(const lbsg_run *R, size_t i)
{
  const sim *S = &R->S;
  double t = INFINITY, at;
  if (R->arr_next[i] < R->arr_off[i + 1]) t = arrival_time(R, R->arr[R->arr_next[i]]);
  if (R->held[i].n && R->held[i].v[0].t < t) t = R->held[i].v[0].t;
  /* A polling node fires its timers when its quantum ends. */
  if (!(S->c->poll && S->node[i].busy) && lb_rt_next_timer(S->node[i].rt, &at) && at < t) t = at;
  return t;
}

int lbsg_due(lbsg_run *R, size_t i, double now, double *end)
{
  *end = -1;
  sim *S = &R->S;
  if (!event(R, now)) return R->rc;
  /* As lbsim at one instant: arrivals and messages first, timers last;
   * each at its own time, which SimGrid's clock may pass by its
   * rounding. */
  int rc = arrive(R, i, now, end);
  while (!rc && R->held[i].n && lbsg_reached(now, R->held[i].v[0].t)) {
    held h = held_pop(&R->held[i]);
    rc = take(R, i, h.m, h.t, end);
  }
  double at;
  while (!rc && !(S->c->poll && S->node[i].busy) && lb_rt_next_timer(S->node[i].rt, &at) && lbsg_reached(now, at)) {
    rc = lb_rt_fire(S->node[i].rt, at);
    if (rc) rc = lb_error_wrap(rc, "t=%g node %zu", at, i);
    if (!rc) rc = kick(R, i, at, end);
  }
  return status(R, rc);
}

int lbsg_over(lbsg_run *R, double now)
{
  if (!R->stop && sim_over(&R->S, now, &R->done_at)) R->stop = 1;
  return R->stop;
}

/* ---- the load CSV ---- */
void lbsg_sample_header(lbsg_run *R) { sim_sample_header(&R->S); }

/* Nothing can happen any more without a message: no node computes,
 * waits for a deadline, or has a message on its way. */
static int stalled(const lbsg_run *R)
{
  if (R->S.msgs_inflight) return 0;
  for (size_t i = 0; i < R->S.n; i++)
    if (R->S.node[i].busy || isfinite(lbsg_deadline(R, i))) return 0;
  return 1;
}

int lbsg_sample(lbsg_run *R, double t)
{
  sim_sample(&R->S, t);
  /* lbsim samples until every result is home; here the sampler must
   * also stop when nothing moves any more, or SimGrid would wait for it
   * forever. */
  if (R->stop || R->S.nhome >= R->S.np) return 0;
  if (R->S.r->events == R->sampled && stalled(R)) return 0;
  R->sampled = R->S.r->events;
  return 1;
}
