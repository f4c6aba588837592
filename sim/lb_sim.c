/* lb_sim.c: a run of the simulator (lb_sim.h): its configuration,
 * set-up, end and totals.  sim_impl.h lists the other rooms. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sim_impl.h"
#include "sim_arena.h"
#include "lb_mem.h"
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

static int check_config(const lb_sim_config *c)
{
  if (!c->topo) return lb_error(LB_EINVAL, "no topology");
  if (c->topo->n >= UINT32_MAX) return lb_error(LB_ERANGE, "%zu nodes: at most 2^32 - 2", c->topo->n);
  if (!lb_topo_is_connected(c->topo)) return lb_error(LB_ETOPO, "graph '%s' is not connected", c->topo->name);
  if (!(c->latency >= 0)) return lb_error(LB_EINVAL, "latency %g < 0", c->latency);
  if (!(c->jitter >= 0)) return lb_error(LB_EINVAL, "jitter %g < 0", c->jitter);
  if (!(c->cost_msg >= 0) || !(c->cost_byte >= 0)) return lb_error(LB_EINVAL, "message cost < 0");
  if (c->ctx_len > ((size_t)1 << 30) || c->ctx_started_len > ((size_t)1 << 30) || c->result_len > ((size_t)1 << 30))
    return lb_error(LB_ERANGE, "contexts and results up to 1 GiB");
  if (!(c->quantum > 0)) return lb_error(LB_EINVAL, "quantum %g <= 0", c->quantum);
  if (c->load != LB_SIM_LOAD_TRACE && !(c->work > 0)) return lb_error(LB_EINVAL, "work %g <= 0", c->work);
  if (c->load == LB_SIM_LOAD_TRACE && !c->ntrace) return lb_error(LB_EINVAL, "empty arrival trace");
  for (size_t i = 0; c->speeds && i < c->topo->n; i++)
    if (!(c->speeds[i] > 0)) return lb_error(LB_EINVAL, "speed %g <= 0 at node %zu", c->speeds[i], i);
  for (size_t i = 0; c->rates && i < c->topo->n; i++)
    if (!(c->rates[i] > 0) || !(c->rates[i] < 1e300))
      return lb_error(LB_EINVAL, "rate %g is not a positive number at node %zu", c->rates[i], i);
  for (size_t k = 0; c->load == LB_SIM_LOAD_TRACE && k < c->ntrace; k++)
    if (c->trace[k].node >= c->topo->n || !(c->trace[k].work > 0) || !(c->trace[k].t >= 0) ||
        !(c->trace[k].est >= 0 && c->trace[k].est < 1e30))
      return lb_error(LB_EINVAL, "trace arrival %zu: node %zu, work %g, time %g", k + 1, c->trace[k].node,
                      c->trace[k].work, c->trace[k].t);
  if (c->ncrashes >= c->topo->n)
    return lb_error(LB_EINVAL, "%zu failures of %zu nodes: one must live", c->ncrashes, c->topo->n);
  for (size_t k = 0; k < c->ncrashes; k++)
    if (c->crashes[k].node >= c->topo->n || !(c->crashes[k].t >= 0))
      return lb_error(LB_EINVAL, "failure %zu: node %zu at %g", k + 1, c->crashes[k].node, c->crashes[k].t);
  if (!(c->detect >= 0)) return lb_error(LB_EINVAL, "detection delay %g < 0", c->detect);
  if (c->ncrashes + c->nsilent >= c->topo->n)
    return lb_error(LB_EINVAL, "%zu failures of %zu nodes: one must live", c->ncrashes + c->nsilent, c->topo->n);
  for (size_t k = 0; k < c->nsilent; k++) {
    const lb_sim_silent *f = &c->silent[k];
    if (f->node >= c->topo->n || !(f->t >= 0) || !(f->dur > 0) ||
        (f->kind != LB_SIM_FREEZE && f->kind != LB_SIM_PARTITION) || (f->kind == LB_SIM_PARTITION && !isfinite(f->dur)))
      return lb_error(LB_EINVAL, "silent fault %zu: node %zu at %g for %g", k + 1, f->node, f->t, f->dur);
    /* One fault a node: a node's freeze and partition do not overlap. */
    for (size_t j = 0; j < k; j++)
      if (c->silent[j].node == f->node) return lb_error(LB_EINVAL, "two silent faults of node %zu", f->node);
    for (size_t j = 0; j < c->ncrashes; j++)
      if (c->crashes[j].node == f->node) return lb_error(LB_EINVAL, "node %zu both crashes and goes silent", f->node);
  }
  if (c->nsilent && lb_lease_params_check(c->node.lease.period, c->node.lease.duration))
    return lb_error(LB_EINVAL, "%s", lb_errmsg());
  if (!(c->corrupt >= 0 && c->corrupt <= 1)) return lb_error(LB_EINVAL, "fraction of wrong results %g", c->corrupt);
  if (c->corrupt > 0 && c->corrupt_node >= c->topo->n)
    return lb_error(LB_EINVAL, "faulty node %zu of %zu", c->corrupt_node, c->topo->n);
  if (c->corrupt > 0 && c->ncrashes + 1 >= c->topo->n)
    return lb_error(LB_EINVAL, "%zu failures and a faulty node of %zu nodes: one must live", c->ncrashes, c->topo->n);
  for (size_t k = 0; k < c->norders; k++) {
    const lb_sim_order *o = &c->orders[k];
    if (o->node >= c->topo->n || o->dst >= c->topo->n || o->dst == o->node || o->count < 0 || !(o->t >= 0))
      return lb_error(LB_EINVAL, "order %zu: node %zu to %zu, %ld processes at %g", k + 1, o->node, o->dst, o->count,
                      o->t);
  }
  return LB_SUCCESS;
}

