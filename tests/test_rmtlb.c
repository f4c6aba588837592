/* RMTLB by hand: small graphs where the test delivers every message
 * itself, in orders it chooses, and checks the paper's rules and each
 * resolution of docs/RMTLB.md ([Rn] below). */
#include "testutil.h"
#include "lb_node.h"
#include "lb_rmtlb.h"
#include "lb_load.h"
#include "lb_errno.h"

#define MAXQ 4096

typedef struct net {
  lb_topo *t;
  lb_node **nd;
  lb_out *out;
  lb_msg *q[MAXQ]; /* messages in flight */
  size_t nq;
  uint64_t timer[64][32]; /* timers set, per node */
  double at[64][32];
  size_t ntimer[64];
  int home[256]; /* results home, by pid */
  size_t home_at[256];
  uint64_t next_pid;
  unsigned long sent[LB_MSG_NTYPES];
  double now;
  unsigned backoff;
} net;

static net *net_new_opt(const char *spec, int C, unsigned backoff)
{
  net *N = calloc(1, sizeof *N);
  N->backoff = backoff;
  assert_int_equal(lb_topo_from_spec(spec, &N->t), LB_SUCCESS);
  N->nd = calloc(N->t->n, sizeof *N->nd);
  lb_node_params p;
  lb_node_params_default(&p);
  p.capacity = C;
  p.threshold = 1; /* the cases below are worked with A = 1 */
  p.rmtlb.backoff_max = N->backoff;
  for (size_t i = 0; i < N->t->n; i++)
    assert_int_equal(lb_node_alloc(LB_POLICY_RMTLB, i, N->t, &p, &N->nd[i]), LB_SUCCESS);
  assert_int_equal(lb_out_alloc(&N->out), LB_SUCCESS);
  return N;
}

static net *net_new(const char *spec, int C) { return net_new_opt(spec, C, 0); }

static void net_free(net *N)
{
  for (size_t i = 0; i < N->t->n; i++) lb_node_free(N->nd[i]);
  for (size_t k = 0; k < N->nq; k++) lb_msg_free(N->q[k]);
  free(N->nd);
  lb_out_free(N->out);
  lb_topo_free(N->t);
  free(N);
}

static void collect(net *N, size_t i)
{
  for (size_t k = 0; k < N->out->n; k++) {
    lb_out_item *it = &N->out->v[k];
    if (it->type == LB_OUT_SEND) {
      assert_true(N->nq < MAXQ);
      N->sent[it->msg->type]++;
      N->q[N->nq++] = lb_out_take_msg(N->out, k);
    } else if (it->type == LB_OUT_TIMER) {
      N->timer[i][N->ntimer[i]] = it->timer;
      N->at[i][N->ntimer[i]++] = it->at;
    } else if (it->type == LB_OUT_HOME) {
      N->home[it->res.pid]++;
      N->home_at[it->res.pid] = i;
    }
  }
  lb_out_clear(N->out);
}

static void step(net *N, size_t i, lb_event *ev)
{
  int rc = lb_node_step(N->nd[i], ev, N->now, N->out);
  if (rc) fail_msg("node %zu: %s", i, lb_errmsg());
  collect(N, i);
}

static void arrive(net *N, size_t i, int count)
{
  for (int k = 0; k < count; k++) {
    lb_proc *p;
    assert_int_equal(lb_proc_alloc(N->next_pid++, i, 1, NULL, 0, &p), LB_SUCCESS);
    lb_event ev = {.type = LB_EV_ARRIVE, .proc = p};
    step(N, i, &ev);
  }
}

static void tick(net *N, size_t i)
{
  lb_event ev = {.type = LB_EV_TICK};
  step(N, i, &ev);
}

/* Deliver message k of the in-flight list. */
static void deliver(net *N, size_t k)
{
  lb_msg *m = N->q[k];
  memmove(N->q + k, N->q + k + 1, (N->nq - k - 1) * sizeof *N->q);
  N->nq--;
  size_t dst = m->dst;
  lb_event ev = {.type = LB_EV_MSG, .msg = m};
  step(N, dst, &ev);
}

/* Deliver the first message in flight of this type to this node;
 * fails the test if there is none. */
