/* worker_host.c: one logical host of the task farm, over any transport
 * (farm_xport.h); see worker_host.h.
 *
 * Everything the host does to a process, a message, a result or a
 * timer goes through its node (lb_rt.h, the runtime the simulator runs
 * too): the host only runs quanta of the node's current process,
 * turns messages into events, and carries out the node's outputs:
 *   SEND     -> the message's bytes (lb_codec), after the result payload
 *               its reference says travels with it;
 *   DELIVER  -> the result's payload to the master;
 *   HOME     -> counted;
 *   timers   -> the runtime's heap, fired between quanta.
 * A process that has run keeps a live copy here (its cursor and partial
 * results), saved into its context only when it leaves. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "worker_host.h"
#include "worker_trace.h"
#include "farm_throttle.h"
#include "app.h"
#include "cli.h"
#include "lb_codec.h"
#include "lb_errno.h"
#include "lb_rt.h"
#include "lb_wire.h"

typedef struct live {
  uint64_t pid;
  app_task *t;
} live;

/* A result's payload that came ahead of the message that refers to it
 * (its sender sends the two in that order): from which host. */
typedef struct ahead {
  uint64_t pid;
  int from;
  double at;
  int said;
} ahead;

/* A payload whose message has not come after this long is named on
 * stderr, once: the host holds it (its heartbeats say so) but cannot
 * pass it on, and only the message's sender can be at fault. */
#define AHEAD_SAY_S 10.0

typedef struct worker {
  const farm_xport *xp; /* the transport, which holds the result payloads */
  uint32_t run;
  int parent, stop;
  farm_setup s;
  lb_topo *topo;
  lb_codec_limits lim;
  lb_rt *rt;
  live *lv; /* processes that have run here */
  size_t nlv, caplv;
  int64_t c[FARM_NCOUNTERS];
  int throttle;
  double busy, cpu;
  double msg, idle;    /* wall time with messages; waiting with nothing to run */
  int msg_depth;       /* handling nests sends: time the outermost only */
  double first, last;  /* wall clock at the first and last quantum */
  double origin;       /* node time 0 on cli_now's clock: the master's
                             * start (SETUP's t0, on the clock hosts share) */
  double units_q;      /* units per quantum, learned */
  worker_trace tr;     /* the trace's rows (worker_trace.h) */
  unsigned char *down; /* hosts known to have failed: what they send is dropped */
  uint64_t quanta;     /* quanta run: the progress the lease reports */
  double next_beat;    /* when the next HEARTBEAT is due (cli_now) */
  double echo_sent;    /* an ECHO through the daemon waits since then (0: none) */
  ahead *ah;           /* payloads whose message has not come yet */
  size_t nah, capah;
  int deaf;           /* the daemon stopped answering: no renewals (said once) */
  lb_topo **repaired; /* the graphs used since (owned; the node borrows the last) */
  size_t nrepaired;
} worker;

static double node_now(const worker *w) { return cli_now() - w->origin; }

static int xsend(worker *w, int id, int tag, const void *body, size_t len)
{
  return w->xp->send(w->xp->ctx, id, tag, body, len);
}

static int host_of(const worker *w, int tid)
{
  for (uint32_t i = 0; i < w->s.nhosts; i++)
    if (w->s.tids[i] == tid) return (int)i;
  return tid == w->parent ? -2 : -1;
}

/* The lease (lb_lease.h): a HEARTBEAT with this host's progress every
 * lease.period by its own clock.  Called between quanta and between
 * messages, each far shorter than the period (a quantum lasts
 * quantum / speed of wall time: 33 ms at speed 0.30 against 500 ms).
 * The heartbeat goes straight to the master, so it would go on while
 * this host's pvmd is stopped and the host cut off from the others:
 * an ECHO through the pvmd each period must come back within half a
 * lease, or the host renews no lease (its master fences it). */
static int daemon_deaf(worker *w, double now)
{
  if (!w->xp->echo) return 0;
  if (!w->echo_sent) {
    if (w->xp->echo(w->xp->ctx) == 0) w->echo_sent = now;
    return 0;
  }
  int deaf = now - w->echo_sent > w->s.par.lease.duration / 2;
  if (deaf && !w->deaf)
    fprintf(stderr, "%s: host %u: no echo through its pvmd for %.1f s: it renews no lease\n", cli_prog(), w->s.me,
            now - w->echo_sent);
  w->deaf = deaf;
  return deaf;
}

static void on_echo(worker *w, int from)
{
  if (from != (int)w->s.me) return;
  if (w->deaf) fprintf(stderr, "%s: host %u: its pvmd answers again\n", cli_prog(), w->s.me);
  w->echo_sent = 0;
  w->deaf = 0;
}

