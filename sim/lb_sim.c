/* lb_sim.c: the discrete-event driver and its invariant checks. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "lb_sim.h"
#include "sim_heap.h"
#include "lb_rng.h"
#include "lb_load.h"
#include "lb_errno.h"
#include "lb_diffusion.h"

void lb_sim_config_default(lb_sim_config *c)
{
  memset(c, 0, sizeof *c);
  lb_node_params_default(&c->node);
  c->policy = LB_POLICY_NONE;
  c->latency = 1;
  c->quantum = 1;
  c->load = LB_SIM_LOAD_SKEW;
  c->work = 10;
}

typedef struct sim {
  const lb_sim_config *c;
  size_t n;
  lb_node **nd;
  unsigned char *busy;
  unsigned short *dist;   /* hop distances, n x n */
  lb_out *out;
  sim_heap h;
  lb_rng *rng;            /* message jitter */
  size_t np;
  size_t *origin;
  unsigned char *done, *home;
  size_t ndone, nhome;
  long inflight;          /* processes inside messages in flight */
  size_t msgs_inflight;
  double last_home;
  lb_sim_result *r;
} sim;

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

static int outputs(sim *S, size_t i, double now)
{
  lb_out *o = S->out;
  int rc = LB_SUCCESS;
  for (size_t k = 0; k < o->n && !rc; k++) {
    lb_out_item *it = &o->v[k];
    if (it->type == LB_OUT_SEND) {
      lb_msg *m = lb_out_take_msg(o, k);
      double hops = S->dist[i * S->n + it->dst];
      double size = (double)lb_msg_size(m);
      double d = hops * (S->c->latency + (S->c->bandwidth > 0 ? size / S->c->bandwidth : 0));
      if (S->c->jitter > 0) d += S->c->jitter * S->c->latency * lb_rng_uniform(S->rng);
      if (S->c->msg_trace)
        fprintf(S->c->msg_trace, "%.6f,%zu,%zu,%s,%zu,%zu,%ld,%zu,%zu\n", now, i, it->dst,
                lb_msg_type_name(m->type), m->hv == LB_NO_NODE ? (size_t)0 : m->hv,
                m->lv == LB_NO_NODE ? (size_t)0 : m->lv, m->n, m->nproc, (size_t)size);
      S->inflight += (long)m->nproc;
      S->msgs_inflight++;
      S->r->hops += m->nproc * (unsigned long)hops;   /* direct sends cross several links */
      rc = sim_heap_push(&S->h, (sim_ev){ .t = now + d, .kind = SIM_EV_DELIVER, .node = it->dst, .msg = m });
      if (rc) lb_msg_free(m);
    } else if (it->type == LB_OUT_TIMER) {
      if (it->at < now) violation(S, "node %zu set timer %llu in the past", i, (unsigned long long)it->timer);
      rc = sim_heap_push(&S->h, (sim_ev){ .t = it->at < now ? now : it->at, .kind = SIM_EV_TIMER,
                                          .node = i, .id = it->timer });
    } else if (it->type == LB_OUT_HOME) {
      uint64_t pid = it->pid, want = result_of(pid), got = 0;
      if (pid >= S->np) { violation(S, "node %zu: home of unknown process %llu", i, (unsigned long long)pid); continue; }
      if (S->origin[pid] != i) violation(S, "process %llu came home at %zu, origin %zu", (unsigned long long)pid, i, S->origin[pid]);
      if (it->result_len == sizeof got) memcpy(&got, it->result, sizeof got);
      if (got != want) violation(S, "process %llu: wrong result at home", (unsigned long long)pid);
      if (!S->done[pid]) violation(S, "process %llu came home before it finished", (unsigned long long)pid);
      if (S->home[pid]++) violation(S, "process %llu came home twice", (unsigned long long)pid);
      else S->nhome++;
      S->last_home = now;
    }
  }
  lb_out_clear(o);
  return rc;
}

static int step(sim *S, size_t i, const lb_event *ev, double now)
{
  int rc = lb_node_step(S->nd[i], ev, now, S->out);
  if (rc) {
    lb_out_clear(S->out);
    return lb_error_wrap(rc, "t=%g node %zu", now, i);
  }
  return outputs(S, i, now);
}

/* After any event: an idle node gets a policy check point, then starts
 * its next quantum if it has work. */
