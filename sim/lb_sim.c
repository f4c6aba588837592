/* lb_sim.c: the discrete-event driver and its invariant checks. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "lb_sim.h"
#include "sim_queue.h"
#include "sim_arena.h"
#include "lb_mem.h"
#include "lb_rt.h"
#include "lb_optimum.h"
#include "lb_rmtlb.h"
#include "lb_sink.h"
#include "lb_codec.h"
#include "lb_rng.h"
#include "lb_load.h"
#include "lb_errno.h"

void lb_sim_config_default(lb_sim_config *c)
{
  memset(c, 0, sizeof *c);
  lb_node_params_default(&c->node);
  c->node.hop_time = 0;
  c->policy = LB_POLICY_NONE;
  c->latency = 1;
  c->quantum = 1;
  c->load = LB_SIM_LOAD_SKEW;
  c->work = 10;
  c->codec = 1;
  c->optimum = 1;
}

void lb_sim_config_farm(lb_sim_config *c)
{
  lb_sim_config_default(c);
  c->latency = 0.01;
  c->jitter = 0.5;
  c->bandwidth = 2e6;
  c->cost_msg = 0.005;
  c->cost_byte = 1e-8;
  c->poll = 1;
  c->node.dasud.period = c->node.cchspmd.period = c->node.diffusion.period = 5;
}

/* Where a result's bytes are: at a node (its index), or one of these. */
#define AT_NOWHERE ((size_t)-1)   /* not made yet */
#define AT_WIRE ((size_t)-2)      /* inside a message in flight */
#define AT_SINK ((size_t)-3)      /* delivered */
#define AT_LOST ((size_t)-4)      /* lost with a failed node */

typedef struct sim sim;

/* What the driver follows of one process, in one record: an event
 * reads several of these for one process, and a large run finds the
 * process's record out of cache. */
typedef struct simproc {
  double work0;           /* its work, to run it again */
  uint64_t bytes;         /* its result's bytes, as made where it finished */
  size_t where;           /* its result's bytes: see AT_* */
  uint32_t origin;        /* nodes are fewer than 2^32 (check_config) */
  unsigned char done, home, sunk;
  unsigned char rerun;    /* the sink ran it again */
} simproc;

/* The driver's state of one node, in one cache line: a large run takes
 * the nodes in no order, an event at a time.  It is also the runtime's
 * callback context. */
typedef struct simnode {
  lb_rt *rt;
  lb_node *nd;            /* lb_rt_node(rt) */
  sim *S;
  double cpu_free;        /* when its CPU is done with messages */
  struct parked { lb_msg **v; size_t n, cap; } parked;  /* messages waiting for the quantum's end */
  unsigned char busy, dead;
} simnode;

struct sim {
  const lb_sim_config *c;
  size_t n;
  simnode *node;          /* n, aligned to cache lines */
  unsigned char *ctxbuf;  /* a context being written (ctx_len bytes) */
  sim_queue h;
  /* Events made at the start are read in order rather than kept in the
   * heap: the arrivals (process k has insertion number k; a trace's in
   * order of time, by arr_order) and every node's first check point. */
  size_t next_arr, next_tick;
  size_t *arr_order;      /* trace loads: the processes by (time, id) */
  uint64_t tick_seq;      /* insertion number of node 0's first check point */
  lb_rng *rng;            /* message jitter */
  lb_codec_limits lim;
  unsigned char *wire;    /* a message's bytes on their way through the codec */
  size_t wirecap;
  size_t np;
  simproc *pr;            /* np, on large pages */
  size_t ndone, nhome, nsunk;
  lb_sink *sink;
  unsigned char *known;   /* per node: failed, and the survivors know it */
  const lb_topo *topo;    /* the graph in use (repaired after failures) */
  lb_topo **repaired;     /* every repaired graph made (owned) */
  size_t nrepaired;
  long inflight;          /* processes inside messages in flight */
  size_t msgs_inflight;
  double last_sunk;
  int failed;             /* a node reported a protocol error */
  size_t busy_at;         /* where all_quiet last found a busy node */
  lb_sim_result *r;
};

static void violation(sim *S, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void violation(sim *S, const char *fmt, ...)
{
  if (S->c->violation_log) {
    va_list aq;
    va_start(aq, fmt);
    vfprintf(S->c->violation_log, fmt, aq);
    fputc('\n', S->c->violation_log);
    va_end(aq);
  }
  if (!S->r->violations++) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(S->r->first_violation, sizeof S->r->first_violation, fmt, ap);
    va_end(ap);
  }
}

/* The result a process returns: a checksum of its id, so a result that
 * reaches the wrong process or is corrupted on the way is caught. */
static uint64_t result_of(uint64_t pid) { return pid * 0x9E3779B97F4A7C15ull ^ 0x5bd1e995ull; }
/* What a result claims on the wire; the store keeps its checksum. */
static size_t result_len(const sim *S) { return S->c->result_len ? S->c->result_len : sizeof(uint64_t); }
/* A context: the work left, then padding to the configured size. */
static size_t ctx_len(const sim *S) { return S->c->ctx_len > sizeof(double) ? S->c->ctx_len : sizeof(double); }

static int known_pid(sim *S, size_t i, uint64_t pid, const char *what)
{
  if (pid < S->np) return 1;
  violation(S, "node %zu: %s of unknown process %llu", i, what, (unsigned long long)pid);
  return 0;
}

/* Encode m into the simulator's wire buffer, grown as needed. */
static int encode(sim *S, const lb_msg *m, size_t *len)
{
  int rc = lb_codec_encode(m, (uint32_t)S->c->seed, S->wire, S->wirecap, len);
  if (rc != LB_ERANGE || *len <= S->wirecap) return rc;   /* done, or a field out of range */
  size_t cap = *len > 2 * S->wirecap ? *len : 2 * S->wirecap;
  unsigned char *b = realloc(S->wire, cap);
  if (!b) return lb_error(LB_ENOMEM, "%s of %zu bytes", lb_msg_type_name(m->type), *len);
  S->wire = b;
  S->wirecap = cap;
  return lb_codec_encode(m, (uint32_t)S->c->seed, S->wire, S->wirecap, len);
}