static void deliver_to(net *N, lb_msg_type t, size_t dst)
{
  for (size_t k = 0; k < N->nq; k++)
    if (N->q[k]->type == t && N->q[k]->dst == dst) {
      deliver(N, k);
      return;
    }
  fail_msg("no %s in flight to node %zu", lb_msg_type_name(t), dst);
}

/* Deliver until nothing is in flight: FIFO, or newest first (lifo) so
 * later messages overtake earlier ones. */
static void drain(net *N, int lifo)
{
  while (N->nq) deliver(N, lifo ? N->nq - 1 : 0);
}

static size_t count_in_flight(const net *N, lb_msg_type t, size_t dst)
{
  size_t c = 0;
  for (size_t k = 0; k < N->nq; k++) c += N->q[k]->type == t && N->q[k]->dst == dst;
  return c;
}

/* Run every queued process to completion, draining messages after each
 * (results travel back by DRM). */
static void run_all(net *N, int lifo)
{
  for (int busy = 1; busy;) {
    busy = 0;
    for (size_t i = 0; i < N->t->n; i++) {
      const lb_proc *p = lb_node_current(N->nd[i]);
      if (!p) continue;
      busy = 1;
      lb_event ev = {.type = LB_EV_RAN, .pid = p->id, .work_done = p->work, .finished = 1, .result_len = 8};
      step(N, i, &ev);
      drain(N, lifo);
    }
  }
}

/* Fire every timer set so far whose id has not fired yet (in order). */
static void fire_timers(net *N, size_t i)
{
  size_t n = N->ntimer[i];
  for (size_t k = 0; k < n; k++) {
    if (N->at[i][k] > N->now) N->now = N->at[i][k];
    lb_event ev = {.type = LB_EV_TIMER, .timer = N->timer[i][k]};
    step(N, i, &ev);
  }
  memmove(N->timer[i], N->timer[i] + n, (N->ntimer[i] - n) * sizeof N->timer[i][0]);
  memmove(N->at[i], N->at[i] + n, (N->ntimer[i] - n) * sizeof N->at[i][0]);
  N->ntimer[i] -= n;
}

static void assert_quiet(net *N)
{
  for (size_t i = 0; i < N->t->n; i++) fire_timers(N, i);
  drain(N, 0);
  for (size_t i = 0; i < N->t->n; i++) {
    assert_int_equal(lb_rmtlb_lepn(N->nd[i]), -1);
    assert_int_equal(lb_rmtlb_lipn(N->nd[i]), -1);
    assert_int_equal(lb_rmtlb_rmtv(N->nd[i]), LB_NO_NODE);
    assert_int_equal(lb_rmtlb_nrt_size(N->nd[i]), 0);
    assert_true(lb_node_quiescent(N->nd[i]));
    char what[8] = "x";
    assert_int_equal(lb_node_describe(N->nd[i], what, sizeof what), 0);
    assert_string_equal(what, "");
  }
  for (uint64_t p = 0; p < N->next_pid; p++) assert_int_equal(N->home[p], 1);
}

/* Path 0-1-2-3, C = 4, A = 1 (normal band 3..5).  Node 0 holds 11
 * (EPN 6), nodes 1 and 2 hold 2 each (IPN 3), node 3 holds 0.  One round
 * places all six: 3 on node 1, 3 on node 2 (each light node's own share,
 * not the remainder [R15]); node 2 does not forward because the EPN left
 * equals its LIPN (Rule 2's strict "EPN > LIPN" [R9]), so node 3 never
 * hears of it. */
