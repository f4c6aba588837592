/* steal, pool and dasud-ring: known answers on tiny graphs, stepped by
 * hand (every message delivered in order, timers fired when asked),
 * their refusal and failure paths, and skewed starts balanced in the
 * simulator; the registry of policies. */
#include "testutil.h"
#include "lb_node.h"
#include "lb_policy.h"
#include "lb_sim.h"
#include "lb_errno.h"

/* ---- a hand-stepped network ---- */
#define MAXN 8
#define MAXQ 512
typedef struct net {
  size_t n;
  lb_topo *t, *repaired;
  lb_node *nd[MAXN];
  lb_msg *q[MAXQ];
  size_t qh, qt;
  struct {
    size_t node;
    uint64_t id;
    double at;
  } tm[MAXQ];
  size_t ntm;
  uint64_t pid;
  lb_out *out;
} net;

static void take(net *x, size_t i)
{
  lb_out *o = x->out;
  for (size_t k = 0; k < o->n; k++) {
    if (o->v[k].type == LB_OUT_SEND) {
      assert_true(x->qt < MAXQ);
      x->q[x->qt++] = lb_out_take_msg(o, k);
    } else if (o->v[k].type == LB_OUT_TIMER) {
      assert_true(x->ntm < MAXQ);
      x->tm[x->ntm].node = i;
      x->tm[x->ntm].id = o->v[k].timer;
      x->tm[x->ntm++].at = o->v[k].at;
    }
  }
  lb_out_clear(o);
}

static void step(net *x, size_t i, const lb_event *ev, double now)
{
  if (lb_node_step(x->nd[i], ev, now, x->out)) fail_msg("node %zu: %s", i, lb_errmsg());
  take(x, i);
}

static void tick(net *x, size_t i, double now)
{
  lb_event ev = {.type = LB_EV_TICK};
  step(x, i, &ev, now);
}

/* Deliver every message in flight, in order (those made on the way too). */
static void drain(net *x, double now)
{
  while (x->qh < x->qt) {
    lb_msg *m = x->q[x->qh++];
    lb_event ev = {.type = LB_EV_MSG, .msg = m};
    step(x, m->hop_dst, &ev, now);
  }
}

/* Fire the earliest timer; 0 when none is left. */
static int fire(net *x)
{
  if (!x->ntm) return 0;
  size_t b = 0;
  for (size_t k = 1; k < x->ntm; k++)
    if (x->tm[k].at < x->tm[b].at) b = k;
  lb_event ev = {.type = LB_EV_TIMER, .timer = x->tm[b].id};
  size_t node = x->tm[b].node;
  double at = x->tm[b].at;
  x->tm[b] = x->tm[--x->ntm];
  step(x, node, &ev, at);
  return 1;
}

static void add(net *x, size_t i, long k)
{
  for (long j = 0; j < k; j++) {
    lb_proc *p;
    assert_int_equal(lb_proc_alloc(++x->pid, i, 1e6, NULL, 0, &p), LB_SUCCESS);
    lb_event ev = {.type = LB_EV_ARRIVE, .proc = p};
    step(x, i, &ev, 0);
  }
}

static void make(net *x, lb_policy pol, const char *spec, const long *load, lb_node_params *par)
{
  memset(x, 0, sizeof *x);
  assert_int_equal(lb_topo_from_spec(spec, &x->t), LB_SUCCESS);
  x->n = x->t->n;
  assert_true(x->n <= MAXN);
  assert_int_equal(lb_out_alloc(&x->out), LB_SUCCESS);
  assert_int_equal(lb_policy_prepare(pol, x->t, par), LB_SUCCESS);
  for (size_t i = 0; i < x->n; i++) assert_int_equal(lb_node_alloc(pol, i, x->t, par, &x->nd[i]), LB_SUCCESS);
  for (size_t i = 0; i < x->n; i++) add(x, i, load[i]);
}

static void destroy(net *x)
{
  while (x->qh < x->qt) lb_msg_free(x->q[x->qh++]);
  for (size_t i = 0; i < x->n; i++) lb_node_free(x->nd[i]);
  lb_out_free(x->out);
  lb_topo_free(x->t);
  lb_topo_free(x->repaired);
}