static void say_waiting(worker *w, double now)
{
  for (size_t k = 0; k < w->nah; k++) {
    ahead *a = &w->ah[k];
    if (a->said || now - a->at < AHEAD_SAY_S) continue;
    a->said = 1;
    fprintf(stderr,
            "%s: host %u: the result of process %llu came from host %d %.1f s ago, and the message that "
            "refers to it has not\n",
            cli_prog(), w->s.me, (unsigned long long)a->pid, a->from, now - a->at);
  }
}

static void beat(worker *w)
{
  double now = cli_now();
  if (now < w->next_beat) return;
  say_waiting(w, now);
  double p = w->s.par.lease.period;
  /* Late (a long message, a descheduled host): the next one a period on. */
  w->next_beat = now - w->next_beat < p ? w->next_beat + p : now + p;
  if (daemon_deaf(w, now)) return;
  const lb_node *nd = lb_rt_node(w->rt);
  farm_beat b = {.me = w->s.me,
                 .quanta = w->quanta,
                 .units = (uint64_t)w->c[FARM_C_UNITS],
                 .held = lb_node_queue_len(nd) + w->xp->held(w->xp->ctx, NULL, 0)};
  unsigned char buf[FARM_BEAT_LEN];
  size_t len;
  if (!farm_beat_encode(&b, buf, sizeof buf, &len)) xsend(w, w->parent, FARM_HEARTBEAT, buf, len);
}

/* Time spent with messages: receiving, handling and the sends that
 * follow.  Handling nests sends, so only the outermost call counts. */
static double msg_begin(worker *w) { return w->msg_depth++ ? 0 : cli_now(); }
static void msg_end(worker *w, double t0)
{
  if (!--w->msg_depth) w->msg += cli_now() - t0;
}

/* A payload's trace row at time t: sent to a host or lbmaster (dst -1),
 * or taken in. */
static void trace_payload(worker *w, lb_trace_ev ev, int type, double t, long src, long dst, uint64_t pid,
                          long long bytes)
{
  lb_trace_row r;
  lb_trace_payload(&r, ev, type, t, w->s.me, src, dst, pid, bytes);
  worker_trace_put(&w->tr, &r);
}

/* ---- live processes ---- */
static live *live_find(worker *w, uint64_t pid)
{
  for (size_t k = 0; k < w->nlv; k++)
    if (w->lv[k].pid == pid) return &w->lv[k];
  return NULL;
}

static app_task *live_take(worker *w, uint64_t pid)
{
  live *l = live_find(w, pid);
  if (!l) return NULL;
  app_task *t = l->t;
  *l = w->lv[--w->nlv];
  return t;
}

/* The live copy of p, made from its context the first time it runs
 * here; NULL (with a message) when the context cannot be loaded. */
static app_task *live_get(worker *w, const lb_proc *p)
{
  live *l = live_find(w, p->id);
  if (l) return l->t;
  app_task *t;
  if (app_task_load(p->ctx, p->ctx_len, &t)) return NULL;
  /* The result is filed under the context's own id and origin. */
  if (app_task_id(t) != p->id || app_task_origin(t) < 0 || (size_t)app_task_origin(t) != p->origin) {
    lb_error(LB_EFORMAT, "context of process %llu from host %d, not %llu from %zu", (unsigned long long)app_task_id(t),
             app_task_origin(t), (unsigned long long)p->id, p->origin);
    app_task_free(t);
    return NULL;
  }
  if (w->nlv == w->caplv) {
    size_t cap = w->caplv ? 2 * w->caplv : 16;
    live *v = realloc(w->lv, cap * sizeof *v);
    if (!v) cli_die(CLI_EXIT_FAIL, "out of memory");
    w->lv = v;
    w->caplv = cap;
  }
  w->lv[w->nlv++] = (live){p->id, t};
  return t;
}

/* ---- the runtime's callbacks ---- */
static int cb_leaving(void *ctx, lb_proc *p)
{
  worker *w = ctx;
  app_task *t = live_take(w, p->id);
  if (!t) return LB_SUCCESS; /* never ran here: its context is current */
  app_task_add_hop(t);
  size_t n = app_task_blob_size(t);
  unsigned char *blob = malloc(n);
  int rc = !blob ? lb_error(LB_ENOMEM, "context of %zu bytes", n) : app_task_save(t, blob, n);
  if (!rc) rc = lb_proc_set_ctx(p, blob, n);
  free(blob);
  app_task_free(t);
  return rc;
}