/* Round-trip m through the codec, as the farm sends it. */
static lb_msg *through_codec(sim *S, lb_msg *m)
{
  size_t len = 0;
  lb_msg *d = NULL;
  if (encode(S, m, &len)) {
    violation(S, "%s %zu -> %zu cannot be encoded: %s", lb_msg_type_name(m->type), m->src, m->dst, lb_errmsg());
    return m;
  }
  if (lb_codec_decode(S->wire, len, (uint32_t)S->c->seed, &S->lim, &d))
    violation(S, "%s %zu -> %zu does not decode: %s", lb_msg_type_name(m->type), m->src, m->dst, lb_errmsg());
  if (!d) return m;
  lb_msg_free(m);
  return d;
}

/* ---- the runtime's callbacks ---- */
/* A node's CPU spends time on every message it handles. */
static void charge(sim *S, size_t i, const lb_msg *m, double now)
{
  if (!(S->c->cost_msg > 0) && !(S->c->cost_byte > 0)) return;
  double c = S->c->cost_msg + (S->c->cost_byte > 0 ? S->c->cost_byte * (double)lb_msg_size(m) : 0);
  if (c <= 0) return;
  S->node[i].cpu_free = (S->node[i].cpu_free > now ? S->node[i].cpu_free : now) + c;
}

static int cb_send(void *ctx, lb_msg *m, double now)
{
  simnode *x = ctx;
  sim *S = x->S;
  size_t i = (size_t)(x - S->node), dst = m->hop_dst;
  charge(S, i, m, now);
  /* Where a result's bytes are is followed exactly while a process has
   * one copy; one the sink ran again may have two. */
  if (lb_msg_type_has_result(m->type) && m->res.payload && known_pid(S, i, m->res.pid, "payload")) {
    if (S->pr[m->res.pid].where != i && !S->pr[m->res.pid].rerun)
      violation(S, "node %zu sent the result of process %llu, whose bytes are not there",
                i, (unsigned long long)m->res.pid);
    S->pr[m->res.pid].where = AT_WIRE;
  }
  double hops = (double)lb_topo_distance(S->c->topo, i, dst);
  double d = hops * (S->c->latency + (S->c->bandwidth > 0 ? (double)lb_msg_size(m) / S->c->bandwidth : 0));
  if (S->c->jitter > 0) d += S->c->jitter * S->c->latency * lb_rng_uniform(S->rng);
  if (S->c->codec) m = through_codec(S, m);
  S->inflight += (long)m->nproc;
  S->msgs_inflight++;
  S->r->hops += m->nproc * (unsigned long)hops;   /* direct sends cross several links */
  int rc = sim_queue_push(&S->h, (sim_ev){ .t = now + d, .kind = SIM_EV_DELIVER, .node = dst, .msg = m });
  if (rc) lb_msg_free(m);
  return rc;
}

static int cb_home(void *ctx, const lb_result_ref *r, double now)
{
  (void)now;
  simnode *x = ctx;
  sim *S = x->S;
  size_t i = (size_t)(x - S->node);
  uint64_t pid = r->pid;
  if (!known_pid(S, i, pid, "home")) return LB_SUCCESS;
  /* A process run again has two origins: its first copy may come home too. */
  if (S->pr[pid].origin != i && !S->pr[pid].rerun)
    violation(S, "process %llu came home at %zu, origin %zu", (unsigned long long)pid, i, (size_t)S->pr[pid].origin);
  if (!S->pr[pid].done && !S->pr[pid].rerun) violation(S, "process %llu came home before it finished", (unsigned long long)pid);
  if (S->pr[pid].home++) { if (!S->pr[pid].rerun) violation(S, "process %llu came home twice", (unsigned long long)pid); }
  else S->nhome++;
  return LB_SUCCESS;
}

static int cb_deliver(void *ctx, const lb_result_ref *r, double now)
{
  simnode *x = ctx;
  sim *S = x->S;
  size_t i = (size_t)(x - S->node);
  uint64_t pid = r->pid;
  if (!known_pid(S, i, pid, "delivery")) return LB_SUCCESS;
  if (S->pr[pid].where != i && !S->pr[pid].rerun) {
    violation(S, "node %zu delivered the result of process %llu, whose bytes are not there",
              i, (unsigned long long)pid);
    return LB_SUCCESS;
  }
  if (S->pr[pid].bytes != result_of(pid) || r->len != result_len(S))
    violation(S, "process %llu: wrong result at the sink", (unsigned long long)pid);
  int first;
  lb_sink_accept(S->sink, pid, &first);
  S->pr[pid].where = AT_SINK;
  if (!first) {
    /* A second copy is fine only of a process the sink ran again. */
    if (!S->pr[pid].rerun) violation(S, "process %llu delivered twice", (unsigned long long)pid);
    S->r->duplicates++;
    return LB_SUCCESS;
  }
  S->pr[pid].sunk = 1;
  S->nsunk++;
  S->last_sunk = now;
  return LB_SUCCESS;
}

static void cb_wake(void *ctx, double at)
{
  simnode *x = ctx;
  sim *S = x->S;
  size_t i = (size_t)(x - S->node);
  if (sim_queue_push(&S->h, (sim_ev){ .t = at, .kind = SIM_EV_TIMER, .node = i })) S->failed = LB_ENOMEM;
}

static void cb_trace(void *ctx, const char *row)
{
  simnode *x = ctx;
  fprintf(x->S->c->msg_trace, "%s\n", row);
}

static int step(sim *S, size_t i, const lb_event *ev, double now)
{
  int rc = lb_rt_step(S->node[i].rt, ev, now);
  if (!rc && S->failed) rc = S->failed;
  return rc ? lb_error_wrap(rc, "t=%g node %zu", now, i) : LB_SUCCESS;
}

static double speed_of(const sim *S, size_t i) { return S->c->speeds ? S->c->speeds[i] : S->c->node.speed; }

/* After any event: an idle node gets a policy check point, then starts
 * its next quantum if it has work. */
