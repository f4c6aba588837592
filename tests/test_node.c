/* The node API: processes, messages, output list and policy none. */
#include "testutil.h"
#include "lb_node.h"
#include "lb_errno.h"

static void test_proc_msg_copy(void **state)
{
  (void)state;
  lb_proc *p, *c;
  assert_int_equal(lb_proc_alloc(7, 3, 2.5, "abc", 3, &p), LB_SUCCESS);
  assert_int_equal(lb_proc_copy(p, &c), LB_SUCCESS);
  assert_true(c->ctx != p->ctx);
  assert_memory_equal(c->ctx, "abc", 3);
  assert_int_equal(c->origin, 3);
  lb_proc_free(c);
  assert_int_equal(lb_proc_alloc(1, 0, -1, NULL, 0, &c) == LB_EINVAL, 1);
  lb_proc_free(c);
  lb_msg *m, *mc;
  assert_int_equal(lb_msg_alloc(LB_MSG_LMM, 0, 1, &m), LB_SUCCESS);
  size_t empty = lb_msg_size(m);
  assert_int_equal(lb_msg_add_proc(m, p), LB_SUCCESS);
  assert_int_equal(lb_msg_size(m), empty + 24 + 3);
  double v[2] = { 1, 2 };
  assert_int_equal(lb_msg_set_vals(m, v, 2), LB_SUCCESS);
  assert_int_equal(lb_msg_copy(m, &mc), LB_SUCCESS);
  assert_int_equal(mc->nproc, 1);
  assert_true(mc->procs[0] != m->procs[0]);
  assert_int_equal(mc->procs[0]->id, 7);
  assert_close(mc->vals[1], 2, 0);
  assert_int_equal(lb_msg_size(mc), lb_msg_size(m));
  lb_msg_free(m);
  lb_msg_free(mc);
  assert_string_equal(lb_msg_type_name(LB_MSG_DRM), "DRM");
}

static void test_policy_names(void **state)
{
  (void)state;
  for (int k = 0; k < LB_POLICY_COUNT; k++) {
    lb_policy p;
    assert_int_equal(lb_policy_from_name(lb_policy_name((lb_policy)k), &p), LB_SUCCESS);
    assert_int_equal(p, k);
  }
  lb_policy p;
  assert_int_equal(lb_policy_from_name("fastest", &p), LB_EINVAL);
  assert_non_null(strstr(lb_errmsg(), "unknown policy 'fastest'"));
}

static void test_bad_params(void **state)
{
  (void)state;
  lb_topo *t;
  lb_node *nd;
  lb_node_params p;
  assert_int_equal(lb_topo_ring(4, &t), LB_SUCCESS);
  lb_node_params_default(&p);
  p.speed = 0;
  assert_int_equal(lb_node_alloc(LB_POLICY_NONE, 0, t, &p, &nd), LB_EINVAL);
  assert_non_null(strstr(lb_errmsg(), "speed 0 <= 0 at node 0"));
  lb_node_params_default(&p);
  assert_int_equal(lb_node_alloc(LB_POLICY_NONE, 4, t, &p, &nd), LB_EINVAL);
  lb_topo_free(t);
}

/* Policy none: the node runs its own processes in arrival order and
 * hands each result home exactly once; it never sends anything. */
static void test_none_runs_locally(void **state)
{
  (void)state;
  lb_topo *t;
  lb_node *nd;
  lb_out *out;
  lb_node_params p;
  lb_node_params_default(&p);
  assert_int_equal(lb_topo_ring(3, &t), LB_SUCCESS);
  assert_int_equal(lb_node_alloc(LB_POLICY_NONE, 1, t, &p, &nd), LB_SUCCESS);
  assert_int_equal(lb_out_alloc(&out), LB_SUCCESS);
  for (uint64_t k = 0; k < 10; k++) {
    lb_proc *pr;
    assert_int_equal(lb_proc_alloc(k, 1, 1.0 + (double)k, NULL, 0, &pr), LB_SUCCESS);
    lb_event ev = { .type = LB_EV_ARRIVE, .proc = pr };
    assert_int_equal(lb_node_step(nd, &ev, 0, out), LB_SUCCESS);
  }
  assert_int_equal(lb_node_queue_len(nd), 10);
  assert_int_equal(lb_node_state(nd), 1);  /* 10 > 4 + 1: heavy */
  int homed[10] = { 0 };
  double now = 0;
  while (lb_node_current(nd)) {
    const lb_proc *cur = lb_node_current(nd);
    uint64_t id = cur->id;
    double w = cur->work < 0.5 ? cur->work : 0.5;
    now += w;
    uint64_t res = id * 100;
    lb_event ev = { .type = LB_EV_RAN, .pid = id, .work_done = w, .ctx = "x", .ctx_len = 1,
                    .finished = cur->work - w <= 0, .result = &res, .result_len = sizeof res };
    assert_int_equal(lb_node_step(nd, &ev, now, out), LB_SUCCESS);
    lb_event tick = { .type = LB_EV_TICK };
    assert_int_equal(lb_node_step(nd, &tick, now, out), LB_SUCCESS);
    for (size_t k = 0; k < out->n; k++) {
      assert_int_equal(out->v[k].type, LB_OUT_HOME);
      uint64_t r;
      memcpy(&r, out->v[k].result, sizeof r);
      assert_int_equal(r, out->v[k].pid * 100);
      homed[out->v[k].pid]++;
      /* FIFO: results come home in arrival order. */
      for (uint64_t j = 0; j < out->v[k].pid; j++) assert_int_equal(homed[j], 1);
    }
    lb_out_clear(out);
  }
  for (int k = 0; k < 10; k++) assert_int_equal(homed[k], 1);
  assert_close(now, 55, 1e-12);  /* sum of work 1..10 at speed 1 */
  const lb_node_stats *st = lb_node_stats_get(nd);
  assert_int_equal(st->executed, 10);
  assert_int_equal(st->homed, 10);
  assert_int_equal(st->bytes, 0);
  assert_int_equal(lb_node_lepn(nd), -1);
  assert_int_equal(lb_node_rmtv(nd), LB_NO_NODE);
  assert_true(lb_node_quiescent(nd));
  /* Running a process it does not hold is a protocol error. */
  lb_event bad = { .type = LB_EV_RAN, .pid = 99, .work_done = 1 };
  assert_int_equal(lb_node_step(nd, &bad, now, out), LB_ESTATE);
  lb_msg *m;
  assert_int_equal(lb_msg_alloc(LB_MSG_RM, 0, 1, &m), LB_SUCCESS);
  lb_event em = { .type = LB_EV_MSG, .msg = m };
  assert_int_equal(lb_node_step(nd, &em, now, out), LB_ESTATE);
  lb_out_free(out);
  lb_node_free(nd);
  lb_topo_free(t);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_proc_msg_copy),
    cmocka_unit_test(test_policy_names),
    cmocka_unit_test(test_bad_params),
    cmocka_unit_test(test_none_runs_locally),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