/* Node `dead` fails: its messages in flight are lost, the others learn it. */
static void crash(net *x, size_t dead)
{
  unsigned char d[MAXN] = {0};
  d[dead] = 1;
  assert_int_equal(lb_topo_repair(x->t, d, &x->repaired), LB_SUCCESS);
  size_t j = x->qh;
  for (size_t k = x->qh; k < x->qt; k++) {
    if (x->q[k]->hop_dst == dead || x->q[k]->hop_src == dead) lb_msg_free(x->q[k]);
    else x->q[j++] = x->q[k];
  }
  x->qt = j;
  for (size_t i = 0; i < x->n; i++) {
    if (i == dead) continue;
    lb_event ev = {.type = LB_EV_DOWN, .dst = dead, .topo = x->repaired};
    step(x, i, &ev, 0);
  }
}

static unsigned long sent(const net *x, size_t i, lb_msg_type t) { return lb_node_stats_get(x->nd[i])->sent[t]; }

static unsigned long sent_all(const net *x, lb_msg_type t)
{
  unsigned long s = 0;
  for (size_t i = 0; i < x->n; i++) s += sent(x, i, t);
  return s;
}

static void expect_q(const net *x, const long *want)
{
  for (size_t i = 0; i < x->n; i++)
    if ((long)lb_node_queue_len(x->nd[i]) != want[i])
      fail_msg("node %zu holds %zu, expected %ld", i, lb_node_queue_len(x->nd[i]), want[i]);
}

static int all_quiet(const net *x)
{
  for (size_t i = 0; i < x->n; i++)
    if (!lb_node_is_down(x->nd[(i + 1) % x->n], i) && !lb_node_quiescent(x->nd[i])) return 0;
  return 1;
}

static lb_node_params params(void)
{
  lb_node_params p;
  lb_node_params_default(&p); /* C = 4, A = 0.4: light below 3.6, heavy above 4.4 */
  return p;
}

/* ---- dasud-ring ---- */
/* ring:6, loads 10,4,4,0,4,4: node 0 (EPN ceil(10 - 4.4) = 6) finds no
 * light node in ring 1 {1, 5} or ring 2 {2, 4}, then node 3 (IPN
 * floor(4.4) = 4) in ring 3, and sends it min(6, 4) = 4.  Probes: 2 +
 * 2 + 1 from node 0, an answer from each; relays: 2 for ring 2's
 * probes and 2 for their answers, 2 + 2 for ring 3's, 2 for the
 * transfer.  A second run finds no light node anywhere and pauses. */
static void test_ring_search(void **state)
{
  (void)state;
  net x;
  lb_node_params p = params();
  make(&x, LB_POLICY_DASUD_RING, "ring:6", (long[]){10, 4, 4, 0, 4, 4}, &p);
  tick(&x, 0, 0);
  drain(&x, 0);
  expect_q(&x, (long[]){6, 4, 4, 4, 4, 4});
  assert_int_equal(sent(&x, 0, LB_MSG_POLICY), 5);
  assert_int_equal(sent_all(&x, LB_MSG_POLICY), 10);
  assert_int_equal(sent_all(&x, LB_MSG_TRANSFER), 1);
  unsigned long relayed = 0;
  for (size_t i = 0; i < 6; i++) relayed += lb_node_stats_get(x.nd[i])->relayed;
  assert_int_equal(relayed, 10);
  unsigned long hops = 0;
  for (size_t i = 0; i < 6; i++) hops += lb_node_stats_get(x.nd[i])->hops;
  assert_int_equal(hops, 4 * 3); /* four processes, three links */
  assert_int_equal(lb_node_stats_get(x.nd[0])->invocations, 1);
  assert_true(all_quiet(&x));
  /* Still heavy (EPN 2), no LV left: ring 1 to 3 probed, then a pause. */
  tick(&x, 0, 1);
  drain(&x, 1);
  assert_int_equal(sent(&x, 0, LB_MSG_POLICY), 10);
  assert_int_equal(sent_all(&x, LB_MSG_TRANSFER), 1);
  assert_true(all_quiet(&x));
  tick(&x, 0, 2); /* paused: nothing */
  assert_int_equal(x.qt - x.qh, 0);
  while (fire(&x)) {} /* the windows, then the pause */
  tick(&x, 0, 100);
  assert_int_equal(x.qt - x.qh, 2); /* a new run: ring 1 again */
  drain(&x, 100);
  destroy(&x);
}