static int kick(sim *S, size_t i, double now)
{
  if (S->node[i].busy || S->node[i].dead) return LB_SUCCESS;
  lb_event tick = { .type = LB_EV_TICK };
  int rc = step(S, i, &tick, now);
  if (rc) return rc;
  const lb_proc *p = lb_node_current(S->node[i].nd);
  if (!p) return LB_SUCCESS;
  double speed = speed_of(S, i);
  double w = p->work < S->c->quantum * speed ? p->work : S->c->quantum * speed;
  double start = S->node[i].cpu_free > now ? S->node[i].cpu_free : now;
  S->node[i].busy = 1;
  S->node[i].cpu_free = start + w / speed;
  return sim_queue_push(&S->h, (sim_ev){ .t = start + w / speed, .kind = SIM_EV_QEND, .node = i,
                                        .id = p->id, .work = w });
}

static int unpark(sim *S, size_t i, double t);

static int quantum_end(sim *S, const sim_ev *e)
{
  size_t i = e->node;
  S->node[i].busy = 0;
  if (S->node[i].dead) return LB_SUCCESS;
  const lb_proc *p = lb_node_current(S->node[i].nd);
  if (!p || p->id != e->id) {
    violation(S, "node %zu: process %llu left the head while running", i, (unsigned long long)e->id);
    return LB_SUCCESS;
  }
  double left;
  if (p->ctx_len != ctx_len(S)) violation(S, "process %llu lost its context", (unsigned long long)p->id);
  else {
    memcpy(&left, p->ctx, sizeof left);
    if (left != p->work) violation(S, "process %llu: context %g != work %g", (unsigned long long)p->id, left, p->work);
  }
  left = p->work - e->work;
  int fin = left <= 1e-9 * (1 + e->work);
  if (fin) left = 0;
  uint64_t pid = p->id;
  if (fin) {
    if (S->pr[pid].done++) { if (!S->pr[pid].rerun) violation(S, "process %llu ran to completion twice", (unsigned long long)pid); }
    else S->ndone++;
    if (S->pr[pid].where != AT_NOWHERE && !S->pr[pid].rerun)
      violation(S, "process %llu made its result twice", (unsigned long long)pid);
    S->pr[pid].where = i;
    S->pr[pid].bytes = result_of(pid);
  }
  memcpy(S->ctxbuf, &left, sizeof left);
  lb_event ev = { .type = LB_EV_RAN, .pid = pid, .work_done = e->work, .ctx = S->ctxbuf,
                  .ctx_len = ctx_len(S), .finished = fin, .result_len = result_len(S) };
  int rc = step(S, i, &ev, e->t);
  if (!rc) rc = unpark(S, i, e->t);
  if (!rc && S->c->poll) rc = lb_rt_fire(S->node[i].rt, e->t);
  return rc ? rc : kick(S, i, e->t);
}

/* A message to or from a failed node is lost, with what it carries. */
static void lose(sim *S, lb_msg *m)
{
  if (lb_msg_type_has_result(m->type) && m->res.payload && m->res.pid < S->np && S->pr[m->res.pid].where == AT_WIRE)
    S->pr[m->res.pid].where = AT_LOST;
  S->r->lost += m->nproc;
  lb_msg_free(m);
}

/* Node i takes message m at time t. */
static int take(sim *S, size_t i, lb_msg *m, double t)
{
  S->inflight -= (long)m->nproc;
  S->msgs_inflight--;
  charge(S, i, m, t);
  lb_event ev = { .type = LB_EV_MSG, .msg = m };
  return step(S, i, &ev, t);
}

static int park(sim *S, size_t i, lb_msg *m)
{
  struct parked *p = &S->node[i].parked;
  if (p->n == p->cap) {
    size_t c = p->cap ? 2 * p->cap : 8;
    lb_msg **v = realloc(p->v, c * sizeof *v);
    if (!v) { lb_msg_free(m); return lb_error(LB_ENOMEM, "parked messages"); }
    p->v = v;
    p->cap = c;
  }
  p->v[p->n++] = m;
  return LB_SUCCESS;
}

/* The messages that came during a quantum, in their order. */
static int unpark(sim *S, size_t i, double t)
{
  struct parked *p = &S->node[i].parked;
  int rc = LB_SUCCESS;
  size_t k = 0;
  for (; k < p->n && !rc; k++) rc = take(S, i, p->v[k], t);
  for (; k < p->n; k++) lb_msg_free(p->v[k]);
  p->n = 0;
  return rc;
}

static int deliver(sim *S, const sim_ev *e)
{
  lb_msg *m = e->msg;
  if (S->node[e->node].dead || (S->r->crashed && m->hop_src < S->n && S->node[m->hop_src].dead)) {
    S->inflight -= (long)m->nproc;
    S->msgs_inflight--;
    lose(S, m);
    return LB_SUCCESS;
  }
  if (lb_msg_type_has_result(m->type) && m->res.payload && m->res.pid < S->np) {
    if (S->pr[m->res.pid].where != AT_WIRE && !S->pr[m->res.pid].rerun)
      violation(S, "the result of process %llu arrived at %zu without its bytes on the wire",
                (unsigned long long)m->res.pid, (size_t)e->node);
    S->pr[m->res.pid].where = e->node;
  }
  if (S->c->poll && S->node[e->node].busy) return park(S, e->node, m);
  int rc = take(S, e->node, m, e->t);
  return rc ? rc : kick(S, e->node, e->t);
}

static int crash(sim *S, size_t d)
{
  if (S->node[d].dead) return LB_SUCCESS;
  S->node[d].dead = 1;
  S->r->crashed++;
  S->r->lost += lb_node_queue_len(S->node[d].nd);
  struct parked *p = &S->node[d].parked;
  for (size_t k = 0; k < p->n; k++) {
    S->inflight -= (long)p->v[k]->nproc;
    S->msgs_inflight--;
    lose(S, p->v[k]);
  }
  p->n = 0;
  for (size_t k = 0; k < S->np; k++)
    if (S->pr[k].where == d) S->pr[k].where = AT_LOST;
  return LB_SUCCESS;
}

/* The survivors learn of d's failure, and the sink recovers: every live
 * node's inventory (its queue and the result bytes it holds), then the
 * processes held nowhere run again from the start. */
