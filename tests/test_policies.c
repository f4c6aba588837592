/* Known answers for LOWEST, DASUD, CCHSPMD and diffusion: processes so
 * long that none finishes while the policy balances, and the queue
 * lengths taken at a fixed time. */
#include "testutil.h"
#include "lb_sim.h"
#include "lb_errno.h"

static void run(lb_policy pol, const char *spec, size_t nproc, double at, long *q, lb_sim_result *r)
{
  lb_topo *t;
  assert_int_equal(lb_topo_from_spec(spec, &t), LB_SUCCESS);
  lb_sim_config c;
  lb_sim_config_default(&c);
  c.policy = pol;
  c.topo = t;
  c.load = LB_SIM_LOAD_ONE;
  c.nproc = nproc;
  c.work = 1e6;
  c.quantum = 1;
  c.snapshot_at = at;
  c.snapshot = q;
  c.seed = 5;
  if (lb_sim_run(&c, r)) fail_msg("%s", lb_errmsg());
  assert_int_equal(r->violations, 0);
  lb_topo_free(t);
}

static long sum(const long *q, size_t n)
{
  long s = 0;
  for (size_t i = 0; i < n; i++) s += q[i];
  return s;
}

/* Star of 9, controller at the hub which holds all 90: the plan gives
 * every leaf exactly its share of 10 in one order. */
static void test_cchspmd_star(void **state)
{
  (void)state;
  long q[9];
  lb_sim_result r;
  run(LB_POLICY_CCHSPMD, "star:9", 90, 20, q, &r);
  for (size_t i = 0; i < 9; i++) assert_int_equal(q[i], 10);
  assert_int_equal(r.sent[LB_MSG_ORDER], 0); /* the controller moved its own */
  assert_int_equal(r.migrated, 80);
  assert_int_equal(r.hops, 80);
}

/* complete:5, C = 4, A = 0.4: node 0 holds 40.  LOWEST fills every
 * light node up to C + A = 4.4, i.e. to 4 (one transfer each, to the
 * least loaded probed), and keeps the rest: 40 - 4 x 4 = 24. */
static void test_lowest_complete(void **state)
{
  (void)state;
  long q[5];
  lb_sim_result r;
  run(LB_POLICY_LOWEST, "complete:5", 40, 200, q, &r);
  assert_int_equal(q[0], 24);
  for (size_t i = 1; i < 5; i++) assert_int_equal(q[i], 4);
  assert_int_equal(r.migrated, 16);
  assert_int_equal(r.sent[LB_MSG_TRANSFER], 4);
}

/* Two nodes, Boillat alpha 1/2: one step moves half the difference. */
static void test_diffusion_pair(void **state)
{
  (void)state;
  long q[2];
  lb_sim_result r;
  run(LB_POLICY_DIFFUSION, "complete:2", 10, 50, q, &r);
  assert_int_equal(q[0], 5);
  assert_int_equal(q[1], 5);
  assert_int_equal(r.sent[LB_MSG_TRANSFER], 1);
  /* gamma = 0 on two nodes, so beta_opt = 1 and second order is first order. */
  run(LB_POLICY_DIFFUSION2, "complete:2", 10, 50, q, &r);
  assert_int_equal(q[0], 5);
  assert_int_equal(r.sent[LB_MSG_TRANSFER], 1);
}

/* DASUD on a ring of 8 from all-on-one: every domain ends with a spread
 * of at most one, total kept.  Integer first-order diffusion stalls
 * with a larger spread on the same input: the searching-unbalanced-
 * domains step is what closes it. */
static void test_dasud_ring(void **state)
{
  (void)state;
  long q[8], d[8];
  lb_sim_result r;
  run(LB_POLICY_DASUD, "ring:8", 83, 500, q, &r);
  assert_int_equal(sum(q, 8), 83);
  for (size_t i = 0; i < 8; i++) {
    long a = q[i], b = q[(i + 1) % 8], c = q[(i + 7) % 8];
    long mx = a > b ? (a > c ? a : c) : (b > c ? b : c), mn = a < b ? (a < c ? a : c) : (b < c ? b : c);
    assert_true(mx - mn <= 1);
  }
  run(LB_POLICY_DIFFUSION, "ring:8", 83, 500, d, &r);
  assert_int_equal(sum(d, 8), 83);
  long dmax = 0, dmin = 1000;
  for (size_t i = 0; i < 8; i++) {
    if (d[i] > dmax) dmax = d[i];
    if (d[i] < dmin) dmin = d[i];
  }
  assert_true(dmax - dmin > 1);
}

/* Path 0-1-2-3-4 with 30 processes on each end: shares of 12.  The
 * transportation plan sends 12 to each neighbour and 6 each to the
 * middle: 4 x 12 process-hops = 48.  The greedy plan matches the first
 * sender with the farthest receivers (by index) and needs 96. */
static void test_cchspmd_transport(void **state)
{
  (void)state;
  lb_topo *t;
  assert_int_equal(lb_topo_mesh(1, 5, &t), LB_SUCCESS);
  lb_sim_arrival a[60];
  for (size_t k = 0; k < 60; k++) a[k] = (lb_sim_arrival){0, k < 30 ? 0 : 4, 1e6, 0};
  long want_hops[2] = {96, 48};
  for (int plan = 0; plan < 2; plan++) {
    lb_sim_config c;
    lb_sim_config_default(&c);
    c.policy = LB_POLICY_CCHSPMD;
    c.node.cchspmd.plan = plan;
    c.topo = t;
    c.load = LB_SIM_LOAD_TRACE;
    c.trace = a;
    c.ntrace = 60;
    long q[5];
    c.snapshot_at = 30;
    c.snapshot = q;
    lb_sim_result r;
    if (lb_sim_run(&c, &r)) fail_msg("%s", lb_errmsg());
    for (size_t i = 0; i < 5; i++) assert_int_equal(q[i], 12);
    assert_int_equal(r.hops, want_hops[plan]);
  }
  lb_topo_free(t);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_cchspmd_star),    cmocka_unit_test(test_cchspmd_transport),
      cmocka_unit_test(test_lowest_complete), cmocka_unit_test(test_diffusion_pair),
      cmocka_unit_test(test_dasud_ring),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
