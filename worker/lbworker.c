/* lbworker: the lbfarm PVM worker, one per logical host.  Spawned by
 * lbmaster; not meant to be run by hand.
 *
 * It runs its processes in short quanta; between two quanta it drains
 * its messages (pvm_nrecv through farm_msg) and gives the policy its
 * turn (see POLICY SEAM below), then carries out what comes back. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <pvm3.h>
#include "farm_msg.h"
#include "farm_wire.h"
#include "app.h"
#include "farm_throttle.h"
#include "app_mem.h"
#include "cli.h"
#include "lb_errno.h"
#include "lb_node.h"
#include "lb_topo.h"
#include "farm_lbmsg.h"
#include "farm_payload.h"

_Static_assert(FARM_NLBTYPES == LB_MSG_NTYPES, "farm_wire.h's count of policy message types");

#define MAX_TRACE 200000

/* OpenBLAS's own declaration; its cblas.h clashes with GSL's, which
 * the lb/ headers bring in. */
void openblas_set_num_threads(int n);

typedef struct trace_rec { double t; int dst, tag, bytes; } trace_rec;

typedef struct worker {
  int run, parent, me, nhosts, policy, throttle, tracing;
  int *tids;
  int *nbr, nnbr;
  app_workload w;
  double speed, capacity, quantum, t0;
  app_task **q;            /* run queue; q[0] runs next */
  size_t len, cap;
  long long c[FARM_NCOUNTERS];
  double busy, cpu;
  double msg, idle;         /* wall time with messages; waiting with nothing to run */
  int msg_depth;            /* handling nests sends: time the outermost only */
  double first, last;       /* wall clock at the first and last quantum */
  double units_q;           /* units per quantum, learned */
  trace_rec *trace;
  int ntrace;
  int stop;
  int order[64][2];         /* pending master orders: (dst host, count) */
  int norders;
  double hop_time, period;
  /* Policy mode (any policy but none): the lb/ node owns the queue. */
  lb_topo *topo;
  lb_node *node;
  lb_out *out;
  app_task *cur;           /* the node's head, deserialised once */
  uint64_t cur_pid;
  struct { uint64_t id; double at; } timer[256];
  int ntimers;
} worker;

static void usage(void)
{
  printf("Usage: lbworker RUN-ID\n"
         "The lbfarm PVM worker.  lbmaster spawns one per logical host and\n"
         "talks to it through PVM messages; running it by hand does nothing\n"
         "useful.\n\n"
         "  -h, --help   show this help and exit\n");
}

