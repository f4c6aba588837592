/* sim_loop.c: the event loop.  Events are taken by (time, insertion
 * number): the queue's, the arrivals and every node's first check point
 * (made at the start, read in order rather than queued).  After every
 * event the node it touched gets a check point and, when idle with
 * work, its next quantum. */
#include "sim_impl.h"
#include "lb_errno.h"

int sim_step(sim *S, size_t i, const lb_event *ev, double now)
{
  if (S->tr && now > S->tr_last) S->tr_last = now;
  int rc = lb_rt_step(S->node[i].rt, ev, now);
  if (!rc && S->failed) rc = S->failed;
  return rc ? lb_error_wrap(rc, "t=%g node %zu", now, i) : LB_SUCCESS;
}

int sim_start(sim *S, size_t i, double now, sim_quantum *q)
{
  q->go = 0;
  if (S->node[i].busy || S->node[i].dead || (S->sil && sim_frozen(S, i, now))) return LB_SUCCESS;
  lb_event tick = {.type = LB_EV_TICK};
  int rc = sim_step(S, i, &tick, now);
  if (rc) return rc;
  const lb_proc *p = lb_node_current(S->node[i].nd);
  if (!p) return LB_SUCCESS;
  double speed = sim_speed(S, i);
  double w = p->work < S->c->quantum * speed ? p->work : S->c->quantum * speed;
  double start = S->node[i].cpu_free > now ? S->node[i].cpu_free : now;
  if (!S->node[i].warm) { /* the host's one-off set-up, before its first quantum */
    S->node[i].warm = 1;
    if (S->c->host_setup > 0) {
      if (S->tr) sim_trace_cpu(S, i, LB_HOST_BUSY, start, start + S->c->host_setup / speed);
      start += S->c->host_setup / speed;
    }
  }
  S->node[i].busy = 1;
  S->node[i].cpu_free = start + w / speed;
  if (S->tr) sim_trace_cpu(S, i, LB_HOST_BUSY, start, start + w / speed);
  *q = (sim_quantum){.go = 1, .pid = p->id, .work = w, .end = start + w / speed};
  return LB_SUCCESS;
}

int sim_kick(sim *S, size_t i, double now)
{
  sim_quantum q;
  int rc = sim_start(S, i, now, &q);
  if (rc || !q.go) return rc;
  return sim_queue_push(&S->h, (sim_ev){.t = q.end, .kind = SIM_EV_QEND, .node = i, .id = q.pid, .work = q.work});
}

/* The head of node i's queue ran `work`: the node hears of it with the
 * context that says what is left, then takes the messages that came
 * meanwhile and, polling, its due timers. */
int sim_quantum_done(sim *S, size_t i, uint64_t pid, double work, double t, int *kick)
{
  *kick = 0;
  S->node[i].busy = 0;
  if (S->node[i].dead) return LB_SUCCESS;
  const lb_proc *p = lb_node_current(S->node[i].nd);
  if (!p || p->id != pid) {
    sim_violation(S, "node %zu: process %llu left the head while running", i, (unsigned long long)pid);
    return LB_SUCCESS;
  }
  int fin;
  if (S->sil) S->sil[i].quanta++;
  double left = sim_ran(S, i, p, work, &fin);
  lb_event ev = {.type = LB_EV_RAN, .pid = p->id, .work_done = work, .finished = fin, .result_len = sim_result_len(S)};
  int rc = sim_context_keep(S, i, p, left, fin, &ev);
  if (!rc) rc = sim_step(S, i, &ev, t);
  if (!rc) rc = sim_unpark(S, i, t);
  if (!rc && S->c->poll) rc = lb_rt_fire(S->node[i].rt, t);
  *kick = !rc;
  return rc;
}

static int quantum_end(sim *S, const sim_ev *e)
{
  int kick, rc = sim_quantum_done(S, e->node, e->id, e->work, e->t, &kick);
  return rc || !kick ? rc : sim_kick(S, e->node, e->t);
}

int sim_over(sim *S, double t, double *done_at)
{
  if (!((S->nhome == S->np || S->ndead) && S->nsunk == S->np && !S->msgs_inflight && !sim_pending_failures(S)))
    return 0;
  if (*done_at < 0) *done_at = t;
  if (sim_all_quiet(S)) return 1;
  /* Open transactions must close on their own timers soon after the
   * work is done; waiting much longer means a lock is stuck. */
  return t > 2 * *done_at + 1e4 * (S->c->latency + 1);
}

void sim_sample_header(const sim *S) { fprintf(S->c->load_csv, "time,queued,max,min,heavy,light\n"); }

/* Events that happen at their node, which a frozen node takes only
 * when it thaws. */
static int local(uint32_t kind)
{
  return kind == SIM_EV_DELIVER || kind == SIM_EV_TIMER || kind == SIM_EV_ARRIVE || kind == SIM_EV_QEND ||
         kind == SIM_EV_TICK || kind == SIM_EV_ORDER || kind == SIM_EV_QUIT;
}

