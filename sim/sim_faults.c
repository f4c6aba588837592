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
  S->ndead++;
  if (excluded) S->r->excluded++;
  else S->r->crashed++;
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

/* Every live node's inventory: its queue and the result bytes it holds.
 * A queue may hold more than np processes: after an earlier failure the
 * sink ran again processes that were in flight, and both copies live
 * until the second result is dropped. */
static int inventories(sim *S, uint64_t epoch)
{
  size_t cap = S->np;
  for (size_t i = 0; i < S->n; i++)
    if (!S->node[i].dead && lb_node_queue_len(S->node[i].nd) > cap) cap = lb_node_queue_len(S->node[i].nd);
  cap += S->np;
  uint64_t *held = malloc((cap + 1) * sizeof *held);
  if (!held) return lb_error(LB_ENOMEM, "inventory");
  int rc = LB_SUCCESS;
  for (size_t i = 0; i < S->n && !rc; i++) {
    if (S->node[i].dead) continue;
    size_t n = lb_node_queue_ids(S->node[i].nd, held, cap);
    for (size_t k = 0; k < S->np; k++)
      if (S->pr[k].where == i && n < cap) held[n++] = k;
    rc = lb_sink_inventory(S->sink, epoch, i, held, n);
  }
  free(held);
  return rc;
}

/* Process pid runs again from the start at node `host`. */
static int rerun_one(sim *S, uint64_t pid, size_t host, double now)
{
  lb_proc *p;
  int rc = sim_new_proc(S, pid, host, &p);
  if (rc) return rc;
  S->pr[pid].rerun = 1;
  S->pr[pid].origin = (uint32_t)host;
  S->pr[pid].where = AT_NOWHERE;
  S->r->reruns++;
  lb_event ev = { .type = LB_EV_ARRIVE, .proc = p };
  if (!(rc = sim_step(S, host, &ev, now))) rc = sim_kick(S, host, now);
  return rc;
}

/* The processes held nowhere, from the start, on the hosts the sink
 * names. */
static int rerun(sim *S, double now)
{
  uint64_t *pids;
  size_t *hosts, nr;
  int rc = lb_sink_reruns(S->sink, &pids, &hosts, &nr);
  if (rc) return rc;
  for (size_t k = 0; k < nr && !rc; k++) rc = rerun_one(S, pids[k], hosts[k], now);
  free(pids);
  free(hosts);
  return rc;
}

int sim_detect(sim *S, size_t d, double now)
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
      rc = sim_step(S, i, &ev, now);
    }
  }
  if (!rc) rc = inventories(S, epoch);
  /* A node that failed but is not known to have cannot answer: the
   * round stays open until its own detection starts the next one. */
  if (rc || lb_sink_waiting(S->sink)) return rc;
  return rerun(S, now);
}

int sim_reject(sim *S, uint64_t pid, size_t exec, double now)
{
  S->r->rejected++;
  if (lb_sink_is_accepted(S->sink, pid)) return LB_SUCCESS;   /* another copy got there first */
  size_t to;
  int excl;
  int rc = lb_sink_reject(S->sink, pid, exec, &to, &excl);
  if (!rc) rc = rerun_one(S, pid, to, now);
  if (!rc && excl) {
    sim_crash(S, exec, 1);
    rc = sim_detect(S, exec, now);
  }
  return rc;
}

int sim_pending_failures(const sim *S)
{
  return S->crash_events < S->c->ncrashes || lb_sink_live_hosts(S->sink) + S->ndead != S->n;
}
