/* Hop distances and next hops: closed forms, and Floyd against BFS. */
#include "testutil.h"
#include "lb_topo.h"
#include "lb_paths.h"
#include "lb_errno.h"

static lb_paths *paths_of(const char *s, lb_topo **t, int floyd)
{
  lb_paths *p;
  assert_int_equal(lb_topo_from_spec(s, t), LB_SUCCESS);
  assert_int_equal(lb_paths_alloc((*t)->n, &p), LB_SUCCESS);
  assert_int_equal(floyd ? lb_paths_floyd(*t, NULL, p) : lb_paths_bfs(*t, p), LB_SUCCESS);
  return p;
}

static size_t ringd(size_t i, size_t j, size_t n)
{
  size_t d = i > j ? i - j : j - i;
  return d < n - d ? d : n - d;
}

static void test_ring(void **state)
{
  (void)state;
  lb_topo *t;
  lb_paths *p = paths_of("ring:11", &t, 1);
  for (size_t i = 0; i < 11; i++)
    for (size_t j = 0; j < 11; j++) assert_close(lb_paths_dist(p, i, j), ringd(i, j, 11), 0);
  assert_close(lb_paths_diameter(p), 5, 0);
  size_t r[16];
  assert_int_equal(lb_paths_route(p, 0, 3, r, 16), 4);
  assert_int_equal(r[1], 1);
  assert_int_equal(r[3], 3);
  lb_paths_free(p);
  lb_topo_free(t);
}

static void test_closed_forms(void **state)
{
  (void)state;
  lb_topo *t;
  lb_paths *p = paths_of("hypercube:5", &t, 1);
  for (size_t i = 0; i < 32; i++)
    for (size_t j = 0; j < 32; j++) assert_close(lb_paths_dist(p, i, j), __builtin_popcount((unsigned)(i ^ j)), 0);
  lb_paths_free(p);
  lb_topo_free(t);
  p = paths_of("mesh:4x6", &t, 1);
  for (size_t i = 0; i < 24; i++)
    for (size_t j = 0; j < 24; j++) {
      long dy = (long)(i / 6) - (long)(j / 6), dx = (long)(i % 6) - (long)(j % 6);
      assert_close(lb_paths_dist(p, i, j), labs(dy) + labs(dx), 0);
    }
  lb_paths_free(p);
  lb_topo_free(t);
  p = paths_of("torus:5x7", &t, 0);
  for (size_t i = 0; i < 35; i++)
    for (size_t j = 0; j < 35; j++)
      assert_close(lb_paths_dist(p, i, j), ringd(i / 7, j / 7, 5) + ringd(i % 7, j % 7, 7), 0);
  lb_paths_free(p);
  lb_topo_free(t);
}

/* Every route follows edges and has exactly dist+1 nodes. */
static void check_routes(const lb_topo *t, const lb_paths *p)
{
  size_t *r = malloc((t->n + 1) * sizeof *r);
  for (size_t i = 0; i < t->n; i++)
    for (size_t j = 0; j < t->n; j++) {
      size_t len = lb_paths_route(p, i, j, r, t->n + 1);
      assert_int_equal(len, (size_t)lb_paths_dist(p, i, j) + 1);
      for (size_t k = 1; k < len; k++) assert_true(lb_topo_adjacent(t, r[k - 1], r[k]));
    }
  free(r);
}

static void test_floyd_equals_bfs(void **state)
{
  (void)state;
  const char *g[] = {"random:60:40:1", "random:33:5:2", "star:9", "complete:6", "torus:4x4", "mesh:1x9"};
  for (size_t k = 0; k < sizeof g / sizeof g[0]; k++) {
    lb_topo *t, *t2;
    lb_paths *a = paths_of(g[k], &t, 1), *b = paths_of(g[k], &t2, 0);
    assert_memory_equal(a->dist, b->dist, t->n * t->n * sizeof *a->dist);
    assert_memory_equal(a->next, b->next, t->n * t->n * sizeof *a->next);
    check_routes(t, a);
    lb_paths_free(a);
    lb_paths_free(b);
    lb_topo_free(t);
    lb_topo_free(t2);
  }
}

/* Weighted Floyd: a heavy edge is avoided in favour of a lighter detour. */
static void test_weighted(void **state)
{
  (void)state;
  lb_topo *t;
  assert_int_equal(lb_topo_from_spec("ring:4", &t), LB_SUCCESS);
  double w[4];
  for (size_t k = 0; k < t->m; k++) w[k] = (t->edge[k][0] == 0 && t->edge[k][1] == 1) ? 10.0 : 1.0;
  lb_paths *p;
  assert_int_equal(lb_paths_alloc(4, &p), LB_SUCCESS);
  assert_int_equal(lb_paths_floyd(t, w, p), LB_SUCCESS);
  assert_close(lb_paths_dist(p, 0, 1), 3.0, 0);
  assert_int_equal(lb_paths_next(p, 0, 1), 3);
  w[0] = -1.0;
  assert_int_equal(lb_paths_floyd(t, w, p), LB_EINVAL);
  lb_paths_free(p);
  lb_topo_free(t);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_ring),
      cmocka_unit_test(test_closed_forms),
      cmocka_unit_test(test_floyd_equals_bfs),
      cmocka_unit_test(test_weighted),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