static int kick(sim *S, size_t i, double now)
{
  if (S->busy[i]) return LB_SUCCESS;
  lb_event tick = { .type = LB_EV_TICK };
  int rc = step(S, i, &tick, now);
  if (rc) return rc;
  const lb_proc *p = lb_node_current(S->nd[i]);
  if (!p) return LB_SUCCESS;
  double speed = S->c->speeds ? S->c->speeds[i] : S->c->node.speed;
  double w = p->work < S->c->quantum * speed ? p->work : S->c->quantum * speed;
  S->busy[i] = 1;
  return sim_heap_push(&S->h, (sim_ev){ .t = now + w / speed, .kind = SIM_EV_QEND, .node = i,
                                        .id = p->id, .work = w });
}

static int quantum_end(sim *S, const sim_ev *e)
{
  size_t i = e->node;
  S->busy[i] = 0;
  const lb_proc *p = lb_node_current(S->nd[i]);
  if (!p || p->id != e->id) {
    violation(S, "node %zu: process %llu left the head while running", i, (unsigned long long)e->id);
    return LB_SUCCESS;
  }
  double left;
  if (p->ctx_len != sizeof left) violation(S, "process %llu lost its context", (unsigned long long)p->id);
  else {
    memcpy(&left, p->ctx, sizeof left);
    if (left != p->work) violation(S, "process %llu: context %g != work %g", (unsigned long long)p->id, left, p->work);
  }
  left = p->work - e->work;
  int fin = left <= 1e-9 * (1 + e->work);
  if (fin) left = 0;
  uint64_t res = result_of(p->id);
  if (fin) {
    if (S->done[p->id]++) violation(S, "process %llu ran to completion twice", (unsigned long long)p->id);
    else S->ndone++;
  }
  lb_event ev = { .type = LB_EV_RAN, .pid = e->id, .work_done = e->work, .ctx = &left,
                  .ctx_len = sizeof left, .finished = fin, .result = &res, .result_len = sizeof res };
  int rc = step(S, i, &ev, e->t);
  return rc ? rc : kick(S, i, e->t);
}

static void sample(sim *S, double t)
{
  size_t tot = 0, mx = 0, mn = (size_t)-1, heavy = 0, light = 0;
  for (size_t i = 0; i < S->n; i++) {
    size_t q = lb_node_queue_len(S->nd[i]);
    tot += q;
    if (q > mx) mx = q;
    if (q < mn) mn = q;
    int s = lb_node_state(S->nd[i]);
    heavy += s == LB_HEAVY;
    light += s == LB_LIGHT;
  }
  fprintf(S->c->load_csv, "%.6f,%zu,%zu,%zu,%zu,%zu\n", t, tot, mx, mn, heavy, light);
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
  for (size_t k = 0; k < S->np && !rc; k++) {
    double t = 0, w;
    size_t i;
    if (c->load == LB_SIM_LOAD_TRACE) { t = c->trace[k].t; i = c->trace[k].node; w = c->trace[k].work; }
    else { i = place(c, r, k, perm, nhot, n); w = c->work * lb_rng_range(r, 0.5, 1.5); }
    lb_proc *p;
    double ctx = w;
    if ((rc = lb_proc_alloc(k, i, w, &ctx, sizeof ctx, &p))) break;
    S->origin[k] = i;
    res->total_work += w;
    if ((rc = sim_heap_push(&S->h, (sim_ev){ .t = t, .kind = SIM_EV_ARRIVE, .node = i, .proc = p })))
      lb_proc_free(p);
  }
  free(perm);
  lb_rng_free(r);
  return rc;
}

static int check_config(const lb_sim_config *c)
{
  if (!c->topo) return lb_error(LB_EINVAL, "no topology");
  if (c->topo->n > 65535) return lb_error(LB_ERANGE, "%zu nodes: at most 65535", c->topo->n);
  if (!(c->latency >= 0)) return lb_error(LB_EINVAL, "latency %g < 0", c->latency);
  if (!(c->jitter >= 0)) return lb_error(LB_EINVAL, "jitter %g < 0", c->jitter);
  if (!(c->quantum > 0)) return lb_error(LB_EINVAL, "quantum %g <= 0", c->quantum);
  if (c->load != LB_SIM_LOAD_TRACE && !(c->work > 0)) return lb_error(LB_EINVAL, "work %g <= 0", c->work);
  if (c->load == LB_SIM_LOAD_TRACE && !c->ntrace) return lb_error(LB_EINVAL, "empty arrival trace");
  for (size_t i = 0; c->speeds && i < c->topo->n; i++)
    if (!(c->speeds[i] > 0)) return lb_error(LB_EINVAL, "speed %g <= 0 at node %zu", c->speeds[i], i);
  for (size_t k = 0; c->load == LB_SIM_LOAD_TRACE && k < c->ntrace; k++)
    if (c->trace[k].node >= c->topo->n || !(c->trace[k].work > 0) || !(c->trace[k].t >= 0))
      return lb_error(LB_EINVAL, "trace arrival %zu: node %zu, work %g, time %g", k + 1,
                      c->trace[k].node, c->trace[k].work, c->trace[k].t);
  return LB_SUCCESS;
}

