/* The simulator: known makespans under policy none, determinism,
 * traces, and configuration errors. */
#include "testutil.h"
#include "lb_sim.h"
#include "lb_errno.h"

static void test_none_all_on_one(void **state)
{
  (void)state;
  lb_topo *t;
  assert_int_equal(lb_topo_ring(5, &t), LB_SUCCESS);
  lb_sim_config c;
  lb_sim_config_default(&c);
  c.topo = t;
  c.load = LB_SIM_LOAD_ONE;
  c.nproc = 40;
  c.node.speed = 2;
  c.quantum = 0.3;
  lb_sim_result r;
  assert_int_equal(lb_sim_run(&c, &r), LB_SUCCESS);
  assert_int_equal(r.violations, 0);
  /* Everything runs on node 0 at speed 2, back to back. */
  assert_close(r.makespan, r.total_work / 2, 1e-9);
  assert_close(r.ideal, r.total_work / 10, 1e-12);
  assert_int_equal(r.messages, 0);
  assert_int_equal(r.migrated, 0);
  lb_topo_free(t);
}

/* A run small enough to work out by hand: four arrivals on t (ring:3),
 * into a, which the caller may change. */
static void known_trace(lb_topo *t, lb_sim_arrival a[4], lb_sim_config *c)
{
  const lb_sim_arrival k[4] = {{0, 0, 3, 0}, {5, 1, 2, 0}, {1, 0, 1, 0}, {6, 1, 0.5, 0}};
  memcpy(a, k, sizeof k);
  lb_sim_config_default(c);
  c->topo = t;
  c->load = LB_SIM_LOAD_TRACE;
  c->trace = a;
  c->ntrace = 4;
}

static void test_trace_known(void **state)
{
  (void)state;
  lb_topo *t;
  assert_int_equal(lb_topo_ring(3, &t), LB_SUCCESS);
  lb_sim_arrival a[4];
  lb_sim_config c;
  known_trace(t, a, &c);
  c.speeds = (double[]){1, 0.5, 1};
  lb_sim_result r;
  assert_int_equal(lb_sim_run(&c, &r), LB_SUCCESS);
  assert_int_equal(r.violations, 0);
  /* node 0: 3 + 1 work by t = 4; node 1: 2.5 work at speed 0.5 from t = 5. */
  assert_close(r.makespan, 10, 1e-9);
  assert_close(r.ideal, 6.5 / 2.5, 1e-12);
  c.speeds = (double[]){1, 0, 1};
  assert_int_equal(lb_sim_run(&c, &r), LB_EINVAL);
  assert_non_null(strstr(lb_errmsg(), "speed 0 <= 0 at node 1"));
  a[1].node = 7;
  c.speeds = NULL;
  assert_int_equal(lb_sim_run(&c, &r), LB_EINVAL);
  lb_topo_free(t);
}

static void test_deterministic(void **state)
{
  (void)state;
  lb_topo *t;
  assert_int_equal(lb_topo_torus(4, 4, &t), LB_SUCCESS);
  lb_sim_config c;
  lb_sim_config_default(&c);
  c.topo = t;
  c.seed = 11;
  lb_sim_result a, b, d;
  assert_int_equal(lb_sim_run(&c, &a), LB_SUCCESS);
  assert_int_equal(lb_sim_run(&c, &b), LB_SUCCESS);
  assert_true(a.makespan == b.makespan && a.events == b.events && a.total_work == b.total_work);
  c.seed = 12;
  assert_int_equal(lb_sim_run(&c, &d), LB_SUCCESS);
  assert_true(d.total_work != a.total_work);
  lb_topo_free(t);
}

/* Both result modes on the same run: the protocol is the same (same
 * messages, same DRM count), but with large results on a slow network
 * the direct mode, whose DRMs carry receipts, finishes earlier and
 * sends fewer bytes. */