static void path_case(int lifo)
{
  net *N = net_new("mesh:1x4", 4);
  arrive(N, 0, 11);
  arrive(N, 1, 2);
  arrive(N, 2, 2);
  tick(N, 0);
  assert_int_equal(lb_rmtlb_lepn(N->nd[0]), 6);
  assert_int_equal(N->sent[LB_MSG_RM], 1);
  deliver(N, 0); /* RM reaches node 1 */
  assert_int_equal(lb_rmtlb_rmtv(N->nd[1]), 0);
  assert_int_equal(lb_rmtlb_lipn(N->nd[1]), 3);
  /* What a report of a node that is not quiescent says. */
  char what[512];
  int len = lb_node_describe(N->nd[1], what, sizeof what);
  assert_string_equal(what,
                      "LEPN -1 LIPN 3 rmtv 0 NRT 1; NRT hv 0 dv 1 tag 1 pv 0 nxv 1 confirmed 0 total -1 got 0 back 0");
  assert_int_equal(len, (int)strlen(what));
  assert_int_equal(lb_node_describe(N->nd[1], what, 8), len); /* cut, as snprintf */
  assert_string_equal(what, "LEPN -1");
  lb_node_describe(N->nd[0], what, sizeof what);
  assert_string_equal(what, "LEPN 6 LIPN -1 rmtv -1 NRT 0");
  assert_int_equal(count_in_flight(N, LB_MSG_RM, 2), 1);
  /* The forwarded RM asks for what is left: 6 - 3. */
  for (size_t k = 0; k < N->nq; k++)
    if (N->q[k]->type == LB_MSG_RM) assert_int_equal(N->q[k]->u.rm.epn, 3);
  drain(N, lifo);
  assert_int_equal(N->sent[LB_MSG_RM], 2); /* node 2 did not forward */
  assert_int_equal(lb_node_stats_get(N->nd[3])->sent[LB_MSG_AM], 0);
  assert_int_equal(lb_node_queue_len(N->nd[0]), 5);
  assert_int_equal(lb_node_queue_len(N->nd[1]), 5); /* only its own 3 [R23] */
  assert_int_equal(lb_node_queue_len(N->nd[2]), 5);
  assert_int_equal(lb_node_queue_len(N->nd[3]), 0);
  assert_int_equal(lb_node_stats_get(N->nd[0])->invocations, 1);
  assert_int_equal(lb_node_stats_get(N->nd[0])->migrated, 6);
  assert_int_equal(lb_rmtlb_lepn(N->nd[0]), -1); /* all placed: episode over */
  /* CM(True) reached node 2 through node 1: both locks are released. */
  assert_int_equal(lb_rmtlb_rmtv(N->nd[1]), LB_NO_NODE);
  assert_int_equal(lb_rmtlb_rmtv(N->nd[2]), LB_NO_NODE);
  assert_int_equal(N->sent[LB_MSG_CM], 3); /* 0->1, and 0->1->2 [R14] */
  assert_int_equal(N->sent[LB_MSG_LMM], 3 + 3 * 2);
  run_all(N, lifo);
  /* Every result went home to node 0 by DRM along the reverse path:
   * three from node 1 (1 hop), three from node 2 (2 hops) [R24]. */
  assert_int_equal(N->sent[LB_MSG_DRM], 3 + 3 * 2);
  for (uint64_t p = 0; p < 11; p++) assert_int_equal(N->home_at[p], 0);
  assert_quiet(N);
  net_free(N);
}

static void test_path_fifo(void **s)
{
  (void)s;
  path_case(0);
}
/* The same with every later message overtaking the earlier ones: LMMs
 * before their CM, DRMs in reverse [R26]. */
static void test_path_reordered(void **s)
{
  (void)s;
  path_case(1);
}

/* Star with hub 0 and leaves 1, 2: both leaves heavy, the hub light.
 * The hub answers the first RM and ignores the second until the first
 * HV's CM comes (Rule 1) [R10]; the second heavy node then finds it in a
 * later round. */
static void test_rule1_lock(void **state)
{
  (void)state;
  net *N = net_new("star:3", 4);
  arrive(N, 1, 7); /* EPN 2 */
  arrive(N, 2, 7); /* EPN 2 */
  tick(N, 1);
  tick(N, 2);
  /* Hold node 2's RM back; node 1's RM arrives first. */
  deliver(N, 0);
  assert_int_equal(lb_rmtlb_rmtv(N->nd[0]), 1);
  deliver(N, 0); /* node 2's RM: ignored */
  assert_int_equal(N->sent[LB_MSG_AM], 1);
  assert_int_equal(lb_rmtlb_rmtv(N->nd[0]), 1);
  drain(N, 0);
  assert_int_equal(lb_node_queue_len(N->nd[1]), 5);
  assert_int_equal(lb_node_queue_len(N->nd[0]), 2);
  assert_int_equal(lb_rmtlb_lipn(N->nd[0]), -1); /* seats used, LMM FON in [R26] */
  /* Node 2's round times out with no answer: it searches again at once
   * (the paper's Step 2: "otherwise go to Step 1") and is answered. */
  fire_timers(N, 2); /* Tmax: no AM -> a second round */
  assert_int_equal(lb_node_stats_get(N->nd[2])->invocations, 2);
  assert_int_equal(count_in_flight(N, LB_MSG_RM, 0), 1);
  drain(N, 0);
  assert_int_equal(lb_node_queue_len(N->nd[2]), 5);
  assert_int_equal(lb_node_queue_len(N->nd[0]), 4);
  run_all(N, 0);
  assert_quiet(N);
  net_free(N);
}

