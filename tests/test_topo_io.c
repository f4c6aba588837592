/* The graph text format: round trips, the seed 002 graphs, faults
 * reported with their line (checked against a brute-force reading of
 * random files), the size limits, and a star large enough that a
 * reader quadratic in a node's degree would take many minutes. */
#define _GNU_SOURCE
#include <unistd.h>
#include "testutil.h"
#include "lb_topo.h"
#include "lb_rng.h"
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
  const char *specs[] = {"torus:3x5", "random:30:12:4", "star:5", "ring:1"};
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
  size_t edges[9] = {8, 12, 10, 12, 12, 16, 8, 8, 12};
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

/* Brute force: random lists on up to 7 nodes, in random line order,
 * some one-sided, some nodes without a line.  The expected outcome is
 * worked out here by the definition (first arc (i, j) in (i, j) order
 * whose reverse is missing; else the smallest node that node 1 cannot
 * reach) and compared with the reader's status and message. */
static void test_faults_brute_force(void **state)
{
  (void)state;
  lb_rng *r;
  assert_int_equal(lb_rng_alloc(11, &r), LB_SUCCESS);
  size_t outcomes[3] = {0, 0, 0};
  for (int trial = 0; trial < 3000; trial++) {
    size_t n = 1 + lb_rng_below(r, 7), order[7], line_of[7] = {0};
    int adj[7][7] = {{0}}, has[7];
    for (size_t i = 0; i < n; i++) {
      order[i] = i;
      has[i] = lb_rng_below(r, 10) != 0;
    }
    for (size_t i = 0; i < n; i++)
      for (size_t j = i + 1; j < n; j++) {
        size_t k = lb_rng_below(r, 12); /* mostly both ends, sometimes one */
        if (k < 3) adj[i][j] = adj[j][i] = 1;
        else if (k == 3) adj[i][j] = 1;
        else if (k == 4) adj[j][i] = 1;
      }
    lb_rng_shuffle(r, order, n);
    char text[1024];
    size_t len = (size_t)snprintf(text, sizeof text, "nodes %zu\n", n), line = 2;
    for (size_t q = 0; q < n; q++) {
      size_t i = order[q], nb[7], d = 0;
      if (!has[i]) continue;
      for (size_t j = 0; j < n; j++)
        if (adj[i][j]) nb[d++] = j;
      lb_rng_shuffle(r, nb, d);
      len += (size_t)snprintf(text + len, sizeof text - len, "%zu:", i + 1);
      for (size_t k = 0; k < d; k++)
        len += (size_t)snprintf(text + len, sizeof text - len, "%s%zu", k ? ", " : " ", nb[k] + 1);
      len += (size_t)snprintf(text + len, sizeof text - len, "\n");
      line_of[i] = line++;
    }
    for (size_t i = 0; i < n; i++)
      if (!has[i])
        for (size_t j = 0; j < n; j++) adj[i][j] = 0;
    char want[256] = "";
    int code = LB_SUCCESS;
    for (size_t i = 0; i < n && !code; i++)
      for (size_t j = 0; j < n && !code; j++)
        if (adj[i][j] && !adj[j][i]) {
          code = LB_ETOPO;
          if (has[j])
            snprintf(want, sizeof want,
                     "g.graph:%zu: node %zu lists %zu, but node %zu (line %zu) "
                     "does not list %zu: the graph is not symmetric",
                     line_of[i], i + 1, j + 1, j + 1, line_of[j], i + 1);
          else
            snprintf(want, sizeof want,
                     "g.graph:%zu: node %zu lists %zu, but node %zu has no "
                     "adjacency line: the graph is not symmetric",
                     line_of[i], i + 1, j + 1, j + 1);
        }
    if (!code) {
      int seen[7] = {1}, grew = 1;
      while (grew) {
        grew = 0;
        for (size_t i = 0; i < n; i++)
          for (size_t j = 0; j < n; j++)
            if (seen[i] && adj[i][j] && !seen[j]) seen[j] = grew = 1;
      }
      for (size_t v = 0; v < n && !code; v++)
        if (!seen[v]) {
          code = LB_ETOPO;
          if (has[v])
            snprintf(want, sizeof want,
                     "g.graph:%zu: the graph is not connected: node %zu "
                     "cannot be reached from node 1",
                     line_of[v], v + 1);
          else
            snprintf(want, sizeof want,
                     "g.graph: the graph is not connected: node %zu has no "
                     "adjacency line and cannot be reached from node 1",
                     v + 1);
        }
    }
    lb_topo *t = NULL;
    int got = parse(text, &t);
    if (got != code || (code && strcmp(lb_errmsg(), want)))
      fprintf(stderr, "file:\n%swant %d '%s'\ngot %d '%s'\n", text, code, want, got, lb_errmsg());
    assert_int_equal(got, code);
    if (code) {
      assert_string_equal(lb_errmsg(), want);
      assert_null(t);
      outcomes[strstr(want, "symmetric") ? 1 : 2]++;
      continue;
    }
    outcomes[0]++;
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
      for (size_t j = i + 1; j < n; j++)
        if (adj[i][j]) {
          assert_true(m < t->m);
          assert_int_equal(t->edge[m][0], i);
          assert_int_equal(t->edge[m][1], j);
          m++;
        }
    assert_int_equal(m, t->m);
    lb_topo_free(t);
  }
  /* Every kind of outcome occurred often. */
  for (int k = 0; k < 3; k++) assert_true(outcomes[k] > 300);
  lb_rng_free(r);
}