/* Ties: of two LVs in ring 1 the larger IPN wins, then the lower id. */
static void test_ring_choice(void **state)
{
  (void)state;
  net x;
  lb_node_params p = params();
  make(&x, LB_POLICY_DASUD_RING, "ring:6", (long[]){10, 2, 4, 4, 4, 0}, &p);
  tick(&x, 0, 0);
  drain(&x, 0);
  expect_q(&x, (long[]){6, 2, 4, 4, 4, 4}); /* node 5, IPN 4 > node 1's 2 */
  assert_int_equal(sent(&x, 0, LB_MSG_POLICY), 2);
  destroy(&x);
  make(&x, LB_POLICY_DASUD_RING, "ring:6", (long[]){10, 0, 4, 4, 4, 0}, &p);
  tick(&x, 0, 0);
  drain(&x, 0);
  expect_q(&x, (long[]){6, 4, 4, 4, 4, 0}); /* equal IPNs: node 1 */
  destroy(&x);
}

/* A failure during a run: the run ends, the node is quiescent, and a
 * new run on the repaired graph starts at its next check point. */
static void test_ring_down(void **state)
{
  (void)state;
  net x;
  lb_node_params p = params();
  make(&x, LB_POLICY_DASUD_RING, "ring:6", (long[]){10, 4, 4, 0, 4, 4}, &p);
  tick(&x, 0, 0);
  assert_false(lb_node_quiescent(x.nd[0]));
  crash(&x, 1);
  assert_true(lb_node_quiescent(x.nd[0]));
  drain(&x, 0); /* the answers of the old run: ignored */
  assert_int_equal(sent_all(&x, LB_MSG_TRANSFER), 0);
  tick(&x, 0, 1);
  drain(&x, 1);
  /* on the path 2-3-4-5-0 node 3 is at distance 3 */
  expect_q(&x, (long[]){6, 4, 4, 4, 4, 4});
  assert_true(all_quiet(&x));
  destroy(&x);
}

/* Answers that miss their window: the ring is decided without them, and
 * the next ring's window is twice as long (hop time 1: ring 1's is 4,
 * ring 2's 4 x 2 x 2 = 16); a ring answered in full brings it back. */
static void test_ring_late(void **state)
{
  (void)state;
  net x;
  lb_node_params p = params();
  make(&x, LB_POLICY_DASUD_RING, "ring:6", (long[]){10, 4, 4, 4, 4, 4}, &p);
  tick(&x, 0, 0);
  assert_int_equal(x.ntm, 1);
  assert_true(x.tm[0].at == 4);
  while (x.qh < x.qt) lb_msg_free(x.q[x.qh++]); /* ring 1's probes lost */
  assert_true(fire(&x));                        /* at 4: ring 2 */
  assert_int_equal(x.qt - x.qh, 2);
  assert_int_equal(x.ntm, 1);
  assert_true(x.tm[0].at == 4 + 16);
  /* ring 2 answers in full: ring 3 at the plain window, 12; it has no
   * LV either, and the run pauses for one window of ring 3 */
  drain(&x, 5);
  assert_int_equal(x.ntm, 3);
  assert_true(x.tm[1].at == 5 + 12);
  assert_true(x.tm[2].at == 5 + 12);
  assert_true(all_quiet(&x));
  destroy(&x);
}

/* ---- steal ---- */
/* complete:2, node 0 holds 9: the idle node asks and gets half the
 * movable (ceil(8 / 2) = 4, within half the difference, 4); with
 * steal.amount one, 1. */