/* Tmax = 2 x hop time x eccentricity [R20].  By default a round with
 * no answer floods again at once: rounds every Tmax, as the paper's
 * Algorithm 1 loops [R19]. */
static void test_tmax_reflood(void **state)
{
  (void)state;
  net *N = net_new("ring:7", 4);                  /* eccentricity 3: Tmax = 6 */
  for (size_t i = 1; i < 7; i++) arrive(N, i, 4); /* all normal */
  arrive(N, 0, 8);
  tick(N, 0);
  for (int r = 1; r <= 4; r++) {
    drain(N, 0);
    for (size_t i = 1; i < 7; i++) fire_timers(N, i);
    assert_int_equal(N->ntimer[0], 1);
    assert_close(N->at[0][0], 6.0 * r, 0);
    fire_timers(N, 0);
    assert_int_equal(lb_node_stats_get(N->nd[0])->invocations, (unsigned long)r + 1);
  }
  run_all(N, 0);
  assert_quiet(N);
  net_free(N);
}

/* The back-off option: the empty-round wait doubles up to
 * 2^backoff_max Tmax [R19]; a normal node that forwarded an RM nobody
 * answered is released by its lease [R21]. */
static void test_tmax_backoff_lease(void **state)
{
  (void)state;
  net *N = net_new_opt("ring:7", 4, 5);           /* eccentricity 3: Tmax = 6 */
  for (size_t i = 1; i < 7; i++) arrive(N, i, 4); /* all normal */
  arrive(N, 0, 8);
  tick(N, 0);
  assert_int_equal(N->ntimer[0], 1);
  assert_close(N->at[0][0], 6, 0);
  drain(N, 0);
  assert_int_equal(N->sent[LB_MSG_AM], 0);
  assert_int_equal(lb_rmtlb_rmtv(N->nd[1]), 0); /* Step 3.1 sets rmtv [R11] */
  assert_int_equal(lb_rmtlb_rmtv(N->nd[3]), 2);
  fire_timers(N, 1); /* lease expires */
  assert_int_equal(lb_rmtlb_rmtv(N->nd[1]), LB_NO_NODE);
  /* round 1 ends at 6, back-off 6 x 1, round 2 ends at 18, back-off
   * 6 x 2, round 3 ends at 36, back-off 6 x 4 ... */
  double expect[] = {6, 12, 18, 30, 36, 60};
  double t_prev = 0;
  for (int r = 0; r < 6; r++) {
    for (size_t i = 1; i < 7; i++) fire_timers(N, i);
    assert_int_equal(N->ntimer[0], 1);
    double due = N->at[0][0];
    assert_true(due > t_prev);
    assert_close(due, expect[r], 0);
    t_prev = due;
    fire_timers(N, 0);
    drain(N, 0);
  }
  /* Rounds and back-offs alternate: waits Tmax x 1, 2, 4 ... */
  assert_true(lb_node_stats_get(N->nd[0])->invocations >= 3);
  /* Work finishes everywhere; the heavy node's next timer ends it. */
  run_all(N, 0);
  assert_quiet(N);
  net_free(N);
}

/* Two light neighbours answer an HV that wants only one process: the
 * second AM still gets an answer, CM(False), and its light node frees
 * its seats and its lock [R16, R17, R22]. */