static int send_payload(worker *w, uint64_t pid, int tid, int tag)
{
  double t = node_now(w); /* before it leaves: its receiver may read its clock first */
  long bytes = w->xp->forward(w->xp->ctx, pid, tid, tag);
  if (bytes == -1)
    return lb_error(LB_ESTATE, "host %u: no payload here for the result of process %llu", w->s.me,
                    (unsigned long long)pid);
  if (bytes < 0)
    return lb_error(LB_EIO, "host %u: cannot send the result of process %llu", w->s.me, (unsigned long long)pid);
  trace_payload(w, LB_TRACE_SEND, tag == FARM_RESULT ? LB_TRACE_DELIVER : LB_TRACE_PAYLOAD, t, w->s.me,
                tag == FARM_RESULT ? -1 : host_of(w, tid), pid, bytes);
  return LB_SUCCESS;
}

static int cb_send(void *ctx, lb_msg *m, double now)
{
  (void)now;
  worker *w = ctx;
  int rc = LB_SUCCESS, tid = w->s.tids[m->hop_dst];
  if (lb_msg_type_has_result(m->type) && m->res.payload) {
    rc = send_payload(w, m->res.pid, tid, FARM_PAYLOAD);
    w->c[FARM_C_RELAYED]++;
  }
  unsigned char *buf;
  size_t len;
  int erc = lb_codec_encode_alloc(m, w->run, &buf, &len);
  if (!erc) {
    if (xsend(w, tid, FARM_LBMSG, buf, len) < 0)
      erc = lb_error(LB_EIO, "host %u: cannot send a %s to host %zu", w->s.me, lb_msg_type_name(m->type), m->hop_dst);
    free(buf);
  }
  lb_msg_free(m);
  return rc ? rc : erc;
}

static int cb_deliver(void *ctx, const lb_result_ref *r, double now)
{
  (void)now;
  worker *w = ctx;
  w->c[FARM_C_DELIVERED]++;
  return send_payload(w, r->pid, w->parent, FARM_RESULT);
}

static int cb_home(void *ctx, const lb_result_ref *r, double now)
{
  (void)r;
  (void)now;
  ((worker *)ctx)->c[FARM_C_HOMED]++;
  return LB_SUCCESS;
}

static void cb_trace(void *ctx, const char *row) { worker_trace_row(&((worker *)ctx)->tr, row); }

/* A message's number in the trace: its envelope's sequence number, which
 * the receiver reads (farm_in.seq). */
static uint32_t cb_msg_id(void *ctx) { return (uint32_t)farm_auth_next_seq(((worker *)ctx)->xp->auth); }

/* [1]: with the trace's message rows (SETUP's trace). */
static const lb_rt_ops worker_ops[2] = {
    {.send = cb_send, .leaving = cb_leaving, .home = cb_home, .deliver = cb_deliver},
    {.send = cb_send,
     .leaving = cb_leaving,
     .home = cb_home,
     .deliver = cb_deliver,
     .trace = cb_trace,
     .msg_id = cb_msg_id},
};

static void step(worker *w, const lb_event *ev)
{
  double t0 = msg_begin(w);
  if (lb_rt_step(w->rt, ev, node_now(w)))
    fprintf(stderr, "%s: host %u: policy step: %s\n", cli_prog(), w->s.me, lb_errmsg());
  msg_end(w, t0);
}

static void fire_timers(worker *w)
{
  double at;
  if (!lb_rt_next_timer(w->rt, &at) || at > node_now(w)) return;
  double t0 = msg_begin(w);
  if (lb_rt_fire(w->rt, node_now(w)))
    fprintf(stderr, "%s: host %u: policy step: %s\n", cli_prog(), w->s.me, lb_errmsg());
  msg_end(w, t0);
}