static void test_result_modes(void **state)
{
  (void)state;
  lb_topo *t;
  assert_int_equal(lb_topo_ring(6, &t), LB_SUCCESS);
  lb_sim_config c;
  lb_sim_config_default(&c);
  c.policy = LB_POLICY_RMTLB;
  c.topo = t;
  c.load = LB_SIM_LOAD_ONE;
  c.nproc = 48;
  c.bandwidth = 1000;
  c.result_len = 4000;
  c.seed = 3;
  lb_sim_result o, d;
  assert_int_equal(lb_sim_run(&c, &o), LB_SUCCESS);
  c.node.results = LB_RESULTS_DIRECT;
  assert_int_equal(lb_sim_run(&c, &d), LB_SUCCESS);
  assert_int_equal(o.violations, 0);
  assert_int_equal(d.violations, 0);
  assert_true(o.sent[LB_MSG_DRM] > 0);
  assert_true(d.bytes + o.sent[LB_MSG_DRM] * 4000 / 2 < o.bytes);
  assert_true(d.makespan < o.makespan);
  lb_topo_free(t);
}

/* An outside order under policy none: the processes move, have started
 * (round robin), and the run still verifies. */
static void test_order(void **state)
{
  (void)state;
  lb_topo *t;
  assert_int_equal(lb_topo_ring(4, &t), LB_SUCCESS);
  lb_sim_config c;
  lb_sim_config_default(&c);
  c.topo = t;
  c.load = LB_SIM_LOAD_ONE;
  c.nproc = 10;
  lb_sim_order ord[2] = {{12, 0, 1, 3}, {12, 0, 3, 3}};
  c.orders = ord;
  c.norders = 2;
  lb_sim_result r;
  assert_int_equal(lb_sim_run(&c, &r), LB_SUCCESS);
  assert_int_equal(r.violations, 0);
  assert_int_equal(r.migrated, 6);
  assert_int_equal(r.migrated_started, 6);
  assert_int_equal(r.sent[LB_MSG_TRANSFER], 2);
  assert_int_equal(r.sent[LB_MSG_RESULT], 6);
  ord[1].dst = 0;
  assert_int_equal(lb_sim_run(&c, &r), LB_EINVAL);
  lb_topo_free(t);
}

/* The default run of policy `pol` on t with this seed and jittered hops:
 * two runs of it that should agree, made two ways. */
static lb_sim_config jittered(lb_topo *t, int pol, unsigned long seed)
{
  lb_sim_config c;
  lb_sim_config_default(&c);
  c.policy = (lb_policy)pol;
  c.topo = t;
  c.seed = seed;
  c.jitter = 1;
  return c;
}

/* Contexts the farm's way (leaving): a process that ran at a node and
 * leaves it takes its live state along through the runtime's `leaving`,
 * once per such departure; the run is the one the default gives, also
 * with contexts that grow once their process has run (80 bytes, then
 * 16 KB), which both ways count in full. */
static void test_leaving(void **state)
{
  (void)state;
  lb_topo *t;
  assert_int_equal(lb_topo_from_spec("torus:4x4", &t), LB_SUCCESS);
  for (int grow = 0; grow < 2; grow++)
    for (int pol = LB_POLICY_RMTLB; pol < LB_POLICY_COUNT; pol++) {
      lb_sim_result r[2];
      for (int leaving = 0; leaving < 2; leaving++) {
        lb_sim_config c = jittered(t, pol, 3);
        c.leaving = leaving;
        c.ctx_len = grow ? 80 : 0;
        c.ctx_started_len = grow ? 16384 : 0;
        assert_int_equal(lb_sim_run(&c, &r[leaving]), LB_SUCCESS);
        assert_int_equal(r[leaving].violations, 0);
        if (grow)
          assert_int_equal(r[leaving].ctx_bytes, 16384 * r[leaving].migrated_started +
                                                     80 * (r[leaving].migrated - r[leaving].migrated_started));
      }
      assert_int_equal(r[0].saved, 0);
      /* Saved: processes that ran where they left; every one of them had
       * started. */
      assert_true(r[1].saved > 0 && r[1].saved <= r[1].migrated_started);
      r[1].saved = 0;
      assert_memory_equal(&r[0], &r[1], sizeof r[0]);
    }
  lb_topo_free(t);
}

/* Messages with large contexts cross the codec whole, thin (without
 * their contexts' bytes) or not at all: the same run every way. */