static void finish_checks(sim *S)
{
  if (S->ndone != S->np) violation(S, "%zu of %zu processes finished", S->ndone, S->np);
  if (S->nhome != S->np) violation(S, "%zu of %zu results came home", S->nhome, S->np);
  if (S->inflight) violation(S, "%ld processes still in transit", S->inflight);
  for (size_t i = 0; i < S->n; i++) {
    const lb_node *nd = S->nd[i];
    if (lb_node_lepn(nd) != -1 || lb_node_lipn(nd) != -1 || lb_node_rmtv(nd) != LB_NO_NODE ||
        lb_node_nrt_size(nd) || !lb_node_quiescent(nd) || lb_node_pending_results(nd))
      violation(S, "node %zu not quiescent at the end: LEPN %ld LIPN %ld rmtv %zd NRT %zu",
                i, lb_node_lepn(nd), lb_node_lipn(nd), (ssize_t)lb_node_rmtv(nd), lb_node_nrt_size(nd));
    if (lb_node_queue_len(nd)) violation(S, "node %zu still holds %zu processes", i, lb_node_queue_len(nd));
  }
}

static int all_quiet(const sim *S)
{
  for (size_t i = 0; i < S->n; i++)
    if (!lb_node_quiescent(S->nd[i])) return 0;
  return 1;
}