static void test_steal_half_one(void **state)
{
  (void)state;
  net x;
  lb_node_params p = params();
  make(&x, LB_POLICY_STEAL, "complete:2", (long[]){9, 0}, &p);
  tick(&x, 0, 0);
  assert_int_equal(x.qt, 0); /* busy: no request */
  tick(&x, 1, 0);
  assert_false(lb_node_quiescent(x.nd[1]));
  drain(&x, 0);
  expect_q(&x, (long[]){5, 4});
  assert_int_equal(sent(&x, 1, LB_MSG_POLICY), 1);
  assert_int_equal(sent(&x, 0, LB_MSG_TRANSFER), 1);
  assert_int_equal(sent(&x, 0, LB_MSG_POLICY), 0);
  assert_int_equal(lb_node_stats_get(x.nd[0])->migrated, 4);
  assert_true(all_quiet(&x));
  destroy(&x);
  p.steal.amount = 0;
  make(&x, LB_POLICY_STEAL, "complete:2", (long[]){9, 0}, &p);
  tick(&x, 1, 0);
  drain(&x, 0);
  expect_q(&x, (long[]){8, 1});
  destroy(&x);
}

/* Refusals: node 0 runs its one process and cannot spare it; the thief,
 * refused by every other node, sleeps (quiescent, no more requests);
 * once node 0 has work to spare it wakes the thief, which asks it. */
static void test_steal_refuse_wake(void **state)
{
  (void)state;
  net x;
  lb_node_params p = params();
  make(&x, LB_POLICY_STEAL, "complete:2", (long[]){1, 0}, &p);
  tick(&x, 1, 0);
  drain(&x, 0);
  expect_q(&x, (long[]){1, 0});
  assert_int_equal(sent(&x, 1, LB_MSG_POLICY), 1); /* ASK */
  assert_int_equal(sent(&x, 0, LB_MSG_POLICY), 1); /* NONE */
  assert_true(all_quiet(&x));
  tick(&x, 1, 1);
  assert_int_equal(x.qt - x.qh, 0); /* asleep */
  add(&x, 0, 2);
  tick(&x, 0, 2); /* WAKE */
  drain(&x, 2);   /* ASK, TRANSFER of 1 (half the difference of 3) */
  expect_q(&x, (long[]){2, 1});
  assert_int_equal(sent(&x, 0, LB_MSG_POLICY), 2);
  assert_int_equal(sent(&x, 1, LB_MSG_POLICY), 2);
  assert_int_equal(sent(&x, 0, LB_MSG_TRANSFER), 1);
  assert_true(all_quiet(&x));
  destroy(&x);
}

/* Every node of complete:4 refuses (none holds two), so each thief asks
 * the three others once and sleeps: 3 requests a thief, and a refusal
 * to each other thief; node 0 refuses the three. */
static void test_steal_sweep(void **state)
{
  (void)state;
  net x;
  lb_node_params p = params();
  make(&x, LB_POLICY_STEAL, "complete:4", (long[]){1, 0, 0, 0}, &p);
  for (size_t i = 1; i < 4; i++) tick(&x, i, 0);
  drain(&x, 0);
  for (size_t i = 1; i < 4; i++) assert_int_equal(sent(&x, i, LB_MSG_POLICY), 3 + 2); /* and 2 refusals */
  assert_int_equal(sent(&x, 0, LB_MSG_POLICY), 3);
  assert_true(all_quiet(&x));
  destroy(&x);
}

/* steal's tick is steady (lb_policy_ops.steady_tick): on ring:6 with
 * all the work on node 0, requests and answers pass through relays;
 * after each step that only passed a message on, lb_node_tick_due says
 * so, and a check point there indeed sends nothing, sets no timer and
 * moves no process.  RMTLB's tick makes no such promise. */