static void test_surplus_answer_rejected(void **state)
{
  (void)state;
  net *N = net_new("mesh:1x3", 4);
  arrive(N, 1, 6); /* EPN 1 */
  tick(N, 1);
  drain(N, 0);
  assert_int_equal(N->sent[LB_MSG_AM], 2);
  assert_int_equal(N->sent[LB_MSG_CM], 2);
  assert_int_equal(N->sent[LB_MSG_LMM], 1);
  assert_int_equal(lb_node_queue_len(N->nd[0]) + lb_node_queue_len(N->nd[2]), 1);
  for (size_t i = 0; i < 3; i++) {
    assert_int_equal(lb_rmtlb_rmtv(N->nd[i]), LB_NO_NODE);
    assert_int_equal(lb_rmtlb_lipn(N->nd[i]), -1);
  }
  run_all(N, 0);
  assert_quiet(N);
  net_free(N);
}

/* A relay node turns heavy in the middle of a transaction: it still
 * passes the LMMs on and the results back [R18, R25]. */
static void test_relay_turns_heavy(void **state)
{
  (void)state;
  net *N = net_new("mesh:1x3", 4);
  arrive(N, 0, 8); /* EPN 3 */
  arrive(N, 1, 4); /* normal relay */
  tick(N, 0);
  deliver(N, 0);   /* RM to 1, forwarded to 2 */
  deliver(N, 0);   /* RM to 2: node 2 answers */
  deliver(N, 0);   /* AM at 1 */
  arrive(N, 1, 6); /* node 1 is now heavy */
  assert_int_equal(lb_node_state(N->nd[1]), LB_HEAVY);
  drain(N, 0);
  assert_int_equal(lb_node_queue_len(N->nd[2]), 3);
  assert_int_equal(lb_node_queue_len(N->nd[1]), 10);
  run_all(N, 0);
  assert_quiet(N);
  net_free(N);
}

/* A process migrates twice (0 -> 1, then 1 -> 2 when 1 turns heavy);
 * its result retraces both transactions to its origin [R24]. */
static void test_two_stage_return(void **state)
{
  (void)state;
  net *N = net_new("mesh:1x3", 4);
  arrive(N, 0, 8); /* EPN 3 */
  arrive(N, 2, 4); /* normal, so only node 1 answers */
  tick(N, 0);
  drain(N, 0);
  assert_int_equal(lb_node_queue_len(N->nd[1]), 3);
  arrive(N, 1, 5); /* Q = 8: heavy */
  N->now = 100;
  for (size_t i = 0; i < 3; i++) fire_timers(N, i);
  drain(N, 0);
  lb_node *n2 = N->nd[2];
  /* drain node 2 so it is light, then let node 1 search */
  for (int k = 0; k < 4; k++) {
    const lb_proc *p = lb_node_current(n2);
    lb_event ev = {.type = LB_EV_RAN, .pid = p->id, .work_done = 1, .finished = 1, .result_len = 8};
    step(N, 2, &ev);
  }
  tick(N, 1);
  drain(N, 0);
  assert_int_equal(lb_node_queue_len(N->nd[2]), 3);
  run_all(N, 0);
  assert_quiet(N);
  net_free(N);
}

/* Path 0-1-2: node 1 light (IPN 3) promises all its seats to node 0;
 * with LIPN = 0 and the LMMs still on their way it acts as a normal node
 * and forwards node 2's RM instead of answering it [R12]. */
static void test_pseudo_light_forwards(void **state)
{
  (void)state;
  net *N = net_new("mesh:1x3", 4);
  arrive(N, 0, 8); /* EPN 3 */
  arrive(N, 1, 2); /* IPN 3 */
  arrive(N, 2, 7); /* EPN 2 */
  tick(N, 0);
  deliver(N, 0); /* RM 0 -> 1: AM, no forward (EPN = LIPN) */
  assert_int_equal(N->nq, 1);
  deliver(N, 0); /* AM at 0: CM and three LMMs */
  assert_int_equal(N->q[0]->type, LB_MSG_CM);
  deliver(N, 0); /* CM at 1 */
  assert_int_equal(lb_rmtlb_lipn(N->nd[1]), 0);
  assert_int_equal(lb_rmtlb_rmtv(N->nd[1]), LB_NO_NODE);
  tick(N, 2);
  deliver(N, N->nq - 1); /* node 2's RM at 1 */
  const lb_node_stats *st = lb_node_stats_get(N->nd[1]);
  assert_int_equal(st->sent[LB_MSG_AM], 1);
  assert_int_equal(st->sent[LB_MSG_RM], 1);
  assert_int_equal(lb_rmtlb_rmtv(N->nd[1]), 2);
  drain(N, 0);
  assert_int_equal(lb_node_queue_len(N->nd[1]), 5);
  run_all(N, 0);
  assert_quiet(N);
  net_free(N);
}