/* ---- set-up ---- */
static int setup(worker *w, const farm_in *in)
{
  if (farm_setup_decode(in->body, in->len, &w->s)) {
    fprintf(stderr, "%s: malformed SETUP from t%x dropped: %s\n", cli_prog(), in->src, lb_errmsg());
    return -1;
  }
  /* Node time counts from the master's start, measured once on the
   * calendar clock the hosts share, then on this host's monotonic one: a
   * day off, timers would never or always be due. */
  double skew = w->s.t0 - cli_epoch();
  w->origin = cli_now() + skew;
  int rc = skew > 86400 || skew < -86400 ? lb_error(LB_ERANGE, "start time %.0f s off this host's clock", skew) : 0;
  size_t(*e)[2] = malloc((w->s.nedges + 1) * sizeof *e);
  if (!e) cli_die(CLI_EXIT_FAIL, "out of memory");
  for (uint32_t k = 0; k < w->s.nedges; k++) {
    e[k][0] = w->s.edges[k][0];
    e[k][1] = w->s.edges[k][1];
  }
  if (!rc) rc = lb_topo_from_edges(w->s.nhosts, (const size_t(*)[2])e, w->s.nedges, "farm", &w->topo);
  free(e);
  if (!rc && !lb_topo_is_connected(w->topo)) rc = lb_error(LB_ETOPO, "the hosts' graph is not connected");
  if (!rc) rc = lb_rt_alloc(w->s.policy, w->s.me, w->topo, &w->s.par, &worker_ops[w->s.trace != 0], w, &w->rt);
  if (rc) {
    fprintf(stderr, "%s: host %u: SETUP refused: %s\n", cli_prog(), w->s.me, lb_errmsg());
    lb_topo_free(w->topo);
    w->topo = NULL;
    farm_setup_clear(&w->s);
    return -1;
  }
  lb_codec_limits_default(&w->lim, w->s.nhosts);
  if (!(w->down = calloc(w->s.nhosts, 1))) cli_die(CLI_EXIT_FAIL, "out of memory");
  char why[256];
  int m = farm_throttle_start(w->s.par.speed, (farm_throttle_mode)w->s.throttle, w->run, w->s.me, why, sizeof why);
  if (m < 0) cli_die(CLI_EXIT_FAIL, "host %u: cgroup throttling failed: %s", w->s.me, why);
  if (why[0] && w->s.par.speed < 1)
    fprintf(stderr, "%s: host %u: duty-cycle throttling (%s)\n", cli_prog(), w->s.me, why);
  w->throttle = m;
  worker_trace_start(&w->tr, w->s.trace != 0, w->s.me, node_now(w));
  return 0;
}

/* ---- messages ---- */
static int on_tasks(worker *w, const farm_in *in)
{
  lb_proc **p;
  size_t n;
  if (farm_tasks_decode(in->body, in->len, w->s.me, &p, &n)) return -1;
  for (size_t k = 0; k < n; k++) {
    /* A fresh process's work is its application's declared estimate. */
    p[k]->est = (float)p[k]->work;
    lb_event ev = {.type = LB_EV_ARRIVE, .proc = p[k]};
    step(w, &ev);
    w->c[FARM_C_RECEIVED]++;
  }
  free(p);
  return 0;
}

static void payload_claimed(worker *w, uint64_t pid);

static int on_lbmsg(worker *w, const farm_in *in, int from)
{
  lb_msg *m;
  if (lb_codec_decode(in->body, in->len, w->run, &w->lim, &m)) return -1;
  if (m->hop_src != (size_t)from || m->hop_dst != w->s.me) {
    lb_error(LB_EFORMAT, "%s %zu -> %zu from host %d", lb_msg_type_name(m->type), m->hop_src, m->hop_dst, from);
    lb_msg_free(m);
    return -1;
  }
  m->trace_id = (uint32_t)in->seq;
  if (lb_msg_type_has_result(m->type) && m->res.payload) payload_claimed(w, m->res.pid);
  lb_event ev = {.type = LB_EV_MSG, .msg = m};
  step(w, &ev);
  return 0;
}

static int on_payload(worker *w, farm_in *in, int from)
{
  farm_payload_head h;
  if (farm_payload_head_get(in->body, in->len, w->s.nhosts, &h)) return -1;
  trace_payload(w, LB_TRACE_RECV, LB_TRACE_PAYLOAD, node_now(w), from, w->s.me, h.pid,
                (long long)(FARM_ENVELOPE + FARM_PAYLOAD_HEAD + h.len));
  if (w->xp->keep(w->xp->ctx, h.pid, in)) {
    lb_error(LB_ESTATE, "a second payload for process %llu", (unsigned long long)h.pid);
    return -1;
  }
  if (w->nah == w->capah) {
    size_t cap = w->capah ? 2 * w->capah : 16;
    ahead *v = realloc(w->ah, cap * sizeof *v);
    if (!v) cli_die(CLI_EXIT_FAIL, "out of memory");
    w->ah = v;
    w->capah = cap;
  }
  w->ah[w->nah++] = (ahead){h.pid, from, cli_now(), 0};
  return 0;
}

/* The message that refers to a payload came: the node has it now. */
static void payload_claimed(worker *w, uint64_t pid)
{
  for (size_t k = 0; k < w->nah; k++)
    if (w->ah[k].pid == pid) {
      w->ah[k] = w->ah[--w->nah];
      return;
    }
}

/* Host d is down: a payload it sent ahead of a message that will never
 * come is dropped, so that no inventory names it (its process runs
 * again, as one whose message was lost with d). */