static int detect(sim *S, size_t d, double now)
{
  S->known[d] = 1;
  lb_topo *t;
  int rc = lb_topo_repair(S->c->topo, S->known, &t);
  if (rc) return rc;
  lb_topo **v = realloc(S->repaired, (S->nrepaired + 1) * sizeof *v);
  if (!v) { lb_topo_free(t); return lb_error(LB_ENOMEM, "repaired graphs"); }
  S->repaired = v;
  S->repaired[S->nrepaired++] = t;
  S->topo = t;
  uint64_t epoch;
  if ((rc = lb_sink_host_down(S->sink, d, &epoch))) return rc;
  /* Earlier failures are known already; each DOWN names one node. */
  for (size_t i = 0; i < S->n && !rc; i++) {
    if (S->node[i].dead) continue;
    for (size_t j = 0; j < S->n && !rc; j++) {
      if (!S->known[j] || lb_node_is_down(S->node[i].nd, j)) continue;
      lb_event ev = { .type = LB_EV_DOWN, .dst = j, .topo = t };
      rc = step(S, i, &ev, now);
    }
  }
  uint64_t *held = malloc((S->np + 1) * sizeof *held);
  if (!held) return lb_error(LB_ENOMEM, "inventory");
  for (size_t i = 0; i < S->n && !rc; i++) {
    if (S->node[i].dead) continue;
    size_t n = lb_node_queue_ids(S->node[i].nd, held, S->np);
    for (size_t k = 0; k < S->np; k++)
      if (S->pr[k].where == i && n < S->np) held[n++] = k;
    rc = lb_sink_inventory(S->sink, epoch, i, held, n);
  }
  free(held);
  /* A node that failed but is not known to have cannot answer: the
   * round stays open until its own detection starts the next one. */
  if (rc || lb_sink_waiting(S->sink)) return rc;
  uint64_t *pids;
  size_t *hosts, nr;
  if ((rc = lb_sink_reruns(S->sink, &pids, &hosts, &nr))) return rc;
  for (size_t k = 0; k < nr && !rc; k++) {
    uint64_t pid = pids[k];
    lb_proc *p;
    memcpy(S->ctxbuf, &S->pr[pid].work0, sizeof(double));
    if ((rc = lb_proc_alloc(pid, hosts[k], S->pr[pid].work0, S->ctxbuf, ctx_len(S), &p))) break;
    if (S->c->load == LB_SIM_LOAD_TRACE) p->est = (float)S->c->trace[pid].est;
    S->pr[pid].rerun = 1;
    S->pr[pid].origin = hosts[k];
    S->pr[pid].where = AT_NOWHERE;
    S->r->reruns++;
    lb_event ev = { .type = LB_EV_ARRIVE, .proc = p };
    if (!(rc = step(S, hosts[k], &ev, now))) rc = kick(S, hosts[k], now);
  }
  free(pids);
  free(hosts);
  return rc;
}

static void sample(sim *S, double t)
{
  size_t tot = 0, mx = 0, mn = (size_t)-1, heavy = 0, light = 0;
  for (size_t i = 0; i < S->n; i++) {
    const lb_node *nd = S->node[i].nd;
    size_t q = lb_node_queue_len(nd);
    tot += q;
    if (q > mx) mx = q;
    if (q < mn) mn = q;
    int s = lb_node_state(nd);
    heavy += s == LB_HEAVY;
    light += s == LB_LIGHT;
  }
  fprintf(S->c->load_csv, "%.17g,%zu,%zu,%zu,%zu,%zu\n", t, tot, mx, mn, heavy, light);
}

/* Initial placement: returns the node of process k. */
static size_t place(const lb_sim_config *c, lb_rng *r, size_t k, const size_t *hot, size_t nhot, size_t n)
{
  switch (c->load) {
  case LB_SIM_LOAD_ONE: return 0;
  case LB_SIM_LOAD_RANDOM: return lb_rng_below(r, n);
  default:
    /* 80 % of the processes on the hot nodes (an eighth of the nodes),
     * the rest anywhere. */
    return lb_rng_uniform(r) < 0.8 ? hot[k % nhot] : lb_rng_below(r, n);
  }
}

typedef struct timed { double t; size_t k; } timed;

static int by_time(const void *a, const void *b)
{
  const timed *x = a, *y = b;
  if (x->t != y->t) return x->t < y->t ? -1 : 1;
  return x->k < y->k ? -1 : x->k > y->k;
}

/* A trace's arrivals in order of time (equal times by id), unless they
 * are in that order already. */
static int order_trace(sim *S)
{
  const lb_sim_arrival *a = S->c->trace;
  size_t np = S->np, k = 1;
  while (k < np && a[k - 1].t <= a[k].t) k++;
  if (k >= np) return LB_SUCCESS;
  timed *v = malloc(np * sizeof *v);
  if (!v || !(S->arr_order = malloc(np * sizeof *S->arr_order))) {
    free(v);
    return lb_error(LB_ENOMEM, "arrival order");
  }
  for (k = 0; k < np; k++) v[k] = (timed){ a[k].t, k };
  qsort(v, np, sizeof *v, by_time);
  for (k = 0; k < np; k++) S->arr_order[k] = v[k].k;
  free(v);
  return LB_SUCCESS;
}