static void test_steal_steady_tick(void **state)
{
  (void)state;
  net x;
  lb_node_params p = params();
  make(&x, LB_POLICY_STEAL, "ring:6", (long[]){20, 0, 0, 0, 0, 0}, &p);
  for (size_t i = 0; i < 6; i++) tick(&x, i, 0);
  size_t relays = 0;
  for (double now = 0; now < 50 && (x.qh < x.qt || x.ntm); now += 1) {
    while (x.qh < x.qt) {
      lb_msg *m = x.q[x.qh++];
      size_t at = m->hop_dst, mine = m->dst == at;
      lb_event ev = {.type = LB_EV_MSG, .msg = m};
      step(&x, at, &ev, now);
      assert_int_equal(lb_node_tick_due(x.nd[at]), mine);
      if (mine) continue;
      relays++;
      size_t qt = x.qt, ntm = x.ntm, q = lb_node_queue_len(x.nd[at]);
      tick(&x, at, now + 0.5); /* later, as the simulator would */
      assert_int_equal(x.qt, qt);
      assert_int_equal(x.ntm, ntm);
      assert_int_equal(lb_node_queue_len(x.nd[at]), q);
      assert_int_equal(lb_node_tick_due(x.nd[at]), 1);
    }
    for (size_t i = 0; i < 6; i++) tick(&x, i, now);
    fire(&x);
  }
  assert_true(relays > 10);
  destroy(&x);

  lb_node_params r = params();
  make(&x, LB_POLICY_RMTLB, "ring:6", (long[]){20, 0, 0, 0, 0, 0}, &r);
  lb_msg *m;
  assert_int_equal(lb_msg_alloc(LB_MSG_LOAD, 0, 3, &m), LB_SUCCESS);
  m->hop_src = 0;
  m->hop_dst = 1;
  lb_event ev = {.type = LB_EV_MSG, .msg = m};
  step(&x, 1, &ev, 0);
  assert_int_equal(x.qt - x.qh, 1); /* passed on */
  assert_int_equal(lb_node_tick_due(x.nd[1]), 1);
  destroy(&x);
}

/* A victim that fails, and an answer lost with a relay: both count as
 * refusals, and the thief asks another node. */
static void test_steal_down_timeout(void **state)
{
  (void)state;
  net x;
  lb_node_params p = params();
  make(&x, LB_POLICY_STEAL, "complete:3", (long[]){5, 0, 5}, &p);
  tick(&x, 1, 0);
  size_t victim = x.q[x.qh]->dst;
  crash(&x, victim);                /* the request is lost with it */
  assert_int_equal(x.qt - x.qh, 1); /* asked the other at once */
  drain(&x, 0);
  assert_int_equal(lb_node_queue_len(x.nd[1]), 2);
  assert_true(lb_node_quiescent(x.nd[1]));
  destroy(&x);
  make(&x, LB_POLICY_STEAL, "complete:3", (long[]){5, 0, 5}, &p);
  tick(&x, 1, 0);
  lb_msg_free(x.q[x.qh++]); /* lost on the way */
  assert_false(lb_node_quiescent(x.nd[1]));
  assert_true(fire(&x)); /* the answer's window */
  drain(&x, 10);
  assert_int_equal(lb_node_queue_len(x.nd[1]), 2);
  assert_true(lb_node_quiescent(x.nd[1]));
  destroy(&x);
}

/* ---- pool ---- */
/* complete:3, the pool at node 0 with 13 (12 movable), P = 3.
 * factoring: a batch of chunks ceil(12 / 6) = 2; gss: ceil(12 / 3) = 4
 * then ceil(8 / 3) = 3; one: 1 and 1. */
static void test_pool_chunks(void **state)
{
  (void)state;
  const long want[3][2] = {{2, 2}, {4, 3}, {1, 1}};
  for (int ch = 0; ch < 3; ch++) {
    net x;
    lb_node_params p = params();
    p.pool.chunk = ch;
    make(&x, LB_POLICY_POOL, "complete:3", (long[]){13, 0, 0}, &p);
    tick(&x, 1, 0);
    drain(&x, 0);
    tick(&x, 2, 0);
    drain(&x, 0);
    expect_q(&x, (long[]){13 - want[ch][0] - want[ch][1], want[ch][0], want[ch][1]});
    assert_int_equal(sent_all(&x, LB_MSG_POLICY), 2);
    assert_int_equal(sent(&x, 0, LB_MSG_TRANSFER), 2);
    assert_true(all_quiet(&x));
    destroy(&x);
  }
}