static void drop_orphans(worker *w, uint32_t d)
{
  for (size_t k = 0; k < w->nah;) {
    if (w->ah[k].from != (int)d) {
      k++;
      continue;
    }
    uint64_t pid = w->ah[k].pid;
    w->ah[k] = w->ah[--w->nah];
    if (w->xp->drop(w->xp->ctx, pid)) continue;
    w->c[FARM_C_DROPPED]++;
    fprintf(stderr,
            "%s: host %u: the result of process %llu, which host %u sent ahead of its message, dropped: "
            "host %u is down\n",
            cli_prog(), w->s.me, (unsigned long long)pid, d, d);
  }
}

/* Hosts failed: the node learns of each, with the graph the survivors
 * use (the same lb_topo_repair every host and the master compute), and
 * the master gets this host's inventory: its queue and the results it
 * holds. */
static int on_down(worker *w, const farm_in *in)
{
  uint64_t epoch;
  uint32_t *hosts, n;
  if (farm_down_decode(in->body, in->len, w->s.nhosts, &epoch, &hosts, &n)) return -1;
  int rc = 0;
  for (uint32_t k = 0; k < n && !rc; k++) {
    uint32_t d = hosts[k];
    if (d == w->s.me) {
      w->stop = 2;
      break;
    } /* the master gave up on us */
    if (w->down[d]) continue;
    w->down[d] = 1;
    drop_orphans(w, d);
    lb_topo *t, **v = realloc(w->repaired, (w->nrepaired + 1) * sizeof *v);
    if (!v || lb_topo_repair(w->topo, w->down, &t)) cli_die(CLI_EXIT_FAIL, "host %u: %s", w->s.me, lb_errmsg());
    w->repaired = v;
    w->repaired[w->nrepaired++] = t;
    lb_event ev = {.type = LB_EV_DOWN, .dst = d, .topo = t};
    step(w, &ev);
  }
  free(hosts);
  if (w->stop) return 0;
  const lb_node *nd = lb_rt_node(w->rt);
  size_t nq = lb_node_queue_len(nd), ns = w->xp->held(w->xp->ctx, NULL, 0);
  uint64_t *pids = malloc((nq + ns + 1) * sizeof *pids);
  if (!pids) cli_die(CLI_EXIT_FAIL, "out of memory");
  lb_node_queue_ids(nd, pids, nq);
  w->xp->held(w->xp->ctx, pids + nq, ns);
  unsigned char *buf;
  size_t len;
  if (!farm_inventory_encode(epoch, pids, (uint32_t)(nq + ns), &buf, &len)) {
    xsend(w, w->parent, FARM_INVENTORY, buf, len);
    free(buf);
  }
  free(pids);
  return 0;
}

static int on_order(worker *w, const farm_in *in)
{
  farm_order o;
  if (farm_order_decode(in->body, in->len, w->s.nhosts, &o)) return -1;
  lb_event ev = {.type = LB_EV_ORDER, .dst = o.dst, .count = (long)o.count};
  step(w, &ev);
  return 0;
}

/* The master's clock request (master/master_trace.c): answered at once
 * with this host's clocks, read as it is taken in. */
static int on_clock(worker *w, const farm_in *in)
{
  double mono = cli_now();
  farm_clock c;
  unsigned char buf[FARM_CLOCK_MAX];
  size_t len;
  if (farm_clock_decode(in->body, in->len, &c)) return -1;
  if (c.reply) return lb_error(LB_EFORMAT, "a clock reply from the master");
  if (worker_trace_clock(&c, mono - w->origin, mono, buf, &len)) return -1;
  xsend(w, w->parent, FARM_CLOCK, buf, len);
  return 0;
}

/* The master exited, says a notice: the worker leaves with it, once the
 * pvmd confirms it (a task can send such a notice too). */
static int parent_exited(worker *w, const farm_in *in)
{
  int g = in->notice == w->parent && w->xp->gone ? w->xp->gone(w->xp->ctx, in, w->parent) : 0;
  if (g < 0) {
    w->c[FARM_C_DROPPED]++;
    fprintf(stderr, "%s: host %u: EXITED notice from t%x naming the master dropped: the pvmd says it still runs\n",
            cli_prog(), w->s.me, in->src);
  }
  if (g > 0) w->stop = 2;
  return g > 0;
}

/* A host the master took for failed is out for good: a policy message
 * or a payload it sends later (it was cut off, or frozen, and came
 * back) is dropped, as its neighbours' nodes take it for down. */