static int setup_load(sim *S, lb_sim_result *res)
{
  const lb_sim_config *c = S->c;
  lb_rng *r;
  int rc = lb_rng_alloc_stream(c->seed, 1u << 20, &r);
  if (rc) return rc;
  size_t n = S->n, nhot = n / 8 ? n / 8 : 1;
  size_t *perm = malloc(n * sizeof *perm);
  if (!perm) { lb_rng_free(r); return lb_error(LB_ENOMEM, "placement"); }
  for (size_t i = 0; i < n; i++) perm[i] = i;
  lb_rng_shuffle(r, perm, n);
  /* Each process is made when it arrives (next_event). */
  for (size_t k = 0; k < S->np; k++) {
    double w;
    size_t i;
    if (c->load == LB_SIM_LOAD_TRACE) { i = c->trace[k].node; w = c->trace[k].work; }
    else { i = place(c, r, k, perm, nhot, n); w = c->work * lb_rng_range(r, 0.5, 1.5); }
    S->pr[k].origin = i;
    S->pr[k].work0 = w;
    res->total_work += w;
  }
  if (c->load == LB_SIM_LOAD_TRACE) rc = order_trace(S);
  S->h.seq = S->np;
  for (size_t k = 0; k < c->norders && !rc; k++)
    rc = sim_queue_push(&S->h, (sim_ev){ .t = c->orders[k].t, .kind = SIM_EV_ORDER, .node = c->orders[k].node,
                                        .id = c->orders[k].dst, .work = (double)c->orders[k].count });
  double delay = c->detect > 0 ? c->detect : 2 * c->latency + 1;
  for (size_t k = 0; k < c->ncrashes && !rc; k++) {
    rc = sim_queue_push(&S->h, (sim_ev){ .t = c->crashes[k].t, .kind = SIM_EV_CRASH, .node = c->crashes[k].node });
    if (!rc) rc = sim_queue_push(&S->h, (sim_ev){ .t = c->crashes[k].t + delay, .kind = SIM_EV_DETECT,
                                                 .node = c->crashes[k].node });
  }
  free(perm);
  lb_rng_free(r);
  return rc;
}

/* The transport optimum for every process at its origin; a problem too
 * large to solve quickly is reported as not computed. */
static void optimum(sim *S, lb_sim_result *res)
{
  unsigned long *load = calloc(S->n, sizeof *load);
  lb_optimum o;
  res->hops_optimal = -1;
  if (!S->c->optimum || !load) { free(load); return; }
  for (size_t k = 0; k < S->np; k++) load[S->pr[k].origin]++;
  if (!lb_optimum_hops(S->topo, load, S->c->speeds, &o)) res->hops_optimal = (long)o.hops;
  else lb_error_clear();
  free(load);
}

static int check_config(const lb_sim_config *c)
{
  if (!c->topo) return lb_error(LB_EINVAL, "no topology");
  if (c->topo->n >= UINT32_MAX) return lb_error(LB_ERANGE, "%zu nodes: at most 2^32 - 2", c->topo->n);
  if (!lb_topo_is_connected(c->topo)) return lb_error(LB_ETOPO, "graph '%s' is not connected", c->topo->name);
  if (!(c->latency >= 0)) return lb_error(LB_EINVAL, "latency %g < 0", c->latency);
  if (!(c->jitter >= 0)) return lb_error(LB_EINVAL, "jitter %g < 0", c->jitter);
  if (!(c->cost_msg >= 0) || !(c->cost_byte >= 0)) return lb_error(LB_EINVAL, "message cost < 0");
  if (c->ctx_len > ((size_t)1 << 30) || c->result_len > ((size_t)1 << 30))
    return lb_error(LB_ERANGE, "contexts and results up to 1 GiB");
  if (!(c->quantum > 0)) return lb_error(LB_EINVAL, "quantum %g <= 0", c->quantum);
  if (c->load != LB_SIM_LOAD_TRACE && !(c->work > 0)) return lb_error(LB_EINVAL, "work %g <= 0", c->work);
  if (c->load == LB_SIM_LOAD_TRACE && !c->ntrace) return lb_error(LB_EINVAL, "empty arrival trace");
  for (size_t i = 0; c->speeds && i < c->topo->n; i++)
    if (!(c->speeds[i] > 0)) return lb_error(LB_EINVAL, "speed %g <= 0 at node %zu", c->speeds[i], i);
  for (size_t k = 0; c->load == LB_SIM_LOAD_TRACE && k < c->ntrace; k++)
    if (c->trace[k].node >= c->topo->n || !(c->trace[k].work > 0) || !(c->trace[k].t >= 0) ||
        !(c->trace[k].est >= 0 && c->trace[k].est < 1e30))
      return lb_error(LB_EINVAL, "trace arrival %zu: node %zu, work %g, time %g", k + 1,
                      c->trace[k].node, c->trace[k].work, c->trace[k].t);
  if (c->ncrashes >= c->topo->n) return lb_error(LB_EINVAL, "%zu failures of %zu nodes: one must live", c->ncrashes, c->topo->n);
  for (size_t k = 0; k < c->ncrashes; k++)
    if (c->crashes[k].node >= c->topo->n || !(c->crashes[k].t >= 0))
      return lb_error(LB_EINVAL, "failure %zu: node %zu at %g", k + 1, c->crashes[k].node, c->crashes[k].t);
  if (!(c->detect >= 0)) return lb_error(LB_EINVAL, "detection delay %g < 0", c->detect);
  for (size_t k = 0; k < c->norders; k++) {
    const lb_sim_order *o = &c->orders[k];
    if (o->node >= c->topo->n || o->dst >= c->topo->n || o->dst == o->node || o->count < 0 || !(o->t >= 0))
      return lb_error(LB_EINVAL, "order %zu: node %zu to %zu, %ld processes at %g", k + 1, o->node, o->dst,
                      o->count, o->t);
  }
  return LB_SUCCESS;
}

static void finish_checks(sim *S)
{
  int failures = S->r->crashed > 0;
  if (S->ndone != S->np) violation(S, "%zu of %zu processes finished", S->ndone, S->np);
  if (S->nsunk != S->np) violation(S, "%zu of %zu results reached the sink", S->nsunk, S->np);
  /* With failures an origin may be gone: its results reach the sink
   * off the protocol's path. */
  if (!failures && S->nhome != S->np) violation(S, "%zu of %zu results came home", S->nhome, S->np);
  if (S->inflight) violation(S, "%ld processes still in transit", S->inflight);
  for (size_t k = 0; k < S->np; k++)
    if (S->pr[k].where != AT_SINK && !(failures && S->pr[k].where == AT_LOST && S->pr[k].sunk)) {
      violation(S, "the bytes of process %zu's result are still held (at %zd)", k, (ssize_t)S->pr[k].where);
      break;
    }
  for (size_t i = 0; i < S->n; i++) {
    if (S->node[i].dead) continue;
    const lb_node *nd = S->node[i].nd;
    if (lb_rmtlb_lepn(nd) != -1 || lb_rmtlb_lipn(nd) != -1 || lb_rmtlb_rmtv(nd) != LB_NO_NODE ||
        lb_rmtlb_nrt_size(nd) || !lb_node_quiescent(nd) || lb_node_pending_results(nd))
    {
      violation(S, "node %zu not quiescent at the end: LEPN %ld LIPN %ld rmtv %zd NRT %zu",
                i, lb_rmtlb_lepn(nd), lb_rmtlb_lipn(nd), (ssize_t)lb_rmtlb_rmtv(nd), lb_rmtlb_nrt_size(nd));
      if (S->c->violation_log) lb_rmtlb_nrt_print(nd, S->c->violation_log);
    }
    if (lb_node_queue_len(nd)) violation(S, "node %zu still holds %zu processes", i, lb_node_queue_len(nd));
  }
}