/* The time of one hop of a small message, worst-case jitter included,
 * and, where nodes take messages between quanta only, a whole quantum
 * of waiting: what Tmax and probe timeouts rest on. */
static double hop_time(const lb_sim_config *c)
{
  lb_msg probe = {.type = LB_MSG_RM};
  double hop = c->latency * (1 + c->jitter) + (c->bandwidth > 0 ? (double)lb_msg_size(&probe) / c->bandwidth : 0) +
               (c->poll ? c->quantum : 0);
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

/* The nodes' counts, summed. */
static void totals(const sim *S, lb_sim_result *res)
{
  lb_node_stats st = {0};
  for (size_t i = 0; i < S->n; i++) lb_node_stats_add(&st, lb_node_stats_get(S->node[i].nd));
  memcpy(res->sent, st.sent, sizeof res->sent);
  for (int k = 0; k < LB_MSG_NTYPES; k++) res->messages += st.sent[k];
  res->bytes = st.bytes;
  res->migrated = st.migrated;
  res->migrated_started = st.migrated_started;
  res->ctx_bytes = st.ctx_bytes;
  res->invocations = st.invocations;
  res->episodes = st.episodes;
  res->orphans = st.orphans;
  memcpy(res->placed, st.placed, sizeof res->placed);
  res->dissolved = st.dissolved;
}

int sim_open(sim *S, const lb_sim_config *c, lb_sim_result *res, const lb_rt_ops *ops)
{
  memset(res, 0, sizeof *res);
  memset(S, 0, sizeof *S);
  S->c = c;
  S->r = res;
  int rc = check_config(c);
  if (rc) return rc;
  S->n = c->topo->n;
  S->np = c->load == LB_SIM_LOAD_TRACE ? c->ntrace
          : c->nproc                   ? c->nproc
                                       : (size_t)(c->node.capacity > 0 ? c->node.capacity : 1) * S->n * 2;
  res->nproc = S->np;
  lb_codec_limits_default(&S->lim, S->n);
  /* lb/'s records of this run come from the arena (or the given
   * allocator), and go back to it before it goes (sim_close); the
   * caller's allocator is this thread's again after. */
  lb_mem_get(&S->caller);
  if (!c->mem && (rc = sim_arena_alloc(&S->arena))) return rc;
  S->arena_mem = (lb_mem){.alloc = sim_arena_get, .free = sim_arena_put, .ctx = S->arena, .zalloc = sim_arena_zget};
  lb_mem_set(c->mem ? c->mem : &S->arena_mem);
  S->mem_set = 1;
  S->node = sim_huge_calloc(S->n * sizeof *S->node);
  S->ctxbuf = calloc(sim_ctx_started_len(S) > sim_ctx_len(S) ? sim_ctx_started_len(S) : sim_ctx_len(S), 1);
  S->pr = sim_huge_calloc((S->np ? S->np : 1) * sizeof *S->pr);
  S->known = calloc(S->n, 1);
  S->topo = c->topo;
  S->prefetch = S->n >= SIM_PREFETCH_NODES;
  if (!S->node || !S->ctxbuf || !S->pr || !S->known || lb_sink_alloc(S->np, S->n, &S->sink))
    return lb_error(LB_ENOMEM, "simulator state for %zu nodes, %zu processes", S->n, S->np);
  for (size_t k = 0; k < S->np; k++) S->pr[k].where = AT_NOWHERE;
  if ((rc = sim_live_alloc(S)) || (rc = sim_trace_alloc(S))) return rc;
  if ((rc = lb_rng_alloc_stream(c->seed, 1u << 21, &S->rng))) return rc;
  if (c->corrupt > 0 && (rc = lb_rng_alloc_stream(c->seed, 1u << 22, &S->crng))) return rc;
  double bw;
  size_t nb = queue_shape(c, S->n, &bw);
  if ((rc = sim_queue_init(&S->h, bw, nb))) return rc;
  lb_node_params p = c->node;
  if (!(p.hop_time > 0)) p.hop_time = hop_time(c);
  p.seed = c->seed;
  if ((rc = lb_policy_prepare(c->policy, c->topo, &p))) return rc;
  S->params = p;
  if (!ops) ops = &sim_ops[(c->msg_trace ? 1 : 0) | (c->leaving ? 2 : 0)];
  for (size_t i = 0; i < S->n && !rc; i++) {
    double speed = c->speeds ? c->speeds[i] : p.speed;
    /* the policy plans with the speed; the ideal is at the CPU received */
    S->sum_speed += sim_speed(S, i);
    S->node[i].S = S;
    /* One set of parameters for every node (S->params, freed after
     * them in sim_close). */
    rc = lb_rt_alloc_shared(c->policy, i, c->topo, &S->params, speed, ops, &S->node[i], &S->node[i].rt);
    if (!rc) S->node[i].nd = lb_rt_node(S->node[i].rt);
    if (!rc) lb_rt_use_out(S->node[i].rt, &S->out); /* one node steps at a time */
  }
  if (rc || (rc = sim_setup_load(S, res))) return rc;
  if ((rc = sim_silent_alloc(S))) return rc;
  sim_optimum(S, res);
  /* Every node gets a first check point at time 0, after the initial
   * arrivals, so periodic policies start even on a node that is busy
   * (sim_loop.c makes them). */
  S->tick_seq = S->h.seq;
  S->h.seq += S->n;
  return LB_SUCCESS;
}

void sim_end(sim *S)
{
  lb_sim_result *res = S->r;
  sim_trace_end(S);
  res->ideal = res->total_work / S->sum_speed;
  res->makespan = S->last_sunk;
  if (!res->stopped) sim_finish_checks(S);
  totals(S, res);
}

void sim_close(sim *S)
{
  for (size_t i = 0; S->node && i < S->n; i++) {
    lb_rt_free(S->node[i].rt);
    for (size_t k = 0; k < S->node[i].parked.n; k++) lb_msg_free(S->node[i].parked.v[k]);
    free(S->node[i].parked.v);
  }
  lb_out_release(&S->out);
  sim_queue_free(&S->h);
  lb_rng_free(S->rng);
  lb_rng_free(S->crng);
  free(S->wire);
  free(S->lens);
  free(S->node);
  free(S->ctxbuf);
  free(S->pr);
  free(S->known);
  free(S->arr_order);
  lb_sink_free(S->sink);
  sim_live_free(S);
  sim_silent_free(S);
  sim_trace_free(S);
  for (size_t k = 0; k < S->nrepaired; k++) lb_topo_free(S->repaired[k]);
  free(S->repaired);
  if (S->mem_set) lb_mem_set(&S->caller);
  sim_arena_free(S->arena);
  memset(S, 0, sizeof *S);
}

int lb_sim_run(const lb_sim_config *c, lb_sim_result *res)
{
  sim S;
  int rc = sim_open(&S, c, res, NULL);
  if (!rc) rc = sim_run(&S);
  if (!rc) sim_end(&S);
  sim_close(&S);
  return rc;
}