/* An empty pool: the worker is told so and waits, asking no more; a
 * heavy node's excess (EPN ceil(10 - 4.4) = 6) goes to the pool, which
 * sends the waiting worker a chunk (factoring: ceil(6 / 6) = 1). */
static void test_pool_empty_excess(void **state)
{
  (void)state;
  net x;
  lb_node_params p = params();
  make(&x, LB_POLICY_POOL, "complete:3", (long[]){1, 0, 10}, &p);
  tick(&x, 1, 0);
  drain(&x, 0);
  expect_q(&x, (long[]){1, 0, 10});
  assert_int_equal(sent(&x, 0, LB_MSG_POLICY), 1); /* EMPTY */
  tick(&x, 1, 1);
  assert_int_equal(x.qt - x.qh, 0); /* waits */
  tick(&x, 2, 1);                   /* heavy: the excess to the pool */
  drain(&x, 1);
  expect_q(&x, (long[]){6, 1, 4});
  assert_int_equal(sent(&x, 2, LB_MSG_TRANSFER), 1);
  assert_int_equal(sent(&x, 0, LB_MSG_TRANSFER), 1);
  assert_true(all_quiet(&x));
  destroy(&x);
}

/* The pool fails: the lowest live node keeps the pool, and a worker
 * waiting on the old one asks it. */
static void test_pool_down(void **state)
{
  (void)state;
  net x;
  lb_node_params p = params();
  make(&x, LB_POLICY_POOL, "complete:3", (long[]){1, 7, 0}, &p);
  tick(&x, 2, 0);
  assert_false(lb_node_quiescent(x.nd[2]));
  crash(&x, 0);
  assert_true(lb_node_quiescent(x.nd[2]));
  tick(&x, 2, 1);
  drain(&x, 1);
  /* node 1 keeps the pool now: 6 movable, P = 2: ceil(6 / 4) = 2 */
  assert_int_equal(lb_node_queue_len(x.nd[2]), 2);
  assert_true(all_quiet(&x));
  destroy(&x);
}

/* ---- in the simulator ---- */
/* torus:4x4 from a skewed start (none: makespan 6 to 7 x the ideal):
 * each policy brings it within 1.5 x, with every invariant kept, and
 * with two nodes failing too. */
static void test_skew_balanced(void **state)
{
  (void)state;
  lb_topo *t;
  assert_int_equal(lb_topo_from_spec("torus:4x4", &t), LB_SUCCESS);
  const lb_policy pols[] = {LB_POLICY_NONE, LB_POLICY_STEAL, LB_POLICY_POOL, LB_POLICY_DASUD_RING};
  for (size_t k = 0; k < 4; k++)
    for (int crashes = 0; crashes < 2; crashes++) {
      lb_sim_config c;
      lb_sim_config_default(&c);
      c.policy = pols[k];
      c.topo = t;
      c.load = LB_SIM_LOAD_SKEW;
      c.nproc = 200;
      c.seed = 3;
      c.jitter = 0.5;
      lb_sim_crash cr[2] = {{30, 0}, {60, 5}};
      if (crashes) {
        c.crashes = cr;
        c.ncrashes = 2;
      }
      lb_sim_result r;
      if (lb_sim_run(&c, &r)) fail_msg("%s: %s", lb_policy_name(pols[k]), lb_errmsg());
      if (r.violations) fail_msg("%s: %s", lb_policy_name(pols[k]), r.first_violation);
      double ratio = r.makespan / r.ideal;
      if (crashes) continue;
      if (k == 0) assert_true(ratio > 5);
      else if (!(ratio < 1.5)) fail_msg("%s: makespan %g x the ideal", lb_policy_name(pols[k]), ratio);
      if (k) assert_true(r.migrated > 0 && r.sent[LB_MSG_POLICY] > 0);
    }
  lb_topo_free(t);
}

