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

static void test_trace_known(void **state)
{
  (void)state;
  lb_topo *t;
  assert_int_equal(lb_topo_ring(3, &t), LB_SUCCESS);
  lb_sim_arrival a[4] = { { 0, 0, 3 }, { 5, 1, 2 }, { 1, 0, 1 }, { 6, 1, 0.5 } };
  lb_sim_config c;
  lb_sim_config_default(&c);
  c.topo = t;
  c.load = LB_SIM_LOAD_TRACE;
  c.trace = a;
  c.ntrace = 4;
  c.speeds = (double[]){ 1, 0.5, 1 };
  lb_sim_result r;
  assert_int_equal(lb_sim_run(&c, &r), LB_SUCCESS);
  assert_int_equal(r.violations, 0);
  /* node 0: 3 + 1 work by t = 4; node 1: 2.5 work at speed 0.5 from t = 5. */
  assert_close(r.makespan, 10, 1e-9);
  assert_close(r.ideal, 6.5 / 2.5, 1e-12);
  c.speeds = (double[]){ 1, 0, 1 };
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

int main(void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_none_all_on_one),
    cmocka_unit_test(test_trace_known),
    cmocka_unit_test(test_deterministic),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