/* A stream of endless '1' with no newline, like a device file. */
static ssize_t endless(void *c, char *buf, size_t size)
{
  (void)c;
  memset(buf, '1', size);
  return (ssize_t)size;
}

static void test_limits(void **state)
{
  (void)state;
  expect_fault("nodes 4194305\n", LB_EFORMAT, "g.graph:1: expected 'nodes N' with 1 <= N <= 4194304");
  expect_fault("nodes -3\n", LB_EFORMAT, "expected 'nodes N'");
  expect_fault("nodes 99999999999999999999999\n", LB_EFORMAT, "expected 'nodes N'");
  expect_fault("nodes 2\n1: 99999999999999999999999\n", LB_EFORMAT, "is not a node id");
  cookie_io_functions_t io = {.read = endless};
  FILE *f = fopencookie(NULL, "r", io);
  assert_non_null(f);
  lb_topo *t = NULL;
  assert_int_equal(lb_topo_read(f, "dev", &t), LB_EFORMAT);
  assert_string_equal(lb_errmsg(), "dev:1: line longer than 67108864 bytes");
  assert_null(t);
  fclose(f);
  char nul[] = "nodes 2\n1: 2\n2: \0 1\n";
  f = fmemopen(nul, sizeof nul - 1, "r");
  assert_int_equal(lb_topo_read(f, "g.graph", &t), LB_EFORMAT);
  assert_string_equal(lb_errmsg(), "g.graph:3: line contains a NUL byte");
  fclose(f);
}

/* star:2^21 with the hub's 2^21 - 1 neighbours on one line.  The old
 * reader compared each neighbour with the whole list so far: 0.44 s at
 * 5e4 nodes, 1.66 s at 1e5 (docs/PERFORMANCE.md), about 12 minutes
 * here; the linear one takes under a second.  The alarm is only a hang
 * guard. */
static void test_large_star(void **state)
{
  (void)state;
  size_t n = (size_t)1 << 21;
  char *buf;
  size_t len;
  FILE *f = open_memstream(&buf, &len);
  fprintf(f, "nodes %zu\n1:", n);
  for (size_t i = 2; i <= n; i++) fprintf(f, " %zu", i);
  fputc('\n', f);
  for (size_t i = 2; i <= n; i++) fprintf(f, "%zu: 1\n", i);
  fclose(f);
  alarm(300);
  lb_topo *t;
  f = fmemopen(buf, len, "r");
  assert_int_equal(lb_topo_read(f, "star.graph", &t), LB_SUCCESS);
  fclose(f);
  alarm(0);
  assert_int_equal(t->n, n);
  assert_int_equal(t->m, n - 1);
  assert_int_equal(lb_topo_degree(t, 0), n - 1);
  assert_int_equal(lb_topo_degree(t, n - 1), 1);
  lb_topo_free(t);
  free(buf);
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
      cmocka_unit_test(test_round_trip),          cmocka_unit_test(test_seed002_graphs),
      cmocka_unit_test(test_comments_and_commas), cmocka_unit_test(test_faults),
      cmocka_unit_test(test_faults_brute_force),  cmocka_unit_test(test_limits),
      cmocka_unit_test(test_large_star),          cmocka_unit_test(test_missing_file),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
