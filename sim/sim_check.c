/* sim_check.c: the invariants (lb_sim.h).  For every process the
 * simulator follows whether it finished, came home and reached the
 * sink, and where its result's bytes are; each step that moves one is
 * checked here as it happens, and the run's end once more.  Nothing
 * here knows a policy: a node's own state is judged by lb_node_quiescent
 * and lb_node_pending_results. */
#include <math.h>
#include <stdarg.h>
#include <sys/types.h>
#include "sim_impl.h"
#include "lb_errno.h"

void sim_violation(sim *S, const char *fmt, ...)
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

int sim_known_pid(sim *S, size_t i, uint64_t pid, const char *what)
{
  if (pid < S->np) return 1;
  sim_violation(S, "node %zu: %s of unknown process %llu", i, what, (unsigned long long)pid);
  return 0;
}

/* Where a result's bytes are is followed exactly while a process has
 * one copy; one the sink ran again may have two. */
void sim_result_sent(sim *S, size_t i, uint64_t pid)
{
  if (!sim_known_pid(S, i, pid, "payload")) return;
  if (S->pr[pid].where != i && !S->pr[pid].rerun)
    sim_violation(S, "node %zu sent the result of process %llu, whose bytes are not there", i, (unsigned long long)pid);
  S->pr[pid].where = AT_WIRE;
}

void sim_result_arrived(sim *S, size_t i, uint64_t pid)
{
  if (pid >= S->np) return; /* sim_to_sink or sim_home will say */
  if (S->pr[pid].where != AT_WIRE && !S->pr[pid].rerun)
    sim_violation(S, "the result of process %llu arrived at %zu without its bytes on the wire", (unsigned long long)pid,
                  i);
  S->pr[pid].where = i;
}

/* The runtime's callback context ctx names node *i of *S; the record
 * of the process r names, or NULL (a violation) when there is none. */
static simproc *proc_of(void *ctx, const lb_result_ref *r, const char *what, sim **S, size_t *i)
{
  simnode *x = ctx;
  *S = x->S;
  *i = sim_node_of(*S, x);
  return sim_known_pid(*S, *i, r->pid, what) ? &(*S)->pr[r->pid] : NULL;
}

int sim_home(void *ctx, const lb_result_ref *r, double now)
{
  (void)now;
  sim *S;
  size_t i;
  uint64_t pid = r->pid;
  simproc *p = proc_of(ctx, r, "home", &S, &i);
  if (!p) return LB_SUCCESS;
  /* A process run again has two origins: its first copy may come home too. */
  if (p->origin != i && !p->rerun)
    sim_violation(S, "process %llu came home at %zu, origin %zu", (unsigned long long)pid, i, (size_t)p->origin);
  if (!p->done && !p->rerun) sim_violation(S, "process %llu came home before it finished", (unsigned long long)pid);
  if (p->home++) {
    if (!p->rerun) sim_violation(S, "process %llu came home twice", (unsigned long long)pid);
  } else S->nhome++;
  return LB_SUCCESS;
}

int sim_sink_take(sim *S, size_t i, uint64_t pid, uint64_t len, double now)
{
  simproc *p = &S->pr[pid];
  if (S->node[i].fenced) {
    /* A fenced node's result is never counted, right or not: its
     * process ran again elsewhere. */
    S->r->fenced_dropped++;
    p->where = AT_LOST;
    return LB_SUCCESS;
  }
  p->where = AT_SINK;
  if (lb_sink_is_accepted(S->sink, pid)) {
    /* A second copy is fine only of a process the sink ran again. */
    if (!p->rerun) sim_violation(S, "process %llu delivered twice", (unsigned long long)pid);
    S->r->duplicates++;
    return LB_SUCCESS;
  }
  /* The sink's check: a wrong result is rejected once the driver's turn
   * comes (an event: the node's step is still under way), not here. */
  uint64_t diff = p->bytes ^ sim_result_of(pid);
  if (diff && S->c->corrupt > 0 && diff - 1 < S->n && len == sim_result_len(S))
    return sim_queue_push(&S->h, (sim_ev){.t = now, .kind = SIM_EV_REJECT, .node = (uint32_t)(diff - 1), .id = pid});
  if (diff || len != sim_result_len(S))
    sim_violation(S, "process %llu: wrong result at the sink", (unsigned long long)pid);
  int first;
  int rc = lb_sink_accept(S->sink, pid, i, &first);
  if (rc) return rc;
  if (!first) return lb_error(LB_ESTATE, "process %llu: the sink took a duplicate for new", (unsigned long long)pid);
  p->sunk = 1;
  S->nsunk++;
  S->last_sunk = now;
  return LB_SUCCESS;
}