/* Every live node idle: no open transaction and nothing queued (a
 * second copy of a process run again still runs to its end).  Asked
 * after every event at the end of a run, it starts where it last found
 * a busy node, which is usually busy still: not a scan of every node
 * per event.  One busy node answers no, so any start gives the same. */
static int all_quiet(sim *S)
{
  for (size_t k = 0, i = S->busy_at; k < S->n; k++, i = i + 1 < S->n ? i + 1 : 0)
    if (!S->node[i].dead && (!lb_node_quiescent(S->node[i].nd) || lb_node_queue_len(S->node[i].nd))) {
      S->busy_at = i;
      return 0;
    }
  return 1;
}

/* Failures scheduled or not yet detected keep the run going. */
static int pending_failures(const sim *S)
{
  return S->r->crashed < S->c->ncrashes || lb_sink_live_hosts(S->sink) + S->r->crashed != S->n;
}

/* Does (t, seq) come before (u, useq)? */
static int earlier(double t, uint64_t seq, double u, uint64_t useq)
{
  return t < u || (t == u && seq < useq);
}

/* Node of the j-th arrival. */
static size_t arr_node(const sim *S, size_t j)
{
  size_t k = S->arr_order ? S->arr_order[j] : j;
  return S->c->load == LB_SIM_LOAD_TRACE ? S->c->trace[k].node : S->pr[k].origin;
}

/* Arrivals are not in the queue, so prefetch() does not see them: fetch
 * the nodes of the ones a few to come in steps as it does (driver
 * state; node and runtime; run queue and policy state). */
#define ARR_AHEAD 16

/* The second step for one node: its node record and its runtime (which
 * may straddle two lines). */
static void prefetch_node(const simnode *x)
{
  lb_node_prefetch(x->nd, 0);
  __builtin_prefetch(x->rt);
  __builtin_prefetch((const char *)x->rt + 64);
}

static void prefetch_arrivals(const sim *S)
{
  size_t j = S->next_arr;
  if (j + 3 * ARR_AHEAD < S->np) __builtin_prefetch(&S->node[arr_node(S, j + 3 * ARR_AHEAD)]);
  if (j + 2 * ARR_AHEAD < S->np) prefetch_node(&S->node[arr_node(S, j + 2 * ARR_AHEAD)]);
  if (j + ARR_AHEAD < S->np) lb_node_prefetch(S->node[arr_node(S, j + ARR_AHEAD)].nd, 1);
}

/* The next event into *e (*have = 0 when there is none): the earliest by
 * (time, insertion number) of the heap's top, the next arrival and the
 * next first check point. */
static int next_event(sim *S, sim_ev *e, int *have)
{
  const lb_sim_config *c = S->c;
  const sim_ev *top;
  int rc = sim_queue_top(&S->h, &top);
  if (rc) return rc;
  size_t k = S->next_arr < S->np ? (S->arr_order ? S->arr_order[S->next_arr] : S->next_arr) : S->np;
  double ta = k < S->np && c->load == LB_SIM_LOAD_TRACE ? c->trace[k].t : 0;
  uint64_t tick = S->tick_seq + S->next_tick;
  int arr = k < S->np && (!top || sim_ev_before(ta, k, top)) &&
            (S->next_tick >= S->n || earlier(ta, k, 0, tick));
  *have = 1;
  if (arr) {
    size_t i = arr_node(S, S->next_arr);
    lb_proc *p;
    prefetch_arrivals(S);
    memcpy(S->ctxbuf, &S->pr[k].work0, sizeof(double));
    rc = lb_proc_alloc(k, i, S->pr[k].work0, S->ctxbuf, ctx_len(S), &p);
    if (rc) return rc;
    if (c->load == LB_SIM_LOAD_TRACE) p->est = (float)c->trace[k].est;
    S->next_arr++;
    *e = (sim_ev){ .t = ta, .seq = k, .kind = SIM_EV_ARRIVE, .node = i, .proc = p };
    return LB_SUCCESS;
  }
  if (S->next_tick < S->n && (!top || sim_ev_before(0, tick, top))) {
    *e = (sim_ev){ .t = 0, .seq = tick, .kind = SIM_EV_TICK, .node = S->next_tick++ };
    return LB_SUCCESS;
  }
  return sim_queue_pop(&S->h, e, have);
}

/* Events a few pops ahead are fetched into the cache in four steps,
 * each a pointer the step before brought in: the node's driver state;
 * its runtime and node (and a message's body); the node's run queue and
 * policy state; the processes at the queue's head.  A large run
 * otherwise waits on a cache miss at each. */
#define AHEAD 16

static void prefetch(const sim *S)
{
  static const size_t k[5] = { AHEAD, 2 * AHEAD, 3 * AHEAD, 4 * AHEAD, 6 * AHEAD };
  const sim_ev *e[5];
  sim_queue_ahead(&S->h, k, e, 5);
  if (e[4]) __builtin_prefetch(e[4]);   /* the event, in a bucket made a time unit ago */
  if (e[3]) __builtin_prefetch(&S->node[e[3]->node]);
  if (e[2]) {
    prefetch_node(&S->node[e[2]->node]);
    if (e[2]->kind == SIM_EV_DELIVER) __builtin_prefetch(e[2]->msg);
  }
  if (e[1]) {
    lb_node_prefetch(S->node[e[1]->node].nd, 1);
    /* Where its next quantum's end, or a message of one hop, will go. */
    sim_queue_prefetch_push(&S->h, e[1]->t + S->c->quantum);
    /* A quantum shorter than a whole one is the process's last: its
     * record will be written (quantum_end). */
    if (e[1]->kind == SIM_EV_QEND && e[1]->work < S->c->quantum * speed_of(S, e[1]->node))
      __builtin_prefetch(&S->pr[e[1]->id]);
  }
  if (e[0]) lb_node_prefetch(S->node[e[0]->node].nd, 2);
}

