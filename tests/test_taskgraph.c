/* Task graphs and task migration (seed 003 experiment). */
#include "testutil.h"
#include "lb_errno.h"
#include "lb_rng.h"
#include "lb_metrics.h"
#include "lb_taskgraph.h"

static void test_generate_and_quotient(void **state)
{
  (void)state;
  lb_rng *r;
  assert_int_equal(lb_rng_alloc(9, &r), LB_SUCCESS);
  enum { N = 3000, P = 7 };
  static size_t own[N];
  lb_topo *tg, *pg;
  assert_int_equal(lb_taskgraph_random(N, P, 2, 30, 0.002, 0.2, r, &tg, own), LB_SUCCESS);
  assert_true(lb_topo_is_connected(tg));
  long load[P], sum = 0;
  lb_taskgraph_loads(own, N, P, load);
  for (size_t p = 0; p < P; p++) {
    assert_true(load[p] >= (long)(N / P * 0.75) && load[p] <= (long)(N / P * 1.25) + 1);
    sum += load[p];
  }
  assert_int_equal(sum, N);
  for (size_t t = 1; t < N; t++) assert_true(own[t] >= own[t - 1]); /* contiguous blocks */
  assert_int_equal(lb_taskgraph_quotient(tg, own, P, &pg), LB_SUCCESS);
  /* adjacency by brute force over the task edges */
  for (size_t a = 0; a < P; a++)
    for (size_t b = a + 1; b < P; b++) {
      int joined = 0;
      for (size_t k = 0; k < tg->m && !joined; k++) {
        size_t x = own[tg->edge[k][0]], y = own[tg->edge[k][1]];
        joined = (x == a && y == b) || (x == b && y == a);
      }
      assert_int_equal(lb_topo_adjacent(pg, a, b), joined);
    }
  lb_topo_free(pg);
  lb_topo_free(tg);
  lb_rng_free(r);
}

/* A relay: 0 -> 1 in round 0, then 1 -> 2 in round 1 forwards the tasks
 * that came from 0, so each moves once (Q = 3, not 6); a task can't
 * leave in the round it arrived; tasks going home are taken first. */
static void test_migrate(void **state)
{
  (void)state;
  lb_topo *tg;
  assert_int_equal(lb_topo_mesh(1, 9, &tg), LB_SUCCESS); /* path of 9 tasks */
  size_t own[9] = {0, 0, 0, 0, 0, 0, 1, 1, 2}, orig[9];
  memcpy(orig, own, sizeof own);
  const lb_transfer tr[2] = {{0, 0, 1, 3}, {1, 1, 2, 3}};
  assert_int_equal(lb_taskgraph_migrate(tg, own, orig, tr, 2), LB_SUCCESS);
  long load[3];
  lb_taskgraph_loads(own, 9, 3, load);
  assert_int_equal(load[0], 3);
  assert_int_equal(load[1], 2);
  assert_int_equal(load[2], 4);
  assert_int_equal(lb_metric_q(orig, own, 9), 3);
  /* boundary first: processor 0 gave its tasks nearest to 1 (3,4,5) */
  assert_int_equal(orig[5], 0);
  assert_int_equal(own[0], 0);
  /* same round: 1 holds 2 tasks at the start, cannot pass on 3 */
  memcpy(own, orig, sizeof own);
  const lb_transfer bad[2] = {{0, 0, 1, 3}, {0, 1, 2, 3}};
  assert_int_equal(lb_taskgraph_migrate(tg, own, orig, bad, 2), LB_ERANGE);
  assert_non_null(strstr(lb_errmsg(), "holds 2 tasks"));
  /* going home first: 1 -> 0 then 0 -> 1 moves the same tasks back */
  memcpy(own, orig, sizeof own);
  const lb_transfer back[2] = {{0, 1, 0, 1}, {1, 0, 1, 1}};
  assert_int_equal(lb_taskgraph_migrate(tg, own, orig, back, 2), LB_SUCCESS);
  assert_int_equal(lb_metric_q(orig, own, 9), 0);
  lb_topo_free(tg);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_generate_and_quotient),
      cmocka_unit_test(test_migrate),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