/* ---- the registry ---- */
static int noop_init(lb_node *nd)
{
  (void)nd;
  return LB_SUCCESS;
}
static const lb_policy_ops noop_ops = {.init = noop_init};
static const lb_param noop_rows[] = {
    {"noop.k", LB_PARAM_INT, 1, 9, 0, 3, NULL, 0, "K", "a count", 0, LB_PARAM_C_DOUBLE},
};

static void test_registry(void **state)
{
  (void)state;
  lb_policy id;
  assert_int_equal(lb_policy_count(), LB_POLICY_COUNT);
  assert_int_equal(lb_policy_from_name("dasud-ring", &id), LB_SUCCESS);
  assert_int_equal(id, LB_POLICY_DASUD_RING);
  assert_string_equal(lb_policy_name(LB_POLICY_STEAL), "steal");
  assert_non_null(strstr(lb_policy_list(), "pool"));
  for (size_t k = 0; k < lb_policy_count(); k++) assert_non_null(lb_policy_desc_get((lb_policy)k)->summary);
  /* bad descriptors */
  lb_policy_desc d = {"Bad Name", "x", &noop_ops, NULL, 0, NULL};
  assert_int_equal(lb_policy_register(&d, &id), LB_EINVAL);
  d.name = "steal";
  assert_int_equal(lb_policy_register(&d, &id), LB_EINVAL);
  d.name = "noop";
  lb_param wrong = noop_rows[0];
  wrong.name = "other.k";
  d.params = &wrong;
  d.nparams = 1;
  assert_int_equal(lb_policy_register(&d, &id), LB_EINVAL);
  wrong.name = "noop.k";
  wrong.dflt = 10; /* outside its range */
  assert_int_equal(lb_policy_register(&d, &id), LB_ERANGE);
  assert_int_equal(lb_policy_count(), LB_POLICY_COUNT);
  /* a good one: its row joins the registry, with its default */
  d.params = noop_rows;
  size_t np = lb_param_count();
  assert_int_equal(lb_policy_register(&d, &id), LB_SUCCESS);
  assert_int_equal(id, LB_POLICY_COUNT);
  assert_int_equal(lb_policy_count(), LB_POLICY_COUNT + 1);
  assert_int_equal(lb_param_count(), np + 1);
  const lb_param *row = lb_param_find("noop.k");
  assert_non_null(row);
  assert_string_equal(lb_param_policy_name(row), "noop");
  lb_node_params p;
  lb_node_params_default(&p);
  assert_true(lb_param_get(row, &p) == 3);
  assert_int_equal(lb_param_parse(row, &p, "7", NULL), LB_SUCCESS);
  assert_int_equal(lb_param_parse(row, &p, "12", NULL), LB_ERANGE);
  lb_topo *t;
  assert_int_equal(lb_topo_from_spec("ring:3", &t), LB_SUCCESS);
  lb_node *nd;
  p.hop_time = 1;
  assert_int_equal(lb_node_alloc(id, 0, t, &p, &nd), LB_SUCCESS);
  assert_true(lb_node_param(nd, "noop.k") == 7);
  assert_string_equal(lb_policy_name(lb_node_policy(nd)), "noop");
  lb_node_free(nd);
  lb_topo_free(t);
  assert_int_equal(lb_node_alloc((lb_policy)(LB_POLICY_COUNT + 5), 0, NULL, &p, &nd), LB_EINVAL);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_ring_search),        cmocka_unit_test(test_ring_choice),
      cmocka_unit_test(test_ring_down),          cmocka_unit_test(test_ring_late),
      cmocka_unit_test(test_steal_half_one),     cmocka_unit_test(test_steal_refuse_wake),
      cmocka_unit_test(test_steal_sweep),        cmocka_unit_test(test_steal_steady_tick),
      cmocka_unit_test(test_steal_down_timeout), cmocka_unit_test(test_pool_chunks),
      cmocka_unit_test(test_pool_empty_excess),  cmocka_unit_test(test_pool_down),
      cmocka_unit_test(test_skew_balanced),      cmocka_unit_test(test_registry),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