static int run(sim *S)
{
  const lb_sim_config *c = S->c;
  unsigned long cap = c->max_events ? c->max_events : 200000000ul;
  int rc = LB_SUCCESS;
  if (c->sample_dt > 0 && c->load_csv) {
    fprintf(c->load_csv, "time,queued,max,min,heavy,light\n");
    rc = sim_queue_push(&S->h, (sim_ev){ .t = 0, .kind = SIM_EV_SAMPLE });
  }
  double done_at = -1;
  int snapped = !(c->snapshot_at > 0 && c->snapshot);
  sim_ev e;
  int have;
  while (!rc && !(rc = next_event(S, &e, &have)) && have) {
    prefetch(S);
    if (!snapped && e.t >= c->snapshot_at) {
      for (size_t i = 0; i < S->n; i++) c->snapshot[i] = (long)lb_node_queue_len(S->node[i].nd);
      S->r->stopped = 1;
      sim_ev_free(&e);
      break;
    }
    if (++S->r->events > cap) {
      violation(S, "no termination after %lu events (t=%g)", cap, e.t);
      sim_ev_free(&e);
      break;
    }
    switch (e.kind) {
    case SIM_EV_DELIVER:
      rc = deliver(S, &e);
      break;
    case SIM_EV_CRASH:
      rc = crash(S, e.node);
      break;
    case SIM_EV_DETECT:
      rc = detect(S, e.node, e.t);
      break;
    case SIM_EV_TIMER:
      /* Polling nodes, as the worker, fire timers between quanta only,
       * after the messages (quantum_end). */
      if (S->node[e.node].dead || (c->poll && S->node[e.node].busy)) break;
      rc = lb_rt_fire(S->node[e.node].rt, e.t);
      if (rc) rc = lb_error_wrap(rc, "t=%g node %zu", e.t, (size_t)e.node);
      if (!rc) rc = kick(S, e.node, e.t);
      break;
    case SIM_EV_ARRIVE: {
      if (S->node[e.node].dead) { S->r->lost++; lb_proc_free(e.proc); break; }
      lb_event ev = { .type = LB_EV_ARRIVE, .proc = e.proc };
      rc = step(S, e.node, &ev, e.t);
      if (!rc) rc = kick(S, e.node, e.t);
      break;
    }
    case SIM_EV_ORDER: {
      if (S->node[e.node].dead) break;
      lb_event ev = { .type = LB_EV_ORDER, .dst = (size_t)e.id, .count = (long)e.work };
      rc = step(S, e.node, &ev, e.t);
      if (!rc) rc = kick(S, e.node, e.t);
      break;
    }
    case SIM_EV_QEND:
      rc = quantum_end(S, &e);
      break;
    case SIM_EV_TICK:
      rc = kick(S, e.node, e.t);
      break;
    case SIM_EV_SAMPLE:
      sample(S, e.t);
      if (S->nhome < S->np) rc = sim_queue_push(&S->h, (sim_ev){ .t = e.t + c->sample_dt, .kind = SIM_EV_SAMPLE });
      break;
    }
    if ((S->nhome == S->np || S->r->crashed) && S->nsunk == S->np && !S->msgs_inflight && !pending_failures(S)) {
      if (done_at < 0) done_at = e.t;
      if (all_quiet(S)) break;
      /* Open transactions must close on their own timers soon after the
       * work is done; waiting much longer means a lock is stuck. */
      if (e.t > 2 * done_at + 1e4 * (c->latency + 1)) break;
    }
  }
  return rc;
}

static const lb_rt_ops sim_ops = { .send = cb_send, .home = cb_home, .deliver = cb_deliver,
                                   .wake = cb_wake };
static const lb_rt_ops sim_ops_traced = { .send = cb_send, .home = cb_home, .deliver = cb_deliver,
                                          .wake = cb_wake, .trace = cb_trace };

/* The time of one hop of a small message, worst-case jitter included,
 * and, where nodes take messages between quanta only, a whole quantum
 * of waiting: what Tmax and probe timeouts rest on. */
static double hop_time(const lb_sim_config *c)
{
  lb_msg probe = { .type = LB_MSG_RM };
  double hop = c->latency * (1 + c->jitter) + (c->bandwidth > 0 ? (double)lb_msg_size(&probe) / c->bandwidth : 0)
             + (c->poll ? c->quantum : 0);
  return hop > 0 ? hop : 1;
}

/* The event queue's buckets (sim_queue.h): some 128 events each at
 * about one event a node every quantum or hop (late in a run, when most
 * nodes are idle, far fewer: looking ahead then walks few empty
 * buckets; with 16 a run of 262 144 nodes took a quarter longer), and
 * a ring that covers twice the longer of a quantum and a hop with its
 * jitter.  Only speed depends on this, never the order of events. */
#define BUCKET_EVENTS 128
static size_t queue_shape(const lb_sim_config *c, size_t n, double *w)
{
  double hop = c->latency * (1 + c->jitter), step = c->quantum > hop ? c->quantum : hop;
  double often = hop > 0 && hop < c->quantum ? hop : c->quantum;
  *w = 1;
  while (*w > BUCKET_EVENTS * often / (double)n && *w > 0x1p-40) *w /= 2;
  while (*w < BUCKET_EVENTS * often / (double)n / 2 && *w < 0x1p40) *w *= 2;
  size_t nb = 1024;
  while ((double)nb * *w < 2 * step && nb < ((size_t)1 << 20)) nb *= 2;
  return nb;
}

