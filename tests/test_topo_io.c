/* The graph text format: round trips, the seed 002 graphs, and faults
 * reported with their line. */
#include "testutil.h"
#include "lb_topo.h"
#include "lb_errno.h"

static int parse(const char *text, lb_topo **t)
{
  FILE *f = fmemopen((void *)text, strlen(text), "r");
  int s = lb_topo_read(f, "g.graph", t);
  fclose(f);
  return s;
}

static void test_round_trip(void **state)
{
  (void)state;
  const char *specs[] = { "torus:3x5", "random:30:12:4", "star:5", "ring:1" };
  for (size_t k = 0; k < 4; k++) {
    lb_topo *a, *b;
    assert_int_equal(lb_topo_from_spec(specs[k], &a), LB_SUCCESS);
    char *buf;
    size_t len;
    FILE *f = open_memstream(&buf, &len);
    assert_int_equal(lb_topo_write(f, a), LB_SUCCESS);
    fclose(f);
    assert_int_equal(parse(buf, &b), LB_SUCCESS);
    assert_int_equal(a->n, b->n);
    assert_int_equal(a->m, b->m);
    assert_memory_equal(a->edge, b->edge, a->m * sizeof *a->edge);
    free(buf);
    lb_topo_free(a);
    lb_topo_free(b);
  }
}

static void test_seed002_graphs(void **state)
{
  (void)state;
  /* Edge counts read off the printed Table 1 by hand. */
  size_t edges[9] = { 8, 12, 10, 12, 12, 16, 8, 8, 12 };
  for (int g = 1; g <= 9; g++) {
    char rel[64];
    snprintf(rel, sizeof rel, "data/graphs/seed002-g%d.graph", g);
    lb_topo *t;
    int s = lb_topo_read_file(srcpath(rel), &t);
    if (s) fprintf(stderr, "%s\n", lb_errmsg());
    assert_int_equal(s, LB_SUCCESS);
    assert_int_equal(t->n, 9);
    assert_int_equal(t->m, edges[g - 1]);
    lb_topo_free(t);
  }
  lb_topo *g9, *mesh;
  assert_int_equal(lb_topo_read_file(srcpath("data/graphs/seed002-g9.graph"), &g9), 0);
  assert_int_equal(lb_topo_from_spec("mesh:3x3", &mesh), 0);
  assert_memory_equal(g9->edge, mesh->edge, mesh->m * sizeof *mesh->edge);
  lb_topo_free(g9);
  lb_topo_free(mesh);
}

static void test_comments_and_commas(void **state)
{
  (void)state;
  lb_topo *t;
  assert_int_equal(parse("# a path\n\nnodes 3  # three\n1: 2\n2: 1,3\n3:2\n", &t), 0);
  assert_int_equal(t->m, 2);
  lb_topo_free(t);
}

static void expect_fault(const char *text, int code, const char *needle)
{
  lb_topo *t = NULL;
  assert_int_equal(parse(text, &t), code);
  assert_null(t);
  if (!strstr(lb_errmsg(), needle)) fprintf(stderr, "message was: %s\n", lb_errmsg());
  assert_non_null(strstr(lb_errmsg(), needle));
}

static void test_faults(void **state)
{
  (void)state;
  expect_fault("", LB_EFORMAT, "no 'nodes N' line");
  expect_fault("1: 2\n", LB_EFORMAT, "g.graph:1: expected 'nodes N'");
  expect_fault("nodes 0\n", LB_EFORMAT, "g.graph:1:");
  expect_fault("nodes 3\nnodes 3\n", LB_EFORMAT, "g.graph:2: second 'nodes' line");
  expect_fault("nodes 3\n1: 2\n2: 1 4\n", LB_EFORMAT, "g.graph:3: node 4 is outside 1..3");
  expect_fault("nodes 3\n1: 2 x\n", LB_EFORMAT, "g.graph:2: 'x' is not a node id");
  expect_fault("nodes 3\n1 2\n", LB_EFORMAT, "g.graph:2: expected ':' after node 1");
  expect_fault("nodes 3\n1: 1\n", LB_EFORMAT, "g.graph:2: node 1 lists itself");
  expect_fault("nodes 3\n1: 2 2\n", LB_EFORMAT, "g.graph:2: node 1 lists 2 twice");
  expect_fault("nodes 2\n1: 2\n2: 1\n1: 2\n", LB_EFORMAT, "g.graph:4: node 1 already listed on line 2");
  expect_fault("nodes 3\n1: 2 3\n2: 1\n3: 2\n", LB_ETOPO, "not symmetric");
  expect_fault("nodes 3\n1: 2 3\n2: 1\n3: 2\n", LB_ETOPO, "g.graph:2: node 1 lists 3");
  expect_fault("nodes 3\n1: 2\n2: 1 3\n", LB_ETOPO, "node 3 has no adjacency line");
  expect_fault("nodes 4\n1: 2\n2: 1\n3: 4\n4: 3\n", LB_ETOPO, "g.graph:4: the graph is not connected");
  expect_fault("nodes 3\n1: 2\n2: 1\n", LB_ETOPO, "node 3 has no adjacency line and cannot be reached");
}

static void test_missing_file(void **state)
{
  (void)state;
  lb_topo *t = NULL;
  assert_int_equal(lb_topo_read_file("/nonexistent/x.graph", &t), LB_EIO);
  assert_non_null(strstr(lb_errmsg(), "/nonexistent/x.graph"));
}

int main(void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_round_trip),
    cmocka_unit_test(test_seed002_graphs),
    cmocka_unit_test(test_comments_and_commas),
    cmocka_unit_test(test_faults),
    cmocka_unit_test(test_missing_file),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