/* Path 0-1-2-3-4, heavy ends, normal middle.  Each end's search locks
 * the nodes it passes; a locked node neither answers nor forwards
 * another HV's RM [R10]: node 3 (locked for HV 4) drops HV 0's RM, and
 * node 2 (locked for HV 0) drops HV 4's. */
static void test_locked_forwards_nothing(void **state)
{
  (void)state;
  net *N = net_new("mesh:1x5", 4);
  arrive(N, 0, 8);
  for (size_t i = 1; i < 4; i++) arrive(N, i, 4);
  arrive(N, 4, 8);
  tick(N, 0);
  tick(N, 4);
  deliver_to(N, LB_MSG_RM, 1); /* HV 0's RM: node 1 forwards to 2 */
  deliver_to(N, LB_MSG_RM, 3); /* HV 4's RM: node 3 forwards to 2 */
  assert_int_equal(lb_rmtlb_rmtv(N->nd[3]), 4);
  deliver(N, 0); /* HV 0's RM at node 2: locks it, forwards to 3 */
  assert_int_equal(lb_rmtlb_rmtv(N->nd[2]), 1);
  deliver_to(N, LB_MSG_RM, 3); /* HV 0's RM at node 3, locked for HV 4 */
  assert_int_equal(count_in_flight(N, LB_MSG_RM, 4), 0);
  deliver_to(N, LB_MSG_RM, 2); /* HV 4's RM at node 2, locked for HV 0 */
  assert_int_equal(count_in_flight(N, LB_MSG_RM, 1), 0);
  assert_int_equal(N->sent[LB_MSG_AM], 0);
  assert_int_equal(lb_rmtlb_rmtv(N->nd[2]), 1);
  assert_int_equal(lb_rmtlb_rmtv(N->nd[3]), 4);
  drain(N, 0);
  run_all(N, 0);
  assert_quiet(N);
  net_free(N);
}

/* Star, hub 0: leaf 1 heavy (HV B), leaf 2 light, leaf 3 heavy (HV A).
 * B's search locks the hub and leaf 2 answers; the hub's lock for B
 * expires (lease) while B's answer is still on its way back; A's search
 * then locks the hub.  When B's CM passes the hub on its way to leaf 2,
 * the hub stays locked for A: only a CM of the locked HV releases the
 * lock [R13] (the paper resets rmtv on any CM). */
static void test_foreign_cm_keeps_lock(void **state)
{
  (void)state;
  net *N = net_new("star:4", 4);
  arrive(N, 0, 4);
  arrive(N, 1, 8);
  arrive(N, 2, 2);
  arrive(N, 3, 8);
  tick(N, 1);
  deliver_to(N, LB_MSG_RM, 0); /* the hub forwards B's RM to 2 and 3 */
  deliver_to(N, LB_MSG_RM, 2); /* leaf 2 answers */
  deliver_to(N, LB_MSG_RM, 3); /* leaf 3 is heavy: drops it */
  deliver_to(N, LB_MSG_AM, 0); /* the hub relays the AM towards B */
  assert_int_equal(lb_rmtlb_rmtv(N->nd[0]), 1);
  fire_timers(N, 0); /* the hub's lease for B ends */
  assert_int_equal(lb_rmtlb_rmtv(N->nd[0]), LB_NO_NODE);
  tick(N, 3);
  deliver_to(N, LB_MSG_RM, 0); /* A's RM locks the hub */
  assert_int_equal(lb_rmtlb_rmtv(N->nd[0]), 3);
  deliver_to(N, LB_MSG_AM, 1); /* B takes leaf 2's answer: CM(True) */
  deliver_to(N, LB_MSG_CM, 0); /* B's CM passes the hub */
  assert_int_equal(count_in_flight(N, LB_MSG_CM, 2), 1);
  assert_int_equal(lb_rmtlb_rmtv(N->nd[0]), 3);
  drain(N, 0);
  run_all(N, 0);
  for (size_t i = 0; i < 4; i++) fire_timers(N, i);
  run_all(N, 0);
  assert_quiet(N);
  net_free(N);
}