static void test_codec_thin(void **state)
{
  (void)state;
  lb_topo *t;
  assert_int_equal(lb_topo_from_spec("torus:4x4", &t), LB_SUCCESS);
  for (int pol = LB_POLICY_RMTLB; pol < LB_POLICY_COUNT; pol++) {
    lb_sim_result r[4];
    for (int way = 0; way < 4; way++) {
      lb_sim_config c = jittered(t, pol, 5);
      c.load = LB_SIM_LOAD_ONE;
      c.ctx_len = 16384;
      c.codec = way < 3;
      c.codec_whole = way == 0 ? 1 : way == 1 ? 3 : 0;
      assert_int_equal(lb_sim_run(&c, &r[way]), LB_SUCCESS);
      assert_int_equal(r[way].violations, 0);
    }
    assert_true(r[0].ctx_bytes > 16384);
    for (int way = 1; way < 4; way++) assert_memory_equal(&r[0], &r[way], sizeof r[0]);
  }
  lb_topo_free(t);
}

/* Rates: the CPU a node gets, apart from the speed its policy knows.
 * A replay of a farm run gives its hosts' received shares as rates and
 * lbmaster's nominal speeds as speeds, since the farm's policies plan
 * with the nominal ones (CCHSPMD shares processes in proportion). */
static void test_rates(void **state)
{
  (void)state;
  lb_topo *t;
  assert_int_equal(lb_topo_ring(3, &t), LB_SUCCESS);
  lb_sim_arrival a[4];
  lb_sim_config c;
  known_trace(t, a, &c);
  c.speeds = (double[]){4, 4, 4};
  c.rates = (double[]){1, 0.5, 1};
  lb_sim_result r;
  assert_int_equal(lb_sim_run(&c, &r), LB_SUCCESS);
  assert_int_equal(r.violations, 0);
  /* the work runs at the rates (test_trace_known's answer), whatever the
   * speeds; the ideal is at the rates too */
  assert_close(r.makespan, 10, 1e-9);
  assert_close(r.ideal, 6.5 / 2.5, 1e-12);
  c.rates = (double[]){1, -1, 1};
  assert_int_equal(lb_sim_run(&c, &r), LB_EINVAL);
  assert_non_null(strstr(lb_errmsg(), "rate -1 is not a positive number at node 1"));
  lb_topo_free(t);

  /* CCHSPMD from one node: 24 equal processes, ring:6, six nodes whose
   * rates are those a farm run's hosts received (host 1 the slowest). */
  assert_int_equal(lb_topo_ring(6, &t), LB_SUCCESS);
  const double got[6] = {0.303, 0.2665, 0.304, 0.307, 0.311, 0.313}, nominal[6] = {0.3, 0.3, 0.3, 0.3, 0.3, 0.3},
               twice[6] = {0.6, 0.6, 0.6, 0.6, 0.6, 0.6};
  lb_sim_result known[2], as_speeds, scaled, same;
  for (int k = 0; k < 5; k++) {
    lb_sim_config_default(&c);
    c.topo = t;
    c.policy = LB_POLICY_CCHSPMD;
    c.load = LB_SIM_LOAD_ONE;
    c.nproc = 24;
    c.work = 10;
    c.seed = 7;
    lb_sim_result *o = k < 2 ? &known[k] : k == 2 ? &as_speeds : k == 3 ? &scaled : &same;
    c.speeds = k == 0 ? nominal : k == 1 || k == 2 || k == 4 ? got : twice;
    c.rates = k == 2 ? NULL : got;
    if (k == 1) c.speeds = nominal;
    assert_int_equal(lb_sim_run(&c, o), LB_SUCCESS);
    assert_int_equal(o->violations, 0);
  }
  /* the plan follows the speeds' proportions only, the work the rates */
  assert_memory_equal(&known[0], &known[1], sizeof known[0]);
  assert_memory_equal(&known[0], &scaled, sizeof scaled);
  /* rates equal to the speeds change nothing */
  assert_memory_equal(&as_speeds, &same, sizeof same);
  /* with the rates as the speeds, CCHSPMD plans another run: its first
   * plan gives node 1 (share 3.5 of 24, rounded up to 4) nothing and the
   * other four 19 (shares 4.04 to 4.16, rounded up to 5); with equal
   * speeds each takes 4 */
  assert_true(as_speeds.migrated != known[0].migrated || as_speeds.makespan != known[0].makespan);
  assert_close(known[0].ideal, as_speeds.ideal, 1e-12);
  lb_topo_free(t);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_none_all_on_one), cmocka_unit_test(test_trace_known), cmocka_unit_test(test_deterministic),
      cmocka_unit_test(test_result_modes),    cmocka_unit_test(test_order),       cmocka_unit_test(test_leaving),
      cmocka_unit_test(test_codec_thin),      cmocka_unit_test(test_rates),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