int lb_sim_run(const lb_sim_config *c, lb_sim_result *res)
{
  memset(res, 0, sizeof *res);
  int rc = check_config(c);
  if (rc) return rc;
  sim S = { .c = c, .n = c->topo->n, .r = res };
  S.np = c->load == LB_SIM_LOAD_TRACE ? c->ntrace
       : c->nproc ? c->nproc : (size_t)(c->node.capacity > 0 ? c->node.capacity : 1) * S.n * 2;
  res->nproc = S.np;
  lb_codec_limits_default(&S.lim, S.n);
  /* lb/'s records of this run come from the arena, and go back to it
   * before it goes (done:). */
  sim_arena *arena = NULL;
  if ((rc = sim_arena_alloc(&arena))) return rc;
  lb_mem_set(&(lb_mem){ .alloc = sim_arena_get, .free = sim_arena_put, .ctx = arena });
  S.node = sim_huge_calloc(S.n * sizeof *S.node);
  S.ctxbuf = calloc(ctx_len(&S), 1);
  S.pr = sim_huge_calloc((S.np ? S.np : 1) * sizeof *S.pr);
  S.known = calloc(S.n, 1);
  S.topo = c->topo;
  if (!S.node || !S.ctxbuf || !S.pr || !S.known || lb_sink_alloc(S.np, S.n, &S.sink)) {
    rc = lb_error(LB_ENOMEM, "simulator state for %zu nodes, %zu processes", S.n, S.np);
    goto done;
  }
  for (size_t k = 0; k < S.np; k++) S.pr[k].where = AT_NOWHERE;
  if ((rc = lb_rng_alloc_stream(c->seed, 1u << 21, &S.rng))) goto done;
  double bw;
  size_t nb = queue_shape(c, S.n, &bw);
  if ((rc = sim_queue_init(&S.h, bw, nb))) goto done;
  lb_node_params p = c->node;
  if (!(p.hop_time > 0)) p.hop_time = hop_time(c);
  p.seed = c->seed;
  if ((rc = lb_policy_prepare(c->policy, c->topo, &p))) goto done;
  double sum_speed = 0;
  for (size_t i = 0; i < S.n && !rc; i++) {
    double speed = c->speeds ? c->speeds[i] : p.speed;
    sum_speed += speed;
    S.node[i].S = &S;
    /* One set of parameters for every node (freed after them, below). */
    rc = lb_rt_alloc_shared(c->policy, i, c->topo, &p, speed, c->msg_trace ? &sim_ops_traced : &sim_ops,
                            &S.node[i], &S.node[i].rt);
    if (!rc) S.node[i].nd = lb_rt_node(S.node[i].rt);
  }
  if (rc || (rc = setup_load(&S, res))) goto done;
  optimum(&S, res);
  /* Every node gets a first check point at time 0, after the initial
   * arrivals, so periodic policies start even on a node that is busy
   * (next_event makes them). */
  S.tick_seq = S.h.seq;
  S.h.seq += S.n;
  if ((rc = run(&S))) goto done;
  res->ideal = res->total_work / sum_speed;
  res->makespan = S.last_sunk;
  if (!res->stopped) finish_checks(&S);
  for (size_t i = 0; i < S.n; i++) {
    const lb_node_stats *st = lb_node_stats_get(S.node[i].nd);
    for (int k = 0; k < LB_MSG_NTYPES; k++) { res->sent[k] += st->sent[k]; res->messages += st->sent[k]; }
    res->bytes += st->bytes;
    res->migrated += st->migrated;
    res->migrated_started += st->migrated_started;
    res->ctx_bytes += st->ctx_bytes;
    res->invocations += st->invocations;
    res->episodes += st->episodes;
    res->orphans += st->orphans;
    for (int k = 0; k < 8; k++) res->placed[k] += st->placed[k];
    res->dissolved += st->dissolved;
  }
done:
  for (size_t i = 0; S.node && i < S.n; i++) {
    lb_rt_free(S.node[i].rt);
    for (size_t k = 0; k < S.node[i].parked.n; k++) lb_msg_free(S.node[i].parked.v[k]);
    free(S.node[i].parked.v);
  }
  sim_queue_free(&S.h);
  lb_rng_free(S.rng);
  free(S.wire);
  free(S.node); free(S.ctxbuf);
  free(S.pr); free(S.known);
  free(S.arr_order);
  lb_sink_free(S.sink);
  for (size_t k = 0; k < S.nrepaired; k++) lb_topo_free(S.repaired[k]);
  free(S.repaired);
  lb_mem_set(NULL);
  sim_arena_free(arena);
  return rc;
}

int lb_sim_read_trace(const char *path, size_t nnodes, lb_sim_arrival **out, size_t *n)
{
  *out = NULL;
  *n = 0;
  FILE *f = fopen(path, "r");
  if (!f) return lb_error(LB_EIO, "cannot open trace '%s'", path);
  lb_sim_arrival *v = NULL;
  size_t cap = 0, line = 0;
  char buf[512];
  int rc = LB_SUCCESS;
  while (fgets(buf, sizeof buf, f)) {
    line++;
    char *s = buf;
    while (*s == ' ' || *s == '\t') s++;
    if (*s == '#' || *s == '\n' || !*s) continue;
    double t, w, est = 0;
    unsigned long node;
    char extra;
    int got = sscanf(s, "%lf %lu %lf %lf %c", &t, &node, &w, &est, &extra);
    if ((got != 3 && got != 4) || !(t >= 0) || !(w > 0) || node >= nnodes || !(est >= 0 && est < 1e30)) {
      rc = lb_error(LB_EFORMAT, "%s:%zu: expected 'time node work [estimate]' with time >= 0, node < %zu, "
                    "work > 0, estimate >= 0", path, line, nnodes);
      break;
    }
    if (*n == cap) {
      cap = cap ? 2 * cap : 64;
      lb_sim_arrival *nv = realloc(v, cap * sizeof *nv);
      if (!nv) { rc = lb_error(LB_ENOMEM, "trace"); break; }
      v = nv;
    }
    v[(*n)++] = (lb_sim_arrival){ t, node, w, est };
  }
  fclose(f);
  if (!rc && !*n) rc = lb_error(LB_EFORMAT, "%s: no arrivals", path);
  if (rc) { free(v); *n = 0; return rc; }
  *out = v;
  return LB_SUCCESS;
}