/* Path 0-1-2-3, HV at node 1 (EPN 1): leaf 0 answers at one hop, node 3
 * at two hops through node 2.  The HV takes the first answer; the
 * second gets CM(False) back along its path, so node 2 deletes its
 * record and node 3 frees its seats and its lock [R17] (the paper sends
 * CM(False) "to AM.LV" directly, past node 2). */
static void test_refusal_follows_path(void **state)
{
  (void)state;
  net *N = net_new("mesh:1x4", 4);
  arrive(N, 0, 2);
  arrive(N, 1, 6);
  arrive(N, 2, 4);
  arrive(N, 3, 2);
  tick(N, 1);
  deliver_to(N, LB_MSG_RM, 0); /* leaf 0 answers */
  deliver_to(N, LB_MSG_RM, 2); /* node 2 forwards to 3 */
  deliver_to(N, LB_MSG_RM, 3); /* node 3 answers */
  deliver_to(N, LB_MSG_AM, 1); /* leaf 0's answer: taken, EPN placed */
  deliver_to(N, LB_MSG_AM, 2); /* node 3's answer: node 2 relays it */
  assert_int_equal(lb_rmtlb_nrt_size(N->nd[2]), 1);
  deliver_to(N, LB_MSG_AM, 1); /* too late: CM(False) */
  for (size_t k = 0; k < N->nq; k++)
    if (N->q[k]->type == LB_MSG_CM && N->q[k]->u.cm.lv == 3) {
      assert_int_equal(N->q[k]->dst, 2); /* along the path, not straight to 3 */
      assert_int_equal(N->q[k]->u.cm.aor, 0);
    }
  drain(N, 0);
  assert_int_equal(lb_rmtlb_nrt_size(N->nd[2]), 0);
  assert_int_equal(lb_rmtlb_lipn(N->nd[3]), -1);
  assert_int_equal(lb_rmtlb_rmtv(N->nd[3]), LB_NO_NODE);
  assert_int_equal(lb_node_queue_len(N->nd[3]), 2);
  run_all(N, 0);
  assert_quiet(N);
  net_free(N);
}

/* Path 0-1-2, HV 0 (EPN 3), node 2 light.  The answer is still on its
 * way when the HV's window ends and it floods again; it is taken all the
 * same, since the episode is active and LEPN > 0 [R22]. */
static void test_late_answer_taken(void **state)
{
  (void)state;
  net *N = net_new("mesh:1x3", 4);
  arrive(N, 0, 8);
  arrive(N, 1, 4);
  arrive(N, 2, 2);
  tick(N, 0);
  deliver_to(N, LB_MSG_RM, 1);
  deliver_to(N, LB_MSG_RM, 2);
  deliver_to(N, LB_MSG_AM, 1); /* relayed: now on its way to the HV */
  fire_timers(N, 0);           /* Tmax: no answer yet, a new round */
  assert_int_equal(lb_node_stats_get(N->nd[0])->invocations, 2);
  deliver_to(N, LB_MSG_AM, 0); /* the late answer */
  assert_int_equal(count_in_flight(N, LB_MSG_LMM, 1), 3);
  drain(N, 0);
  assert_int_equal(lb_node_queue_len(N->nd[2]), 5);
  run_all(N, 0);
  for (size_t i = 0; i < 3; i++) fire_timers(N, i);
  run_all(N, 0);
  assert_quiet(N);
  net_free(N);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_path_fifo),
      cmocka_unit_test(test_path_reordered),
      cmocka_unit_test(test_rule1_lock),
      cmocka_unit_test(test_tmax_reflood),
      cmocka_unit_test(test_tmax_backoff_lease),
      cmocka_unit_test(test_surplus_answer_rejected),
      cmocka_unit_test(test_relay_turns_heavy),
      cmocka_unit_test(test_two_stage_return),
      cmocka_unit_test(test_pseudo_light_forwards),
      cmocka_unit_test(test_locked_forwards_nothing),
      cmocka_unit_test(test_foreign_cm_keeps_lock),
      cmocka_unit_test(test_refusal_follows_path),
      cmocka_unit_test(test_late_answer_taken),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