/* Does (t, seq) come before (u, useq)? */
static int earlier(double t, uint64_t seq, double u, uint64_t useq) { return t < u || (t == u && seq < useq); }

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
  int arr = k < S->np && (!top || sim_ev_before(ta, k, top)) && (S->next_tick >= S->n || earlier(ta, k, 0, tick));
  *have = 1;
  if (arr) {
    size_t i = sim_arr_node(S, S->next_arr);
    lb_proc *p;
    if (S->prefetch) sim_prefetch_arrivals(S);
    if ((rc = sim_new_proc(S, k, i, &p))) return rc;
    S->next_arr++;
    *e = (sim_ev){.t = ta, .seq = k, .kind = SIM_EV_ARRIVE, .node = i, .proc = p};
    return LB_SUCCESS;
  }
  if (S->next_tick < S->n && (!top || sim_ev_before(0, tick, top))) {
    *e = (sim_ev){.t = 0, .seq = tick, .kind = SIM_EV_TICK, .node = S->next_tick++};
    return LB_SUCCESS;
  }
  *have = top != NULL;
  if (top) sim_queue_take(&S->h, top, e);
  return LB_SUCCESS;
}

int sim_run(sim *S)
{
  const lb_sim_config *c = S->c;
  unsigned long cap = c->max_events ? c->max_events : 200000000ul;
  int rc = LB_SUCCESS;
  if (c->sample_dt > 0 && c->load_csv) {
    sim_sample_header(S);
    rc = sim_queue_push(&S->h, (sim_ev){.t = 0, .kind = SIM_EV_SAMPLE});
  }
  double done_at = -1;
  int snapped = !(c->snapshot_at > 0 && c->snapshot);
  sim_ev e;
  int have;
  while (!rc && !(rc = next_event(S, &e, &have)) && have) {
    if (S->prefetch) sim_prefetch(S);
    if (S->tr) S->tr_last = e.t;
    if (!snapped && e.t >= c->snapshot_at) {
      for (size_t i = 0; i < S->n; i++) c->snapshot[i] = (long)lb_node_queue_len(S->node[i].nd);
      S->r->stopped = 1;
      sim_ev_free(&e);
      break;
    }
    if (++S->r->events > cap) {
      sim_violation(S, "no termination after %lu events (t=%g)", cap, e.t);
      sim_ev_free(&e);
      break;
    }
    if (S->sil) {
      if (e.kind != SIM_EV_LEASE && e.kind != SIM_EV_RENEW) S->last_real = e.t;
      /* A frozen node takes nothing until it thaws. */
      if (local(e.kind) && sim_frozen(S, e.node, e.t)) {
        rc = sim_defer(S, &e);
        continue;
      }
    }
    switch (e.kind) {
    case SIM_EV_DELIVER: rc = sim_deliver(S, &e); break;
    case SIM_EV_CRASH:
      S->crash_events++;
      rc = sim_crash(S, e.node, 0);
      break;
    case SIM_EV_REJECT: rc = sim_reject(S, e.id, e.node, e.t); break;
    case SIM_EV_DETECT: rc = sim_detect(S, e.node, e.t); break;
    case SIM_EV_TIMER:
      /* Polling nodes, as the worker, fire timers between quanta only,
       * after the messages (quantum_end). */
      if (S->node[e.node].dead || (c->poll && S->node[e.node].busy)) break;
      rc = lb_rt_fire(S->node[e.node].rt, e.t);
      if (rc) rc = lb_error_wrap(rc, "t=%g node %zu", e.t, (size_t)e.node);
      if (!rc) rc = sim_kick(S, e.node, e.t);
      break;
    case SIM_EV_ARRIVE: {
      if (S->node[e.node].dead) {
        S->r->lost++;
        lb_proc_free(e.proc);
        break;
      }
      lb_event ev = {.type = LB_EV_ARRIVE, .proc = e.proc};
      rc = sim_step(S, e.node, &ev, e.t);
      if (!rc) rc = sim_kick(S, e.node, e.t);
      break;
    }
    case SIM_EV_ORDER: {
      if (S->node[e.node].dead) break;
      lb_event ev = {.type = LB_EV_ORDER, .dst = (size_t)e.id, .count = (long)e.work};
      rc = sim_step(S, e.node, &ev, e.t);
      if (!rc) rc = sim_kick(S, e.node, e.t);
      break;
    }
    case SIM_EV_QEND: rc = quantum_end(S, &e); break;
    case SIM_EV_TICK: rc = sim_kick(S, e.node, e.t); break;
    case SIM_EV_SILENT:
    case SIM_EV_RESUME:
    case SIM_EV_LEASE:
    case SIM_EV_RENEW:
    case SIM_EV_QUIT:
    case SIM_EV_SINK: rc = sim_silent_event(S, &e); break;
    case SIM_EV_SAMPLE:
      sim_sample(S, e.t);
      if (S->nhome < S->np) rc = sim_queue_push(&S->h, (sim_ev){.t = e.t + c->sample_dt, .kind = SIM_EV_SAMPLE});
      break;
    }
    if (sim_over(S, e.t, &done_at)) break;
  }
  return rc;
}