int sim_to_sink(void *ctx, const lb_result_ref *r, double now)
{
  sim *S;
  size_t i;
  uint64_t pid = r->pid;
  simproc *p = proc_of(ctx, r, "delivery", &S, &i);
  if (!p) return LB_SUCCESS;
  if (p->where != i && !p->rerun) {
    sim_violation(S, "node %zu delivered the result of process %llu, whose bytes are not there", i,
                  (unsigned long long)pid);
    return LB_SUCCESS;
  }
  /* From a node frozen or cut off (a step the driver gave it: a failure
   * elsewhere), the result reaches the master when the node is back. */
  double at = sim_arrival(S, i, i, now, 0);
  if (at > now) {
    p->where = AT_WIRE;
    if (!isfinite(at)) {
      p->where = AT_LOST;
      return LB_SUCCESS;
    }
    return sim_queue_push(
        &S->h, (sim_ev){.t = at, .kind = SIM_EV_SINK, .node = (uint32_t)i, .id = pid, .work = (double)r->len});
  }
  return sim_sink_take(S, i, pid, r->len, now);
}

double sim_ran(sim *S, size_t i, const lb_proc *p, double work, int *fin)
{
  double left;
  if (!sim_context(S, i, p, &left)) sim_violation(S, "process %llu lost its context", (unsigned long long)p->id);
  else if (left != p->work)
    sim_violation(S, "process %llu: context %g != work %g", (unsigned long long)p->id, left, p->work);
  left = p->work - work;
  *fin = left <= 1e-9 * (1 + work);
  if (!*fin) return left;
  uint64_t pid = p->id;
  simproc *x = &S->pr[pid];
  if (x->done++) {
    if (!x->rerun) sim_violation(S, "process %llu ran to completion twice", (unsigned long long)pid);
  } else S->ndone++;
  if (x->where != AT_NOWHERE && !x->rerun)
    sim_violation(S, "process %llu made its result twice", (unsigned long long)pid);
  x->where = i;
  x->bytes = sim_result_of(pid);
  if (S->crng && i == S->c->corrupt_node && lb_rng_uniform(S->crng) < S->c->corrupt) x->bytes ^= 1 + (uint64_t)i;
  return 0;
}

void sim_finish_checks(sim *S)
{
  int failures = S->ndead > 0;
  if (S->ndone != S->np) sim_violation(S, "%zu of %zu processes finished", S->ndone, S->np);
  if (S->nsunk != S->np) sim_violation(S, "%zu of %zu results reached the sink", S->nsunk, S->np);
  /* With failures an origin may be gone: its results reach the sink
   * off the protocol's path. */
  if (!failures && S->nhome != S->np) sim_violation(S, "%zu of %zu results came home", S->nhome, S->np);
  if (S->inflight) sim_violation(S, "%ld processes still in transit", S->inflight);
  for (size_t k = 0; k < S->np; k++)
    if (S->pr[k].where != AT_SINK && !(failures && S->pr[k].where == AT_LOST && S->pr[k].sunk)) {
      sim_violation(S, "the bytes of process %zu's result are still held (at %zd)", k, (ssize_t)S->pr[k].where);
      break;
    }
  for (size_t i = 0; i < S->n; i++) {
    if (S->node[i].out) continue;
    const lb_node *nd = S->node[i].nd;
    if (!lb_node_quiescent(nd) || lb_node_pending_results(nd)) {
      char what[2048];
      lb_node_describe(nd, what, sizeof what);
      sim_violation(S, "node %zu not quiescent at the end (%s, %zu results to come back)%s%s", i,
                    lb_policy_name(lb_node_policy(nd)), lb_node_pending_results(nd), *what ? ": " : "", what);
    }
    if (lb_node_queue_len(nd)) sim_violation(S, "node %zu still holds %zu processes", i, lb_node_queue_len(nd));
  }
}

/* A second copy of a process run again still runs to its end.  Asked
 * after every event at the end of a run, it starts where it last found
 * a busy node, which is usually busy still: not a scan of every node
 * per event.  One busy node answers no, so any start gives the same. */
int sim_all_quiet(sim *S)
{
  for (size_t k = 0, i = S->busy_at; k < S->n; k++, i = i + 1 < S->n ? i + 1 : 0)
    if (!S->node[i].out && (!lb_node_quiescent(S->node[i].nd) || lb_node_queue_len(S->node[i].nd))) {
      S->busy_at = i;
      return 0;
    }
  return 1;
}