static int from_down(worker *w, const farm_in *in, int from)
{
  if (from < 0 || !w->down || !w->down[from]) return 0;
  w->c[FARM_C_DROPPED]++;
  fprintf(stderr, "%s: host %u: late %s from host %d, which is down, dropped\n", cli_prog(), w->s.me,
          farm_tag_name(in->tag), from);
  return 1;
}

/* Test path (--inject-silent): the host stops itself where it would
 * report, as a host that died once its results were in. */
static void go_silent(worker *w)
{
  fprintf(stderr, "%s: host %u: stopping itself at STOP (--inject-silent)\n", cli_prog(), w->s.me);
  fflush(stderr);
  raise(SIGSTOP);
}

static void handle(worker *w, farm_in *in)
{
  double t0 = msg_begin(w);
  int from = host_of(w, in->src), bad = 0;
  lb_error_clear();
  if ((in->tag == FARM_LBMSG || in->tag == FARM_PAYLOAD) && from_down(w, in, from)) {
    w->xp->clear(w->xp->ctx, in);
    msg_end(w, t0);
    return;
  }
  switch (in->tag) {
  case FARM_STOP:
    if (from != -2) {
      bad = 1;
      break;
    }
    if (w->s.silent) go_silent(w);
    w->stop = 1;
    break;
  case FARM_QUIT:
    if (from == -2) w->stop = 2;
    else bad = 1;
    break;
  case FARM_TASKS: bad = from != -2 || on_tasks(w, in); break;
  case FARM_ORDER: bad = from != -2 || on_order(w, in); break;
  case FARM_LBMSG: bad = from < 0 || on_lbmsg(w, in, from); break;
  case FARM_PAYLOAD: bad = from < 0 || on_payload(w, in, from); break;
  case FARM_DOWN: bad = from != -2 || on_down(w, in); break;
  case FARM_CLOCK: bad = from != -2 || on_clock(w, in); break;
  case FARM_EXITED: parent_exited(w, in); break;
  case FARM_ECHO:
    if (from == (int)w->s.me) on_echo(w, from);
    else bad = 1;
    break;
  default: bad = 1;
  }
  if (bad) {
    w->c[FARM_C_DROPPED]++;
    fprintf(stderr, "%s: host %u: unexpected or malformed %s from t%x dropped%s%s\n", cli_prog(), w->s.me,
            farm_tag_name(in->tag) ? farm_tag_name(in->tag) : "message", in->src, lb_errmsg()[0] ? ": " : "",
            lb_errmsg());
  }
  w->xp->clear(w->xp->ctx, in);
  msg_end(w, t0);
}

/* ---- quanta ---- */
/* Run t for one quantum of about `quantum_s` CPU seconds; account its
 * cost (CPU seconds, carried by the process) and learn how many units
 * fill a quantum (the throttle acts during it: farm_throttle.h).  Units
 * per quantum adapt multiplicatively from the units the process really
 * ran (it may round to its step), at most x2 or /2 a step, so a first
 * slow quantum (operands being built) does not shrink the next ones to
 * nothing. */
static int run_one(worker *w, app_task *t, unsigned long *done)
{
  if (!(w->units_q >= 1)) w->units_q = 1;
  unsigned long u = w->units_q > 1e9 ? 1000000000UL : (unsigned long)w->units_q, ran;
  double c0 = cli_thread_cpu(), t0 = cli_now();
  if (w->first == 0) w->first = t0;
  worker_trace_state(&w->tr, LB_HOST_BUSY, t0 - w->origin);
  /* A context that asks for more than this host has (a matmul too big
   * for its memory) is lost here, not the host. */
  if (app_task_run(t, u, &ran)) return -1;
  double dc = cli_thread_cpu() - c0;
  app_task_add_cost(t, dc);
  if (!app_task_finished(t)) { /* the quantum, not the work, ended the run */
    double f = dc > 0 ? w->s.quantum_s / dc : 2;
    w->units_q = (double)ran * (f > 2 ? 2 : f < 0.5 ? 0.5 : f);
  }
  w->last = cli_now();
  w->busy += w->last - t0;
  worker_trace_state(&w->tr, LB_HOST_BALANCING, w->last - w->origin);
  w->cpu += dc;
  w->c[FARM_C_UNITS] += (int64_t)ran;
  w->quanta++;
  *done = ran;
  return 0;
}

/* Test path (--inject-wrong): a result that decodes but is wrong, as a
 * faulty host would make it and seal it with its own MAC: the last
 * number of the blob (a primes range's sum, matmul's last entry of C)
 * is off. */