static int run(sim *S)
{
  const lb_sim_config *c = S->c;
  unsigned long cap = c->max_events ? c->max_events : 200000000ul;
  int rc = LB_SUCCESS;
  if (c->sample_dt > 0 && c->load_csv) {
    fprintf(c->load_csv, "time,queued,max,min,heavy,light\n");
    rc = sim_heap_push(&S->h, (sim_ev){ .t = 0, .kind = SIM_EV_SAMPLE });
  }
  double done_at = -1;
  int snapped = !(c->snapshot_at > 0 && c->snapshot);
  sim_ev e;
  while (!rc && sim_heap_pop(&S->h, &e)) {
    if (!snapped && e.t >= c->snapshot_at) {
      for (size_t i = 0; i < S->n; i++) c->snapshot[i] = (long)lb_node_queue_len(S->nd[i]);
      S->r->stopped = 1;
      lb_msg_free(e.msg);
      lb_proc_free(e.proc);
      break;
    }
    if (++S->r->events > cap) {
      violation(S, "no termination after %lu events (t=%g)", cap, e.t);
      lb_msg_free(e.msg);
      lb_proc_free(e.proc);
      break;
    }
    switch (e.kind) {
    case SIM_EV_DELIVER: {
      S->inflight -= (long)e.msg->nproc;
      S->msgs_inflight--;
      lb_event ev = { .type = LB_EV_MSG, .msg = e.msg };
      rc = step(S, e.node, &ev, e.t);
      if (!rc) rc = kick(S, e.node, e.t);
      break;
    }
    case SIM_EV_TIMER: {
      lb_event ev = { .type = LB_EV_TIMER, .timer = e.id };
      rc = step(S, e.node, &ev, e.t);
      if (!rc) rc = kick(S, e.node, e.t);
      break;
    }
    case SIM_EV_ARRIVE: {
      lb_event ev = { .type = LB_EV_ARRIVE, .proc = e.proc };
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
      if (S->nhome < S->np) rc = sim_heap_push(&S->h, (sim_ev){ .t = e.t + c->sample_dt, .kind = SIM_EV_SAMPLE });
      break;
    }
    if (S->nhome == S->np && !S->msgs_inflight) {
      if (done_at < 0) done_at = e.t;
      if (all_quiet(S)) break;
      /* Open transactions must close on their own timers soon after the
       * work is done; waiting much longer means a lock is stuck. */
      if (e.t > 2 * done_at + 1e4 * (c->latency + 1)) break;
    }
  }
  return rc;
}

/* beta_opt of second-order diffusion for the graph, from the same
 * coefficients the nodes use (Boillat's, or the given uniform alpha). */
static int diffusion_beta(const lb_sim_config *c, double *beta)
{
  double *ea = malloc((c->topo->m ? c->topo->m : 1) * sizeof *ea);
  if (!ea) return lb_error(LB_ENOMEM, "edge coefficients");
  int rc = c->node.alpha > 0
    ? lb_diffusion_edge_alphas(c->topo, LB_DIFFUSION_UNIFORM, c->node.alpha, ea)
    : lb_diffusion_edge_alphas(c->topo, LB_DIFFUSION_BOILLAT, 0, ea);
  if (!rc) rc = lb_diffusion_beta_opt(c->topo, ea, beta, NULL);
  free(ea);
  return rc ? lb_error_wrap(rc, "second-order beta") : LB_SUCCESS;
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
  S.nd = calloc(S.n, sizeof *S.nd);
  S.busy = calloc(S.n, 1);
  S.dist = malloc(S.n * S.n * sizeof *S.dist);
  size_t *row = malloc(S.n * sizeof *row);
  S.origin = calloc(S.np, sizeof *S.origin);
  S.done = calloc(S.np, 1);
  S.home = calloc(S.np, 1);
  if (!S.nd || !S.busy || !S.dist || !row || !S.origin || !S.done || !S.home) {
    rc = lb_error(LB_ENOMEM, "simulator state for %zu nodes, %zu processes", S.n, S.np);
    goto done;
  }
  for (size_t i = 0; i < S.n; i++) {
    lb_topo_bfs(c->topo, i, row);
    for (size_t j = 0; j < S.n; j++) S.dist[i * S.n + j] = (unsigned short)row[j];
  }
  if ((rc = lb_out_alloc(&S.out)) || (rc = lb_rng_alloc_stream(c->seed, 1u << 21, &S.rng))) goto done;
  double sum_speed = 0, beta = c->node.beta;
  if (c->policy == LB_POLICY_DIFFUSION2 && !(beta > 0) && (rc = diffusion_beta(c, &beta))) goto done;
  /* Tmax and probe timeouts rest on the time of one hop of a small
   * message, worst-case jitter included. */
  lb_msg probe = { .type = LB_MSG_RM };
  double hop = c->latency * (1 + c->jitter) + (c->bandwidth > 0 ? (double)lb_msg_size(&probe) / c->bandwidth : 0);
  for (size_t i = 0; i < S.n && !rc; i++) {
    lb_node_params p = c->node;
    p.beta = beta;
    if (p.hop_time == 1 && hop > 0) p.hop_time = hop;
    if (c->speeds) p.speed = c->speeds[i];
    p.seed = c->seed;
    sum_speed += p.speed;
    rc = lb_node_alloc(c->policy, i, c->topo, &p, &S.nd[i]);
  }
  if (rc || (rc = setup_load(&S, res))) goto done;
  /* Every node gets a first check point at time 0, after the initial
   * arrivals, so periodic policies start even on a node that is busy. */
  for (size_t i = 0; i < S.n && !rc; i++)
    rc = sim_heap_push(&S.h, (sim_ev){ .t = 0, .kind = SIM_EV_TICK, .node = i });
  if (rc || (rc = run(&S))) goto done;
  res->ideal = res->total_work / sum_speed;
  res->makespan = S.last_home;
  if (!res->stopped) finish_checks(&S);
  for (size_t i = 0; i < S.n; i++) {
    const lb_node_stats *st = lb_node_stats_get(S.nd[i]);
    for (int k = 0; k < LB_MSG_NTYPES; k++) { res->sent[k] += st->sent[k]; res->messages += st->sent[k]; }
    res->bytes += st->bytes;
    res->migrated += st->migrated;
    res->invocations += st->invocations;
    res->episodes += st->episodes;
  }
done:
  for (size_t i = 0; S.nd && i < S.n; i++) lb_node_free(S.nd[i]);
  sim_heap_free(&S.h);
  lb_out_free(S.out);
  lb_rng_free(S.rng);
  free(S.nd); free(S.busy); free(S.dist); free(row); free(S.origin); free(S.done); free(S.home);
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
    double t, w;
    unsigned long node;
    char extra;
    if (sscanf(s, "%lf %lu %lf %c", &t, &node, &w, &extra) != 3 || !(t >= 0) || !(w > 0) || node >= nnodes) {
      rc = lb_error(LB_EFORMAT, "%s:%zu: expected 'time node work' with time >= 0, node < %zu, work > 0",
                    path, line, nnodes);
      break;
    }
    if (*n == cap) {
      cap = cap ? 2 * cap : 64;
      lb_sim_arrival *nv = realloc(v, cap * sizeof *nv);
      if (!nv) { rc = lb_error(LB_ENOMEM, "trace"); break; }
      v = nv;
    }
    v[(*n)++] = (lb_sim_arrival){ t, node, w };
  }
  fclose(f);
  if (!rc && !*n) rc = lb_error(LB_EFORMAT, "%s: no arrivals", path);
  if (rc) { free(v); *n = 0; return rc; }
  *out = v;
  return LB_SUCCESS;
}