static double wall(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double cpu_now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int host_of(const worker *w, int tid)
{
  for (int i = 0; i < w->nhosts; i++)
    if (w->tids[i] == tid) return i;
  return tid == w->parent ? -2 : -1;
}

static void on_send(int tid, int tag, int bytes, void *arg)
{
  worker *w = arg;
  if (!w->tracing || w->ntrace >= MAX_TRACE) return;
  w->trace[w->ntrace++] = (trace_rec){ wall() - w->t0, host_of(w, tid), tag, bytes };
}

/* FARM_SUM_REQ (self-test): int n, then n ints; reply with their sum. */
static int do_sum(int run, const farm_in *in)
{
  int n;
  if (farm_msg_upk_int(&n, 1) || n < 0 || n + 1 != in->items) return -1;
  int *v = malloc((size_t)(n ? n : 1) * sizeof *v);
  if (!v || farm_msg_upk_int(v, n)) { free(v); return -1; }
  long long sum = 0;
  for (int i = 0; i < n; i++) sum += v[i];
  free(v);
  farm_msg_begin(run, 4);
  long long reply[2] = { n, sum };
  farm_msg_pk_i64(reply, 2);
  return farm_msg_send(in->src, FARM_SUM_REP);
}

static int do_setup(worker *w, const farm_in *in)
{
  int hdr[7];
  long long l[3];
  double d[6];
  if (farm_msg_upk_int(hdr, 7) || farm_msg_upk_i64(l, 3) || farm_msg_upk_double(d, 6)) return -1;
  w->me = hdr[0];
  w->nhosts = hdr[1];
  w->policy = hdr[2];
  w->nnbr = hdr[6];
  if (w->nhosts < 1 || w->nhosts > 4096 || w->me < 0 || w->me >= w->nhosts || w->nnbr < 0 ||
      w->nnbr >= w->nhosts + 1 || in->items < FARM_SETUP_ITEMS(w->nhosts, w->nnbr, 0))
    return -1;
  w->w = (app_workload){ (app_kind)hdr[3], (unsigned long)l[0], (unsigned long)l[1],
                          (unsigned long)l[2] };
  w->throttle = hdr[4];
  w->tracing = hdr[5];
  w->speed = d[0];
  w->capacity = d[1];
  w->quantum = d[2];
  w->t0 = d[3];
  w->hop_time = d[4];
  w->period = d[5];
  w->tids = malloc((size_t)w->nhosts * sizeof *w->tids);
  w->nbr = malloc((size_t)(w->nnbr + 1) * sizeof *w->nbr);
  if (!w->tids || !w->nbr || farm_msg_upk_int(w->tids, w->nhosts) || farm_msg_upk_int(w->nbr, w->nnbr))
    return -1;
  int ne;
  if (farm_msg_upk_int(&ne, 1) || ne < 0 || in->items != FARM_SETUP_ITEMS(w->nhosts, w->nnbr, ne)) return -1;
  int *e = malloc((size_t)(2 * ne + 1) * sizeof *e);
  size_t (*edges)[2] = malloc((size_t)(ne + 1) * sizeof *edges);
  if (!e || !edges || farm_msg_upk_int(e, 2 * ne)) { free(e); free(edges); return -1; }
  for (int k = 0; k < ne; k++) { edges[k][0] = (size_t)e[2 * k]; edges[k][1] = (size_t)e[2 * k + 1]; }
  int bad = lb_topo_from_edges((size_t)w->nhosts, (const size_t (*)[2])edges, (size_t)ne, "farm", &w->topo);
  free(e);
  free(edges);
  if (bad) return -1;
  if (app_workload_check(&w->w) || !(w->speed > 0 && w->speed <= 1) || !(w->quantum > 0)) return -1;
  if (w->policy != FARM_POLICY_NONE) {
    lb_node_params p;
    lb_node_params_default(&p);
    p.capacity = (int)w->capacity;
    p.speed = w->speed;
    p.hop_time = w->hop_time;
    p.period = w->period;
    p.seed = w->w.seed * 7919 + (unsigned long)w->me;
    if (w->policy < 0 || w->policy >= LB_POLICY_COUNT || lb_out_alloc(&w->out) ||
        lb_node_alloc((lb_policy)w->policy, (size_t)w->me, w->topo, &p, &w->node)) {
      fprintf(stderr, "%s: host %d: cannot start the policy node: %s\n", cli_prog(), w->me, lb_errmsg());
      return -1;
    }
  }
  if (w->tracing && !(w->trace = malloc(MAX_TRACE * sizeof *w->trace))) w->tracing = 0;
  char why[256];
  int m = farm_throttle_start(w->speed, (farm_throttle_mode)w->throttle, why, sizeof why);
  if (m < 0) {
    fprintf(stderr, "%s: host %d: cgroup throttling failed: %s\n", cli_prog(), w->me, why);
    return -1;
  }
  if (why[0] && w->speed < 1)
    fprintf(stderr, "%s: host %d: duty-cycle throttling (%s)\n", cli_prog(), w->me, why);
  w->throttle = m;
  return 0;
}

static int push(worker *w, app_task *t)
{
  if (w->len == w->cap) {
    size_t cap = w->cap ? 2 * w->cap : 16;
    app_task **q = realloc(w->q, cap * sizeof *q);
    if (!q) return -1;
    w->q = q;
    w->cap = cap;
  }
  w->q[w->len++] = t;
  return 0;
}

/* Time spent with messages: receiving, handling and the sends that
 * follow.  Handling nests sends, so only the outermost call counts. */
static double msg_begin(worker *w) { return w->msg_depth++ ? 0 : wall(); }
static void msg_end(worker *w, double t0) { if (!--w->msg_depth) w->msg += wall() - t0; }

/* Run t for one quantum of about `quantum` CPU seconds; account its
 * cost (CPU seconds, carried by the process), throttle, and learn how
 * many units fill a quantum.  Units per quantum adapt multiplicatively
 * from the units the process really ran (it may round to its step), at
 * most x2 or /2 a step, so a first slow quantum (operands being built)
 * does not shrink the next ones to nothing. */
static unsigned long run_one(worker *w, app_task *t)
{
  if (!(w->units_q >= 1)) w->units_q = 1;
  unsigned long u = w->units_q > 1e9 ? 1000000000UL : (unsigned long)w->units_q, ran;
  double c0 = cpu_now(), t0 = wall();
  if (w->first == 0) w->first = t0;
  if (app_task_run(t, u, &ran)) cli_die(CLI_EXIT_FAIL, "host %d: %s", w->me, lb_errmsg());
  double dc = cpu_now() - c0;
  app_task_add_cost(t, dc);
  if (!app_task_finished(t)) {   /* the quantum, not the work, ended the run */
    double f = dc > 0 ? w->quantum / dc : 2;
    w->units_q = (double)ran * (f > 2 ? 2 : f < 0.5 ? 0.5 : f);
  }
  farm_throttle_after(dc);
  w->last = wall();
  w->busy += w->last - t0;
  w->cpu += dc;
  w->c[FARM_C_UNITS] += (long long)ran;
  return ran;
}

/* ===================== POLICY SEAM =====================================
 * With a policy other than none, the sans-I/O node of lb/ owns the run
 * queue and decides; this code only translates:
 *   in:  TASKS -> LB_EV_ARRIVE (context = the task blob); FARM_LBMSG ->
 *        LB_EV_MSG; each quantum -> LB_EV_RAN (work done, new context or
 *        the result) + LB_EV_TICK; idle -> LB_EV_TICK; due timers ->
 *        LB_EV_TIMER;
 *   out: SEND -> farm_lbmsg_send (an LMM carries the processes' context
 *        blobs, packed with pvm_pk*); TIMER -> kept here; HOME -> the
 *        result goes to the master.
 * The policy none keeps the worker's own queue (below), where master
 * orders (FARM_ORDER) exercise the same pack/unpack/resume path. */
static void handle(worker *w, const farm_in *in);
static int payload_of(worker *w, app_task *t);
static void payload_forward(worker *w, uint64_t pid, int tid, int tag);
static double node_now(const worker *w) { return wall() - w->t0; }

/* Save the live task's context into a new blob; dies when out of memory. */
static unsigned char *save_current(const worker *w, size_t *n)
{
  *n = app_task_blob_size(w->cur);
  unsigned char *blob = malloc(*n);
  if (!blob || app_task_save(w->cur, blob, *n)) cli_die(CLI_EXIT_FAIL, "host %d: cannot save a process", w->me);
  return blob;
}

/* The node's copy of the running process's context is brought up to
 * date only when the process leaves in m: saving it after every quantum
 * copied the whole partial result each time (6 MB for a matmul block of
 * 125 rows of order 6000).  The live task goes too, so that the process,
 * should it come back, resumes from the context it returns with. */
static void refresh_leaving(worker *w, lb_msg *m)
{
  for (size_t j = 0; w->cur && j < m->nproc; j++) {
    lb_proc *p = m->procs[j];
    if (p->id != w->cur_pid) continue;
    size_t n;
    unsigned char *blob = save_current(w, &n);
    if (lb_proc_set_ctx(p, blob, n)) cli_die(CLI_EXIT_FAIL, "host %d: cannot save a leaving process", w->me);
    free(blob);
    app_task_free(w->cur);
    w->cur = NULL;
  }
}

static void carry_out(worker *w)
{
  double t0 = msg_begin(w);
  lb_out *o = w->out;
  for (size_t k = 0; k < o->n; k++) {
    lb_out_item *it = &o->v[k];
    if (it->type == LB_OUT_SEND) {
      lb_msg *m = lb_out_take_msg(o, k);
      refresh_leaving(w, m);
      /* A message that carries a result follows its payload. */
      if (m->rorigin != LB_NO_NODE && it->dst < (size_t)w->nhosts)
        payload_forward(w, m->rid, w->tids[it->dst], FARM_DRM);
      if (it->dst >= (size_t)w->nhosts || farm_lbmsg_send(w->run, w->tids[it->dst], m) < 0)
        fprintf(stderr, "%s: host %d: cannot send a %s to %zu\n", cli_prog(), w->me,
                lb_msg_type_name(m->type), it->dst);
      lb_msg_free(m);
    } else if (it->type == LB_OUT_TIMER) {
      int j = 0;
      while (j < w->ntimers && w->timer[j].id != it->timer) j++;
      if (j == w->ntimers) {
        if (w->ntimers == 256) { fprintf(stderr, "%s: host %d: too many timers\n", cli_prog(), w->me); continue; }
        w->ntimers++;
      }
      w->timer[j].id = it->timer;
      w->timer[j].at = it->at;
    } else if (it->type == LB_OUT_HOME) {
      payload_forward(w, it->pid, w->parent, FARM_RESULT);
    }
  }
  lb_out_clear(o);
  msg_end(w, t0);
}

static void node_step(worker *w, const lb_event *ev)
{
  if (lb_node_step(w->node, ev, node_now(w), w->out))
    fprintf(stderr, "%s: host %d: policy step: %s\n", cli_prog(), w->me, lb_errmsg());
  carry_out(w);
}

static int node_arrive(worker *w, app_task *t)
{
  size_t n = app_task_blob_size(t);
  unsigned char *blob = malloc(n);
  lb_proc *p = NULL;
  int bad = !blob || app_task_save(t, blob, n) ||
            lb_proc_alloc(app_task_id(t), (size_t)app_task_origin(t), (double)app_task_units_left(t),
                          blob, n, &p);
  free(blob);
  app_task_free(t);
  if (bad) return -1;
  lb_event ev = { .type = LB_EV_ARRIVE, .proc = p };
  node_step(w, &ev);
  return 0;
}

static void node_timers(worker *w)
{
  double now = node_now(w);
  for (int j = 0; j < w->ntimers;) {
    if (w->timer[j].at <= now) {
      lb_event ev = { .type = LB_EV_TIMER, .timer = w->timer[j].id };
      w->timer[j] = w->timer[--w->ntimers];
      node_step(w, &ev);
      j = 0;
      now = node_now(w);
    } else {
      j++;
    }
  }
}

static void node_quantum(worker *w)
{
  const lb_proc *p = lb_node_current(w->node);
  if (w->cur && w->cur_pid != p->id) {
    /* The head changed under an unfinished process (the policies take
     * from the tail, so none does today): the node gets its context
     * before the live task goes. */
    size_t n;
    unsigned char *blob = save_current(w, &n);
    lb_event ev = { .type = LB_EV_RAN, .pid = w->cur_pid, .ctx = blob, .ctx_len = n };
    app_task_free(w->cur);
    w->cur = NULL;
    node_step(w, &ev);
    free(blob);
    if (!(p = lb_node_current(w->node))) return;
  }
  if (!w->cur) {
    if (app_task_load(p->ctx, p->ctx_len, &w->cur)) cli_die(CLI_EXIT_FAIL, "host %d: %s", w->me, lb_errmsg());
    w->cur_pid = p->id;
    if (app_task_origin(w->cur) != w->me || p->origin != (size_t)w->me) app_task_add_hop(w->cur);
  }
  app_task *t = w->cur;
  unsigned long ran = run_one(w, t);
  /* No new context (NULL: the node keeps its copy; refresh_leaving saves
   * the live one when the process is sent away).  A result goes to the
   * node as an empty blob: its bytes wait here as a payload, which
   * follows the DRM or RESULT the node sends, or goes home. */
  lb_event ev = { .type = LB_EV_RAN, .pid = p->id, .work_done = (double)ran };
  if (app_task_finished(t)) {
    if (farm_payload_hold(p->id, payload_of(w, t)))
      cli_die(CLI_EXIT_FAIL, "host %d: cannot keep the result of process %llu", w->me, (unsigned long long)p->id);
    ev.finished = 1;
    w->c[FARM_C_FINISHED]++;
    app_task_free(w->cur);
    w->cur = NULL;
  }
  node_step(w, &ev);
}

static void node_lbmsg(worker *w, const farm_in *in, int from)
{
  lb_msg *m;
  if (from < 0 || farm_lbmsg_recv(in, &m)) {
    fprintf(stderr, "%s: host %d: malformed policy message from t%x dropped\n", cli_prog(), w->me, in->src);
    return;
  }
  if (m->src != (size_t)from || m->dst != (size_t)w->me) {
    fprintf(stderr, "%s: host %d: policy message %zu->%zu from host %d dropped\n", cli_prog(), w->me,
            m->src, m->dst, from);
    lb_msg_free(m);
    return;
  }
  lb_event ev = { .type = LB_EV_MSG, .msg = m };
  node_step(w, &ev);
}

static void node_loop_once(worker *w)
{
  node_timers(w);
  if (lb_node_current(w->node)) {
    node_quantum(w);
  } else {
    farm_in in;
    double wait = 0.01, now = node_now(w);
    for (int j = 0; j < w->ntimers; j++)
      if (w->timer[j].at - now < wait) wait = w->timer[j].at - now;
    if (wait < 0.0005) wait = 0.0005;
    double t0 = wall();
    int r = farm_msg_recv(w->run, -1, -1, wait, &in);
    w->idle += wall() - t0;
    if (r == 1) handle(w, &in);
  }
  lb_event tick = { .type = LB_EV_TICK };
  node_step(w, &tick);
}
/* ======================================================================= */

/* TASKS or LMM: int from, count, then count x (len, blob).  Each blob
 * becomes a process at the tail of the run queue; a migrated one
 * resumes from its saved cursor. */
static int do_tasks(worker *w, const farm_in *in)
{
  int head[2];
  if (farm_msg_upk_int(head, 2) || head[1] < 0) return -1;
  int items = 2;
  for (int k = 0; k < head[1]; k++) {
    int len;
    if (farm_msg_upk_int(&len, 1) || len <= 0 || (items += 1 + farm_msg_words(len)) > in->items)
      return -1;
    unsigned char *blob = malloc((size_t)len);
    app_task *t = NULL;
    if (!blob || farm_msg_upk_bytes(blob, len)) { free(blob); return -1; }
    int s = app_task_load(blob, (size_t)len, &t);
    free(blob);
    if (s) {
      fprintf(stderr, "%s: host %d: a process from t%x is damaged: %s\n", cli_prog(), w->me,
              in->src, lb_errmsg());
      return -1;
    }
    if (in->tag == FARM_TASKS) app_task_set_origin(t, w->me);
    if (w->node ? node_arrive(w, t) : push(w, t)) return -1;
    w->c[FARM_C_RECEIVED]++;
  }
  return items == in->items ? 0 : -1;
}

/* Pack `count` processes from the head of the queue (the head may be
 * half done: it resumes there) into one LMM for host `dst`. */
static int migrate(worker *w, int dst, int count)
{
  if (dst < 0 || dst >= w->nhosts || dst == w->me || count <= 0) return -1;
  if ((size_t)count > w->len) count = (int)w->len;
  if (!count) return 0;
  long items = 2;
  for (int k = 0; k < count; k++) items += 1 + farm_msg_words((long)app_task_blob_size(w->q[k]));
  int head[2] = { w->me, count };
  farm_msg_begin(w->run, (int)items);
  farm_msg_pk_int(head, 2);
  for (int k = 0; k < count; k++) {
    app_task *t = w->q[k];
    if (app_task_units_left(t) < app_task_units_total(t)) w->c[FARM_C_MOVED_STARTED]++;
    app_task_add_hop(t);
    size_t n = app_task_blob_size(t);
    unsigned char *blob = malloc(n);
    if (!blob || app_task_save(t, blob, n)) cli_die(CLI_EXIT_FAIL, "cannot save a process");
    int len = (int)n;
    farm_msg_pk_int(&len, 1);
    farm_msg_pk_bytes(blob, len);
    free(blob);
  }
  int s = farm_msg_send(w->tids[dst], FARM_LMM);
  if (s < 0) return s;
  for (int k = 0; k < count; k++) app_task_free(w->q[k]);
  memmove(w->q, w->q + count, (w->len - (size_t)count) * sizeof *w->q);
  w->len -= (size_t)count;
  w->c[FARM_C_MIGRATED] += count;
  w->c[FARM_C_HOPS] += count;
  return 0;
}

/* The payload of a finished task's result (farm_payload.h), kept. */
static int payload_of(worker *w, app_task *t)
{
  size_t n = app_task_result_size(t);
  unsigned char *blob = malloc(n);
  if (!blob || app_task_result(t, blob, n)) cli_die(CLI_EXIT_FAIL, "cannot encode a result");
  int b = farm_payload_pack(w->run, app_task_origin(t), w->me, app_task_id(t), blob, (int)n);
  free(blob);
  if (b < 0) cli_die(CLI_EXIT_FAIL, "host %d: cannot pack a result: PVM error %d", w->me, b);
  return b;
}

/* Send on the payload held for process pid. */
static void payload_forward(worker *w, uint64_t pid, int tid, int tag)
{
  int b = farm_payload_take(pid);
  if (b < 0) {
    fprintf(stderr, "%s: host %d: no payload here for the result of process %llu\n", cli_prog(), w->me,
            (unsigned long long)pid);
    return;
  }
  if (farm_payload_send(b, tid, tag) < 0)
    fprintf(stderr, "%s: host %d: cannot send the result of process %llu\n", cli_prog(), w->me,
            (unsigned long long)pid);
}

/* DRM: the payload of a result on its way home.  With a policy it
 * waits for its protocol message; without one (the transfer test
 * path) the origin (here) hands it to the master at once. */
static int do_drm(worker *w, const farm_in *in)
{
  int origin, exec, len;
  uint64_t pid;
  if (farm_payload_head(in, &origin, &exec, &pid, &len) || exec < 0 || exec >= w->nhosts ||
      origin < 0 || origin >= w->nhosts || (!w->node && origin != w->me))
    return -1;
  int b = farm_payload_keep_received();
  w->c[FARM_C_FORWARDED]++;   /* every payload received here is passed on once */
  if (w->node) {
    if (farm_payload_hold(pid, b)) fprintf(stderr, "%s: host %d: second payload for process %llu dropped\n",
                                           cli_prog(), w->me, (unsigned long long)pid);
    return 0;
  }
  return farm_payload_send(b, w->parent, FARM_RESULT) < 0 ? -1 : 0;
}

static void finish_task(worker *w, app_task *t)
{
  double t0 = msg_begin(w);
  int origin = app_task_origin(t), b = payload_of(w, t);
  farm_payload_send(b, origin == w->me ? w->parent : w->tids[origin], origin == w->me ? FARM_RESULT : FARM_DRM);
  w->c[FARM_C_FINISHED]++;
  msg_end(w, t0);
}

/* One quantum of the head of the worker's own queue (policy none). */
static void run_quantum(worker *w)
{
  app_task *t = w->q[0];
  run_one(w, t);
  if (app_task_finished(t)) {
    finish_task(w, t);
    app_task_free(t);
    memmove(w->q, w->q + 1, (w->len - 1) * sizeof *w->q);
    w->len--;
  }
}

static void report(worker *w)
{
  for (int i = 0; i < FARM_NTAGS; i++) w->c[FARM_C_SENT0 + i] = farm_msg_sent(FARM_TAG_MIN + i);
  long long lbsent[FARM_NLBTYPES] = { 0 };
  if (w->node) {
    const lb_node_stats *st = lb_node_stats_get(w->node);
    for (int i = 0; i < FARM_NLBTYPES; i++) lbsent[i] = (long long)st->sent[i];
    w->c[FARM_C_MIGRATED] = (long long)st->migrated;
    w->c[FARM_C_HOPS] = (long long)st->hops;
    w->c[FARM_C_INVOCATIONS] = (long long)st->invocations;
  }
  w->c[FARM_C_DROPPED] = farm_msg_dropped();
  /* The REPORT itself is counted before it is sent. */
  w->c[FARM_C_SENT0 + (FARM_REPORT - FARM_TAG_MIN)]++;
  int head[3] = { w->me, w->throttle, w->ntrace };
  double d[5] = { w->busy, w->cpu, w->last - w->first, w->msg, w->idle };
  farm_msg_begin(w->run, FARM_REPORT_ITEMS(w->ntrace));
  farm_msg_pk_int(head, 3);
  farm_msg_pk_i64(w->c, FARM_NCOUNTERS);
  farm_msg_pk_i64(lbsent, FARM_NLBTYPES);
  farm_msg_pk_double(d, 5);
  for (int i = 0; i < w->ntrace; i++) {
    int v[3] = { w->trace[i].dst, w->trace[i].tag, w->trace[i].bytes };
    farm_msg_pk_double(&w->trace[i].t, 1);
    farm_msg_pk_int(v, 3);
  }
  farm_msg_send(w->parent, FARM_REPORT);
}

static void handle_msg(worker *w, const farm_in *in);

static void handle(worker *w, const farm_in *in)
{
  double t0 = msg_begin(w);
  handle_msg(w, in);
  msg_end(w, t0);
}

static void handle_msg(worker *w, const farm_in *in)
{
  int from = host_of(w, in->src), bad = 0;
  switch (in->tag) {
  case FARM_STOP: if (from == -2) { w->stop = 1; return; } bad = 1; break;
  case FARM_QUIT: if (from == -2) { w->stop = 2; return; } bad = 1; break;
  case FARM_TASKS: bad = from != -2 || do_tasks(w, in); break;
  case FARM_LMM: bad = from < 0 || do_tasks(w, in); break;
  case FARM_DRM: bad = from < 0 || do_drm(w, in); break;
  case FARM_LBMSG:
    if (w->node) node_lbmsg(w, in, from);
    else bad = 1;
    break;
  case FARM_ORDER: {
    int o[2];
    bad = from != -2 || in->items != 2 || w->norders == 64 || farm_msg_upk_int(o, 2) ||
          o[0] < 0 || o[0] >= w->nhosts || o[0] == w->me || o[1] < 0;
    if (!bad) { w->order[w->norders][0] = o[0]; w->order[w->norders][1] = o[1]; w->norders++; }
    break;
  }
  default: bad = 1;
  }
  if (bad)
    fprintf(stderr, "%s: host %d: unexpected or malformed %s from t%x dropped\n", cli_prog(),
            w->me, farm_tag_name(in->tag) ? farm_tag_name(in->tag) : "message", in->src);
}

static void farm_loop(worker *w)
{
  while (!w->stop) {
    farm_in in;
    int r;
    while (!w->stop && (r = farm_msg_recv(w->run, -1, -1, 0, &in)) == 1) handle(w, &in);
    if (w->stop || r < 0) break;
    if (w->node) {
      node_loop_once(w);
      continue;
    }
    /* Master orders (the transfer test path) move the running process
     * first, so they wait until it has run at least one quantum. */
    if (w->norders && (!w->len || app_task_units_left(w->q[0]) < app_task_units_total(w->q[0]))) {
      double t0 = msg_begin(w);
      for (int k = 0; k < w->norders; k++)
        if (migrate(w, w->order[k][0], w->order[k][1]))
          fprintf(stderr, "%s: host %d: cannot carry out an order\n", cli_prog(), w->me);
      w->norders = 0;
      msg_end(w, t0);
    }
    if (w->len) { run_quantum(w); continue; }
    double t0 = wall();
    r = farm_msg_recv(w->run, -1, -1, 0.05, &in);
    w->idle += wall() - t0;
    if (r == 1) handle(w, &in);
    else if (r < 0) break;
  }
  /* Leave the cgroup first: once the master has every report it may
   * halt the VM, which kills this task. */
  farm_throttle_stop();
  if (w->stop == 1) report(w);
}

int main(int argc, char **argv)
{
  cli_init(argv[0]);
  if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
    usage();
    return 0;
  }
  if (argc != 2) cli_usage_error("expected exactly one argument, the run id");
  int run = (int)cli_ulong("RUN-ID", argv[1], 0, 0x7fffffff);
  /* One host = one core's worth of work: no BLAS threads of its own. */
  openblas_set_num_threads(1);
  app_mem_setup();
  pvm_setopt(PvmAutoErr, 0);
  if (pvm_mytid() < 0) cli_die(CLI_EXIT_USAGE, "not running under PVM");
  /* Messages between workers go through the pvmd, not task to task: a
   * large message (a matmul result) sent directly blocks the sender until
   * the receiver, itself throttled and between quanta only, has drained
   * it, and the hops of a DRM chain then serialise.  The pvmd is not
   * throttled and buffers the whole message.  Measured (matmul 3000, six
   * hosts at 0.33, RMTLB): time blocked in pvm_send per host fell from
   * 0.4-1.3 s to 0.06-0.4 s, makespan/ideal from 1.8 to 1.5; all direct
   * again after the changes of docs/PERFORMANCE.md: 1.57-1.59 against
   * 1.37.  The master, never throttled and always receiving, asks for a
   * direct link (PvmRouteDirect), which a worker grants: the origin's
   * results then skip the pvmd (its sends 1.5 -> 1.0 s at matmul 6000). */
  pvm_setopt(PvmRoute, PvmAllowDirect);
  /* Fragments of 256 KB instead of PVM's 4 KB: every byte of a result
   * that a throttled host relays costs system calls per fragment (matmul
   * 3000, 240 processes, RMTLB: makespan/ideal 1.42 -> ~1.3). */
  pvm_setopt(PvmFragSize, 262144);
  worker w = { .run = run, .parent = pvm_parent() };
  farm_msg_on_send(on_send, &w);
  /* Before SETUP only the master may speak: the self-test, SETUP, QUIT.
   * Messages from other workers wait in PVM's queue until then. */
  for (;;) {
    farm_in in;
    if (farm_msg_recv(run, w.parent, -1, -1.0, &in) < 0) break;
    if (in.tag == FARM_QUIT) break;
    if (in.tag == FARM_SUM_REQ) {
      if (do_sum(run, &in) < 0)
        fprintf(stderr, "%s: malformed SUM_REQ from t%x dropped\n", cli_prog(), in.src);
    } else if (in.tag == FARM_SETUP) {
      if (do_setup(&w, &in) == 0) {
        farm_loop(&w);
        break;
      }
      fprintf(stderr, "%s: malformed SETUP from t%x dropped\n", cli_prog(), in.src);
    } else {
      fprintf(stderr, "%s: unexpected %s from t%x dropped\n", cli_prog(),
              farm_tag_name(in.tag) ? farm_tag_name(in.tag) : "message", in.src);
    }
  }
  pvm_exit();
  return 0;
}