static void make_wrong(app_task *t, unsigned char *blob, size_t n)
{
  if (n < 8) return;
  lb_rbuf r = {blob + n - 8, 8, 0, 0};
  lb_wbuf b = {blob + n - 8, 8, 0};
  if (app_task_kind(t) == APP_MATMUL) lb_w_f64(&b, lb_r_f64(&r) + 1024);
  else lb_w_u64(&b, lb_r_u64(&r) + 1);
}

/* The finished task's result, packed as a payload and held here. */
static uint64_t hold_result(worker *w, app_task *t)
{
  size_t n = app_task_result_size(t);
  unsigned char *blob = malloc(n);
  if (!blob || app_task_result(t, blob, n)) cli_die(CLI_EXIT_FAIL, "host %u: cannot encode a result", w->s.me);
  if (w->s.wrong) make_wrong(t, blob, n);
  farm_payload_head h = {.pid = app_task_id(t), .origin = (uint32_t)app_task_origin(t), .exec = w->s.me, .len = n};
  int bad = w->xp->hold(w->xp->ctx, &h, blob);
  free(blob);
  if (bad)
    cli_die(CLI_EXIT_FAIL, "host %u: cannot keep the result of process %llu", w->s.me, (unsigned long long)h.pid);
  return n;
}

/* A process this host cannot run (a damaged context, or one that needs
 * more than the host has): the node forgets it and the master runs it
 * again from the start on another host. */
static void lost(worker *w, uint64_t pid)
{
  fprintf(stderr, "%s: host %u: cannot run process %llu (%s): handed back to the master\n", cli_prog(), w->s.me,
          (unsigned long long)pid, lb_errmsg());
  lb_event ev = {.type = LB_EV_DISCARD, .pid = pid};
  step(w, &ev);
  unsigned char buf[8];
  size_t len;
  farm_lost_encode(pid, buf, sizeof buf, &len);
  xsend(w, w->parent, FARM_LOST, buf, len);
  w->c[FARM_C_DROPPED]++;
}

static void quantum(worker *w, const lb_proc *p)
{
  uint64_t pid = p->id;
  app_task *t = live_get(w, p);
  if (!t) {
    lost(w, pid);
    return;
  }
  unsigned long ran, from = app_task_units_total(t) - app_task_units_left(t);
  if (run_one(w, t, &ran)) {
    app_task_free(live_take(w, pid));
    lost(w, pid);
    return;
  }
  /* Work in the application's own measure, as the process's was given. */
  lb_event ev = {.type = LB_EV_RAN, .pid = pid, .work_done = app_task_work(t, from, from + ran)};
  if (app_task_finished(t)) {
    ev.finished = 1;
    ev.result_len = hold_result(w, t);
    w->c[FARM_C_FINISHED]++;
    app_task_free(live_take(w, pid));
  }
  step(w, &ev);
}

/* A look for a message between quanta.  The transport reads whatever
 * part of a message has come (a context's megabytes take many looks),
 * on this host's CPU, so it is message time: left out of msg_s it would
 * read as the cgroup's pause (holdout.sh --shares paused). */
static int recv_now(worker *w, farm_in *in)
{
  double t0 = msg_begin(w);
  int r = w->xp->recv(w->xp->ctx, -1, -1, 0, in);
  msg_end(w, t0);
  return r;
}

static void loop(worker *w)
{
  lb_event tick = {.type = LB_EV_TICK};
  w->next_beat = cli_now();
  while (!w->stop) {
    farm_in in;
    int r;
    beat(w);
    while (!w->stop && (r = recv_now(w, &in)) == 1) {
      handle(w, &in);
      beat(w);
    }
    if (w->stop || r < 0) break;
    fire_timers(w);
    const lb_proc *p = lb_node_current(lb_rt_node(w->rt));
    if (p) {
      quantum(w, p);
    } else {
      double wait = 0.01, at;
      if (lb_rt_next_timer(w->rt, &at) && at - node_now(w) < wait) wait = at - node_now(w);
      if (wait < 0.0005) wait = 0.0005;
      double t0 = cli_now();
      worker_trace_state(&w->tr, LB_HOST_IDLE, t0 - w->origin);
      r = w->xp->recv(w->xp->ctx, -1, -1, wait, &in);
      double t1 = cli_now();
      w->idle += t1 - t0;
      worker_trace_state(&w->tr, LB_HOST_BALANCING, t1 - w->origin);
      if (r == 1) handle(w, &in);
      else if (r < 0) break;
    }
    step(w, &tick);
  }
}

