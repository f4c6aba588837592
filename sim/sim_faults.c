/* sim_faults.c: node failures.  A failed node loses its processes, its
 * timers, the result bytes it holds and every message to or from it in
 * flight; `detect` later the survivors learn of it, with the repaired
 * graph, and the sink gathers every live node's inventory and runs
 * again what is held nowhere (lb_sink.h). */
#include <stdlib.h>
#include "sim_impl.h"
#include "lb_errno.h"

void sim_lose(sim *S, lb_msg *m)
{
  if (lb_msg_type_has_result(m->type) && m->res.payload && m->res.pid < S->np && S->pr[m->res.pid].where == AT_WIRE)
    S->pr[m->res.pid].where = AT_LOST;
  S->r->lost += m->nproc;
  lb_msg_free(m);
}

int sim_crash(sim *S, size_t d, int excluded)
{
  if (S->node[d].dead) return LB_SUCCESS;
  S->node[d].dead = 1;
  if (!S->node[d].out) {
    S->node[d].out = 1;
    S->ndead++;
    if (excluded) S->r->excluded++;
    else S->r->crashed++;
  }
  sim_live_drop(S, d);
  sim_trace_down(S, d);
  S->r->lost += lb_node_queue_len(S->node[d].nd);
  struct parked *p = &S->node[d].parked;
  for (size_t k = 0; k < p->n; k++) {
    S->inflight -= (long)p->v[k]->nproc;
    S->msgs_inflight--;
    sim_lose(S, p->v[k]);
  }
  p->n = 0;
  for (size_t k = 0; k < S->np; k++)
    if (S->pr[k].where == d) S->pr[k].where = AT_LOST;
  return LB_SUCCESS;
}

/* Node i's inventory for the open round: its queue and the result bytes
 * it holds.  A queue may hold more than np processes: after an earlier
 * failure the sink ran again processes that were in flight, and both
 * copies live until the second result is dropped. */
int sim_answer(sim *S, size_t i, double now)
{
  (void)now;
  size_t q = lb_node_queue_len(S->node[i].nd), cap = (q > S->np ? q : S->np) + S->np;
  uint64_t *held = malloc((cap + 1) * sizeof *held);
  if (!held) return lb_error(LB_ENOMEM, "inventory");
  size_t n = lb_node_queue_ids(S->node[i].nd, held, cap);
  for (size_t k = 0; k < S->np; k++)
    if (S->pr[k].where == i && n < cap) held[n++] = k;
  int rc = lb_sink_inventory(S->sink, S->epoch, i, held, n);
  free(held);
  return rc;
}

/* Every live node's inventory; a frozen or cut-off one answers when it
 * resumes, or its lease runs out and a new round leaves it out. */
static int inventories(sim *S, double now)
{
  int rc = LB_SUCCESS;
  for (size_t i = 0; i < S->n && !rc; i++) {
    if (S->node[i].out || (S->sil && (sim_frozen(S, i, now) || sim_cut(S, i, now)))) continue;
    rc = sim_answer(S, i, now);
  }
  return rc;
}

/* Process pid runs again from the start at node `host`. */
int sim_rerun_one(sim *S, uint64_t pid, size_t host, double now)
{
  lb_proc *p;
  int rc = sim_new_proc(S, pid, host, &p);
  if (rc) return rc;
  S->pr[pid].rerun = 1;
  S->pr[pid].origin = (uint32_t)host;
  S->pr[pid].where = AT_NOWHERE;
  S->r->reruns++;
  lb_event ev = {.type = LB_EV_ARRIVE, .proc = p};
  if (!(rc = sim_step(S, host, &ev, now))) rc = sim_kick(S, host, now);
  return rc;
}

/* The processes held nowhere, from the start, on the hosts the sink
 * names.  Called when a round's answers are all in: the first answers
 * only say every live node knows of the failure, so the sink asks again
 * (lb_sink_recount), as lbmaster does; here every node heard at the
 * same instant, so the second answers are the first ones again. */
int sim_rerun(sim *S, double now)
{
  if (!lb_sink_counted(S->sink)) {
    int rc = lb_sink_recount(S->sink, &S->epoch);
    if (!rc) rc = inventories(S, now);
    if (rc || lb_sink_waiting(S->sink)) return rc;
  }
  uint64_t *pids;
  size_t *hosts, nr;
  int rc = lb_sink_reruns(S->sink, &pids, &hosts, &nr);
  if (rc) return rc;
  for (size_t k = 0; k < nr && !rc; k++) rc = sim_rerun_one(S, pids[k], hosts[k], now);
  free(pids);
  free(hosts);
  return rc;
}

int sim_detect(sim *S, size_t d, double now)
{
  if (S->known[d]) return LB_SUCCESS; /* its lease ran out first, or its crash was noticed first */
  S->known[d] = 1;
  if (S->lease) lb_lease_fence(S->lease, d); /* out: its lease no longer counts */
  lb_topo *t;
  int rc = lb_topo_repair(S->c->topo, S->known, &t);
  if (rc) return rc;
  lb_topo **v = realloc(S->repaired, (S->nrepaired + 1) * sizeof *v);
  if (!v) {
    lb_topo_free(t);
    return lb_error(LB_ENOMEM, "repaired graphs");
  }
  S->repaired = v;
  S->repaired[S->nrepaired++] = t;
  S->topo = t;
  if ((rc = lb_sink_host_down(S->sink, d, &S->epoch))) return rc;
  /* Earlier failures are known already; each DOWN names one node. */
  for (size_t i = 0; i < S->n && !rc; i++) {
    if (S->node[i].out) continue;
    for (size_t j = 0; j < S->n && !rc; j++) {
      if (!S->known[j] || lb_node_is_down(S->node[i].nd, j)) continue;
      lb_event ev = {.type = LB_EV_DOWN, .dst = j, .topo = t};
      rc = sim_step(S, i, &ev, now);
    }
  }
  if (!rc) rc = inventories(S, now);
  /* A node that failed but is not known to have cannot answer: the
   * round stays open until its own detection starts the next one. */
  if (rc || lb_sink_waiting(S->sink)) return rc;
  return sim_rerun(S, now);
}

int sim_reject(sim *S, uint64_t pid, size_t exec, double now)
{
  S->r->rejected++;
  if (lb_sink_is_accepted(S->sink, pid)) return LB_SUCCESS; /* another copy got there first */
  size_t to;
  int excl;
  int rc = lb_sink_reject(S->sink, pid, exec, &to, &excl);
  if (!rc) rc = sim_rerun_one(S, pid, to, now);
  if (!rc && excl) {
    sim_crash(S, exec, 1);
    rc = sim_detect(S, exec, now);
  }
  return rc;
}

int sim_pending_failures(const sim *S)
{
  return S->crash_events < S->c->ncrashes || lb_sink_live_hosts(S->sink) + S->ndead != S->n ||
         (S->sil && sim_silent_pending(S));
}