static void report(worker *w)
{
  const lb_node_stats *st = lb_node_stats_get(lb_rt_node(w->rt));
  farm_report rep = {.me = w->s.me, .throttle = (uint32_t)w->throttle};
  memcpy(rep.c, w->c, sizeof rep.c);
  for (int i = 0; i < LB_MSG_NTYPES; i++) rep.lbsent[i] = (int64_t)st->sent[i];
  rep.c[FARM_C_MIGRATED] = (int64_t)st->migrated;
  rep.c[FARM_C_MOVED_STARTED] = (int64_t)st->migrated_started;
  rep.c[FARM_C_CTX_BYTES] = (int64_t)st->ctx_bytes;
  rep.c[FARM_C_HOPS] = (int64_t)st->hops;
  rep.c[FARM_C_INVOCATIONS] = (int64_t)st->invocations;
  rep.c[FARM_C_EPISODES] = (int64_t)st->episodes;
  for (int k = 0; k < 7; k++) rep.c[FARM_C_PLACED1 + k] = (int64_t)st->placed[k + 1];
  rep.c[FARM_C_DISSOLVED] = (int64_t)st->dissolved;
  rep.c[FARM_C_DROPPED] = w->c[FARM_C_DROPPED] + farm_msg_dropped();
  /* The REPORT itself is counted before it is sent. */
  farm_msg_count_sent(FARM_REPORT, 0);
  for (int i = 0; i < FARM_NTAGS; i++) rep.c[FARM_C_SENT0 + i] = farm_msg_sent(FARM_TAG_MIN + i);
  rep.busy = w->busy;
  rep.cpu = w->cpu;
  rep.span = w->last - w->first;
  rep.msg = w->msg;
  rep.idle = w->idle;
  rep.trace = w->tr.rows;
  rep.trace_len = w->tr.n;
  unsigned char *buf;
  size_t len;
  if (farm_report_encode(&rep, &buf, &len)) {
    fprintf(stderr, "%s: %s\n", cli_prog(), lb_errmsg());
    return;
  }
  xsend(w, w->parent, FARM_REPORT, buf, len);
  free(buf);
}

static void sum_reply(worker *w, const farm_in *in)
{
  int32_t *v;
  uint32_t n;
  if (farm_sum_req_decode(in->body, in->len, &v, &n)) {
    fprintf(stderr, "%s: malformed SUM_REQ from t%x dropped: %s\n", cli_prog(), in->src, lb_errmsg());
    return;
  }
  int64_t sum = 0;
  for (uint32_t i = 0; i < n; i++) sum += v[i];
  free(v);
  unsigned char buf[16];
  size_t len;
  farm_sum_rep_encode(n, sum, buf, sizeof buf, &len);
  xsend(w, in->src, FARM_SUM_REP, buf, len);
}

static void cleanup(worker *w)
{
  for (size_t k = 0; k < w->nlv; k++) app_task_free(w->lv[k].t);
  free(w->lv);
  free(w->ah);
  lb_rt_free(w->rt);
  for (size_t k = 0; k < w->nrepaired; k++) lb_topo_free(w->repaired[k]);
  free(w->repaired);
  free(w->down);
  lb_topo_free(w->topo);
  farm_setup_clear(&w->s);
  worker_trace_free(&w->tr);
}

int worker_host_run(const farm_xport *xp, int parent)
{
  worker w = {.xp = xp, .run = xp->run, .parent = parent};
  int rc = 0;
  /* Before SETUP only the master may speak: the self-test, SETUP, QUIT.
   * Messages from other hosts wait in the transport's queue until then. */
  for (;;) {
    farm_in in;
    int r = xp->recv(xp->ctx, parent, -1, 1.0, &in);
    if (r == 0) r = xp->recv(xp->ctx, -1, FARM_EXITED, 0, &in);
    if (r < 0) break;
    if (r == 0) continue;
    int tag = in.tag;
    if (tag == FARM_EXITED) {
      int gone = parent_exited(&w, &in);
      xp->clear(xp->ctx, &in);
      if (gone) break;
      continue;
    } else if (tag == FARM_QUIT) {
      xp->clear(xp->ctx, &in);
      break;
    } else if (tag == FARM_SUM_REQ) {
      sum_reply(&w, &in);
    } else if (tag == FARM_SETUP) {
      /* The master's set-up is the run: without it there is nothing to
       * do, and exiting tells the master at once. */
      int bad = setup(&w, &in);
      xp->clear(xp->ctx, &in);
      if (bad) {
        rc = 1;
        break;
      }
      loop(&w);
      worker_trace_end(&w.tr, node_now(&w)); /* the host's span ends with its loop */
      /* Leave the cgroup first: once the master has every report it
       * may halt the VM, which kills this task. */
      farm_throttle_stop();
      if (w.stop == 1) report(&w);
      break;
    }
    xp->clear(xp->ctx, &in);
  }
  cleanup(&w);
  return rc;
}
