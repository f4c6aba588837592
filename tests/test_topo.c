/* Topology generators, neighbour lists and matrices. */
#include "testutil.h"
#include "lb_topo.h"
#include "lb_topo_matrix.h"
#include "lb_rng.h"
#include "lb_errno.h"

static lb_topo *spec(const char *s)
{
  lb_topo *t = NULL;
  int st = lb_topo_from_spec(s, &t);
  if (st) fprintf(stderr, "%s: %s\n", s, lb_errmsg());
  assert_int_equal(st, LB_SUCCESS);
  return t;
}

static void check_sym_sorted(const lb_topo *t)
{
  size_t sum = 0;
  for (size_t i = 0; i < t->n; i++) {
    const size_t *nb = lb_topo_neighbours(t, i);
    for (size_t k = 0; k < lb_topo_degree(t, i); k++) {
      if (k) assert_true(nb[k - 1] < nb[k]);
      assert_true(lb_topo_adjacent(t, nb[k], i));
      assert_int_not_equal(nb[k], i);
    }
    sum += lb_topo_degree(t, i);
  }
  assert_int_equal(sum, 2 * t->m);
}

static void test_edge_counts(void **state)
{
  (void)state;
  struct {
    const char *s;
    size_t n, m;
  } c[] = {
      {"ring:8", 8, 8},
      {"ring:2", 2, 1},
      {"mesh:3x4", 12, 17},
      {"torus:4x5", 20, 40},
      {"torus:32x32", 1024, 2048},
      {"hypercube:4", 16, 32},
      {"complete:7", 7, 21},
      {"star:6", 6, 5},
      {"random:50:30:9", 50, 79},
  };
  for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
    lb_topo *t = spec(c[i].s);
    assert_int_equal(t->n, c[i].n);
    assert_int_equal(t->m, c[i].m);
    assert_true(lb_topo_is_connected(t));
    check_sym_sorted(t);
    lb_topo_free(t);
  }
}

static void test_degrees(void **state)
{
  (void)state;
  lb_topo *t = spec("torus:6x6");
  for (size_t i = 0; i < t->n; i++) assert_int_equal(lb_topo_degree(t, i), 4);
  lb_topo_free(t);
  t = spec("star:9");
  assert_int_equal(lb_topo_degree(t, 0), 8);
  for (size_t i = 1; i < 9; i++) assert_int_equal(lb_topo_degree(t, i), 1);
  lb_topo_free(t);
  t = spec("mesh:3x3");
  assert_int_equal(lb_topo_degree(t, 4), 4); /* centre */
  assert_int_equal(lb_topo_degree(t, 0), 2); /* corner */
  assert_int_equal(lb_topo_degree(t, 1), 3); /* side */
  lb_topo_free(t);
}

static void test_random_is_seeded(void **state)
{
  (void)state;
  lb_topo *a = spec("random:40:20:7"), *b = spec("random:40:20:7"), *c = spec("random:40:20:8");
  assert_int_equal(a->m, b->m);
  assert_memory_equal(a->edge, b->edge, a->m * sizeof *a->edge);
  int differ = c->m != a->m || memcmp(a->edge, c->edge, a->m * sizeof *a->edge);
  assert_true(differ);
  lb_topo_free(a);
  lb_topo_free(b);
  lb_topo_free(c);
}

static void test_bad_specs(void **state)
{
  (void)state;
  const char *bad[] = {"ring",      "ring:",        "ring:x", "ring:0",       "mesh:3", "mesh:3x",
                       "torus:0x4", "hypercube:40", "blob:3", "random:5:100", "ring:-3"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    lb_topo *t = NULL;
    assert_int_not_equal(lb_topo_from_spec(bad[i], &t), LB_SUCCESS);
    assert_null(t);
    assert_true(strlen(lb_errmsg()) > 0);
  }
}

/* Sizes are checked before any work, with messages that say why. */
static void test_spec_size_errors(void **state)
{
  (void)state;
  struct {
    const char *s;
    int code;
    const char *text;
  } c[] = {
      {"random:3", LB_ERANGE, "at most 1 extra edges"}, /* EXTRA defaults to N */
      {"random:1500:1122752", LB_ERANGE, "at most 1122751 extra edges"},
      {"random:4194304:40000000", LB_ERANGE, "33554432"},
      {"random:4194305", LB_ERANGE, "1..4194304 nodes"},
      {"random:99999999999999999999999", LB_ERANGE, "too large"},
      {"torus:4294967296x4294967296", LB_ERANGE, "at most 4194304"},
      {"mesh:99999999999999999999x2", LB_ERANGE, "too large"},
      {"hypercube:23", LB_ERANGE, "> 22"},
      {"complete:5000", LB_ERANGE, "4096"},
      {"random:10:x", LB_EINVAL, "expected ring:N"},
  };
  for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
    lb_topo *t = NULL;
    int st = lb_topo_from_spec(c[i].s, &t);
    if (st != c[i].code || !strstr(lb_errmsg(), c[i].text)) fprintf(stderr, "%s: %d %s\n", c[i].s, st, lb_errmsg());
    assert_int_equal(st, c[i].code);
    assert_non_null(strstr(lb_errmsg(), c[i].text));
    assert_null(t);
  }
}

/* The random stream is part of the experiments' inputs: pin it. */
static void test_random_stream(void **state)
{
  (void)state;
  static const size_t want[][2] = {
      {0, 10}, {1, 3},  {1, 5},  {1, 11}, {2, 3}, {2, 11}, {3, 4}, {3, 6},  {3, 8},  {3, 9},  {3, 11},
      {4, 8},  {4, 10}, {4, 11}, {5, 6},  {5, 7}, {5, 11}, {6, 9}, {6, 11}, {8, 11}, {9, 11},
  };
  lb_topo *t = spec("random:12:10:3");
  assert_int_equal(t->m, sizeof want / sizeof want[0]);
  assert_memory_equal(t->edge, want, sizeof want);
  lb_topo_free(t);
}

/* Every drawn edge is distinct (merging would lower m) and the graph
 * connected, sparse or dense, up to the complete graph. */
static void test_random_sizes(void **state)
{
  (void)state;
  struct {
    const char *s;
    size_t n, m;
  } c[] = {
      {"random:4:3:1", 4, 6}, /* all the room: complete */
      {"random:2000:80000:5", 2000, 81999},
      {"random:300000", 300000, 599999},
      {"random:1500:1000000:3", 1500, 1001499}, /* dense: draws what to leave out */
      {"random:1500:1122751:2", 1500, 1124250}, /* complete */
  };
  for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
    lb_topo *t = spec(c[i].s);
    assert_int_equal(t->n, c[i].n);
    assert_int_equal(t->m, c[i].m);
    assert_true(lb_topo_is_connected(t));
    lb_topo_free(t);
  }
  lb_topo *a = spec("random:1500:1000000:3"), *b = spec("random:1500:1000000:4");
  assert_true(memcmp(a->edge, b->edge, a->m * sizeof *a->edge) != 0);
  lb_topo_free(a);
  lb_topo_free(b);
}

/* L = A A^T, and every row of L sums to 0. */
static void test_laplacian_incidence(void **state)
{
  (void)state;
  lb_topo *t = spec("random:12:10:3");
  gsl_matrix *L = gsl_matrix_alloc(t->n, t->n), *A = gsl_matrix_alloc(t->n, t->m);
  assert_int_equal(lb_topo_laplacian(t, L), LB_SUCCESS);
  assert_int_equal(lb_topo_incidence(t, A), LB_SUCCESS);
  for (size_t i = 0; i < t->n; i++) {
    double row = 0;
    for (size_t j = 0; j < t->n; j++) {
      double aat = 0;
      for (size_t k = 0; k < t->m; k++) aat += gsl_matrix_get(A, i, k) * gsl_matrix_get(A, j, k);
      assert_close(gsl_matrix_get(L, i, j), aat, 1e-12);
      row += gsl_matrix_get(L, i, j);
    }
    assert_close(row, 0.0, 1e-12);
  }
  /* seed 002 orientation: +1 at the larger end. */
  for (size_t k = 0; k < t->m; k++) {
    assert_close(gsl_matrix_get(A, t->edge[k][1], k), 1.0, 0);
    assert_close(gsl_matrix_get(A, t->edge[k][0], k), -1.0, 0);
  }
  gsl_matrix *wrong = gsl_matrix_alloc(3, 3);
  assert_int_equal(lb_topo_laplacian(t, wrong), LB_EINVAL);
  gsl_matrix_free(wrong);
  gsl_matrix_free(L);
  gsl_matrix_free(A);
  lb_topo_free(t);
}

static void test_from_edges_rejects(void **state)
{
  (void)state;
  lb_topo *t = NULL;
  size_t loop[1][2] = {{2, 2}}, out[1][2] = {{0, 5}};
  assert_int_equal(lb_topo_from_edges(3, (const size_t(*)[2])loop, 1, "x", &t), LB_ETOPO);
  assert_int_equal(lb_topo_from_edges(3, (const size_t(*)[2])out, 1, "x", &t), LB_ETOPO);
  size_t dup[3][2] = {{0, 1}, {1, 0}, {0, 1}};
  assert_int_equal(lb_topo_from_edges(2, (const size_t(*)[2])dup, 3, "x", &t), LB_SUCCESS);
  assert_int_equal(t->m, 1);
  lb_topo_free(t);
}

/* Shuffled edges with repeats in both orientations give the same graph as
 * an adjacency matrix read row by row. */
static void test_from_edges_matches_matrix(void **state)
{
  (void)state;
  size_t sizes[] = {1, 2, 3, 17, 64, 300};
  lb_rng *r;
  assert_int_equal(lb_rng_alloc(5, &r), LB_SUCCESS);
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
    size_t n = sizes[s], ne = n > 1 ? 3 * n : 0;
    unsigned char *adj = calloc(n * n, 1);
    size_t(*e)[2] = malloc((ne ? ne : 1) * sizeof *e);
    for (size_t k = 0; k < ne; k++) {
      size_t i = lb_rng_below(r, n), j = lb_rng_below(r, n);
      if (i == j) j = (i + 1) % n;
      if (k % 4 == 3) {
        i = e[k / 2][1];
        j = e[k / 2][0];
      } /* a repeat, reversed */
      e[k][0] = i;
      e[k][1] = j;
      adj[i * n + j] = adj[j * n + i] = 1;
    }
    lb_topo *t = NULL;
    assert_int_equal(lb_topo_from_edges(n, (const size_t(*)[2])e, ne, "x", &t), LB_SUCCESS);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
      for (size_t j = i + 1; j < n; j++)
        if (adj[i * n + j]) {
          assert_true(m < t->m);
          assert_int_equal(t->edge[m][0], i);
          assert_int_equal(t->edge[m][1], j);
          assert_int_equal(lb_topo_edge_index(t, j, i), m);
          m++;
        }
    assert_int_equal(t->m, m);
    for (size_t i = 0; i < n; i++) {
      size_t k = 0;
      for (size_t j = 0; j < n; j++)
        if (adj[i * n + j]) {
          assert_true(k < lb_topo_degree(t, i));
          assert_int_equal(lb_topo_neighbours(t, i)[k++], j);
        }
      assert_int_equal(k, lb_topo_degree(t, i));
    }
    lb_topo_free(t);
    free(e);
    free(adj);
  }
  lb_rng_free(r);
}

/* Every distance, eccentricity and the diameter of t against BFS from
 * every node. */
static void check_against_bfs(const lb_topo *t)
{
  size_t *row = malloc(t->n * sizeof *row), diam = 0;
  for (size_t i = 0; i < t->n; i++) {
    size_t ecc = lb_topo_bfs(t, i, row), got;
    for (size_t j = 0; j < t->n; j++) {
      if (lb_topo_distance(t, i, j) != row[j])
        fprintf(stderr, "%s: d(%zu,%zu) = %zu, BFS %zu\n", t->name, i, j, lb_topo_distance(t, i, j), row[j]);
      assert_int_equal(lb_topo_distance_e(t, i, j, &got), LB_SUCCESS);
      assert_int_equal(got, row[j]);
    }
    assert_int_equal(lb_topo_eccentricity_e(t, i, &got), LB_SUCCESS);
    assert_int_equal(got, ecc);
    assert_int_equal(lb_topo_eccentricity(t, i), ecc);
    if (ecc > diam) diam = ecc;
  }
  assert_int_equal(lb_topo_diameter(t), diam);
  free(row);
}

/* "kind:a" or, with b > 0, "kind:axb". */
static lb_topo *spec_of(const char *kind, size_t a, size_t b)
{
  char s[64];
  if (b) snprintf(s, sizeof s, "%s:%zux%zu", kind, a, b);
  else snprintf(s, sizeof s, "%s:%zu", kind, a);
  return spec(s);
}

/* Closed forms against BFS on every kind, including the degenerate
 * sizes (1x1, 1xN, Nx1, 2xN, rings of 1 and 2, hypercube:0). */
static void test_closed_forms(void **state)
{
  (void)state;
  const char *one[] = {"ring", "complete", "star"};
  for (size_t k = 0; k < 3; k++)
    for (size_t n = 1; n <= 24; n++) {
      lb_topo *t = spec_of(one[k], n, 0);
      assert_true(lb_topo_is_implicit(t));
      check_against_bfs(t);
      assert_int_equal(lb_topo_cache_misses(t), 0); /* no BFS behind the answers */
      lb_topo_free(t);
    }
  const char *two[] = {"mesh", "torus"};
  for (size_t k = 0; k < 2; k++)
    for (size_t r = 1; r <= 7; r++)
      for (size_t c = 1; c <= 7; c++) {
        lb_topo *t = spec_of(two[k], r, c);
        assert_true(lb_topo_is_implicit(t));
        check_against_bfs(t);
        assert_int_equal(lb_topo_cache_misses(t), 0);
        lb_topo_free(t);
      }
  for (size_t d = 0; d <= 8; d++) {
    lb_topo *t = spec_of("hypercube", d, 0);
    assert_true(lb_topo_is_implicit(t));
    check_against_bfs(t);
    lb_topo_free(t);
  }
  const char *big[] = {"ring:101",     "ring:64",     "mesh:1x40",  "mesh:40x1",   "mesh:13x22",
                       "torus:1x31",   "torus:2x30",  "torus:31x1", "torus:32x32", "torus:9x16",
                       "hypercube:10", "complete:90", "star:200"};
  for (size_t k = 0; k < sizeof big / sizeof big[0]; k++) {
    lb_topo *t = spec(big[k]);
    check_against_bfs(t);
    lb_topo_free(t);
  }
}

/* The next hop by brute force: BFS distances from every neighbour,
 * the lowest id at the least; dst itself when adjacent, equal or out
 * of reach. */
static void check_next_hop(const lb_topo *t)
{
  size_t n = t->n, *dist = malloc(n * n * sizeof *dist);
  assert_non_null(dist);
  for (size_t v = 0; v < n; v++) lb_topo_bfs(t, v, dist + v * n);
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < n; j++) {
      size_t want = j, bd = (size_t)-1;
      const size_t *nb = lb_topo_neighbours(t, i);
      if (i != j && dist[i * n + j] > 1)
        for (size_t k = 0; k < lb_topo_degree(t, i); k++) {
          size_t d = dist[nb[k] * n + j];
          if (d < bd || (d == bd && nb[k] < want)) bd = d, want = nb[k];
        }
      if (i != j && dist[i * n + j] == (size_t)-1) want = j;
      if (lb_topo_next_hop(t, i, j) != want)
        fail_msg("%s: next hop %zu -> %zu is %zu, not %zu", t->name, i, j, lb_topo_next_hop(t, i, j), want);
    }
  assert_int_equal(lb_topo_next_hop(t, n, 0), 0); /* out of range: dst back */
  free(dist);
}

/* Every kind, the degenerate sizes too, and graphs with no shape. */
static void test_next_hop(void **state)
{
  (void)state;
  const char *one[] = {"ring", "complete", "star"};
  for (size_t k = 0; k < 3; k++)
    for (size_t n = 1; n <= 12; n++) {
      lb_topo *t = spec_of(one[k], n, 0);
      check_next_hop(t);
      lb_topo_free(t);
    }
  const char *two[] = {"mesh", "torus"};
  for (size_t k = 0; k < 2; k++)
    for (size_t r = 1; r <= 6; r++)
      for (size_t c = 1; c <= 6; c++) {
        lb_topo *t = spec_of(two[k], r, c);
        check_next_hop(t);
        lb_topo_free(t);
      }
  const char *more[] = {"hypercube:0", "hypercube:1", "hypercube:4",    "hypercube:6",
                        "torus:8x8",   "torus:7x10",  "random:40:20:3", "random:60:0:5"};
  for (size_t k = 0; k < sizeof more / sizeof more[0]; k++) {
    lb_topo *t = spec(more[k]);
    check_next_hop(t);
    lb_topo_free(t);
  }
  size_t e[][2] = {{0, 1}, {1, 2}, {2, 3}, {4, 5}}; /* no way from 0 to 4 */
  lb_topo *t;
  assert_int_equal(lb_topo_from_edges(7, (const size_t(*)[2])e, 4, "x", &t), LB_SUCCESS);
  check_next_hop(t);
  assert_int_equal(lb_topo_next_hop(t, 0, 4), 4);
  lb_topo_free(t);
}

/* Queries outside the graph are errors with a message, not aborts. */
static void test_distance_errors(void **state)
{
  (void)state;
  const char *g[] = {"torus:3x4", "random:12:4:1"};
  for (size_t k = 0; k < 2; k++) {
    lb_topo *t = spec(g[k]);
    size_t d = 7;
    lb_error_clear();
    assert_int_equal(lb_topo_distance_e(t, 12, 0, &d), LB_EINVAL);
    assert_non_null(strstr(lb_errmsg(), "node 12 outside 0..11"));
    assert_int_equal(d, 7);
    assert_int_equal(lb_topo_distance(t, 0, 99), LB_TOPO_NO_PATH);
    assert_int_equal(lb_topo_eccentricity_e(t, 12, &d), LB_EINVAL);
    assert_int_equal(lb_topo_eccentricity(t, 12), LB_TOPO_NO_PATH);
    lb_topo_free(t);
  }
}

/* The same graph from an edge list: no shape, so BFS and its cache. */
static lb_topo *general_copy(const lb_topo *t)
{
  lb_topo *g = NULL;
  assert_int_equal(lb_topo_from_edges(t->n, (const size_t(*)[2])t->edge, t->m, "copy", &g), LB_SUCCESS);
  assert_false(lb_topo_is_implicit(g));
  return g;
}

/* Cached BFS rows against fresh BFS, with room for every row, for a few
 * rows (evictions) and for one; queries in a shuffled order. */
static void test_cached_bfs(void **state)
{
  (void)state;
  const char *g[] = {"random:150:60:1",
                     "random:90:0:4",
                     "random:2:0:1",
                     "random:1:0:1",
                     "torus:9x11",
                     "star:13",
                     "file:data/graphs/seed002-g4.graph"};
  size_t limits[] = {LB_TOPO_CACHE_DEFAULT, 3 * 150 * 4, 1};
  lb_rng *r;
  assert_int_equal(lb_rng_alloc(11, &r), LB_SUCCESS);
  for (size_t k = 0; k < sizeof g / sizeof g[0]; k++) {
    lb_topo *t0;
    if (!strncmp(g[k], "file:", 5)) assert_int_equal(lb_topo_read_file(srcpath(g[k] + 5), &t0), LB_SUCCESS);
    else t0 = spec(g[k]);
    for (size_t l = 0; l < 3; l++) {
      lb_topo *t = t0->shape.kind == LB_TOPO_GENERAL ? t0 : general_copy(t0);
      lb_topo_set_cache_limit(t, limits[l]);
      size_t n = t->n, *all = malloc(n * n * sizeof *all), *ecc = malloc(n * sizeof *ecc);
      size_t diam = 0;
      for (size_t i = 0; i < n; i++) {
        ecc[i] = lb_topo_bfs(t, i, all + i * n);
        if (ecc[i] > diam) diam = ecc[i];
      }
      unsigned long before = lb_topo_cache_misses(t);
      size_t q = 4 * n * n;
      for (size_t x = 0; x < q; x++) {
        size_t i = lb_rng_below(r, n), j = lb_rng_below(r, n);
        assert_int_equal(lb_topo_distance(t, i, j), all[i * n + j]);
        if (x % 7 == 0) assert_int_equal(lb_topo_eccentricity(t, i), ecc[i]);
      }
      unsigned long misses = lb_topo_cache_misses(t) - before;
      if (l == 0) assert_true(misses <= n);         /* each row computed at most once */
      if (l == 2 && n > 2) assert_true(misses > n); /* one row: it must evict */
      assert_int_equal(lb_topo_diameter(t), diam);
      check_against_bfs(t);
      free(all);
      free(ecc);
      if (t != t0) lb_topo_free(t);
    }
    lb_topo_free(t0);
  }
  lb_rng_free(r);
}

/* With room for two rows, the row used most recently survives. */
static void test_cache_lru(void **state)
{
  (void)state;
  lb_topo *ring = spec("ring:10"), *t = general_copy(ring);
  lb_topo_set_cache_limit(t, 2 * 10 * 4);
  size_t src[] = {0, 1, 0, 2, 0, 1}, miss[] = {1, 2, 2, 3, 3, 4};
  for (size_t k = 0; k < 6; k++) {
    assert_int_equal(lb_topo_distance(t, src[k], 9), lb_topo_distance(ring, src[k], 9));
    assert_int_equal(lb_topo_cache_misses(t), miss[k]);
  }
  /* Either end's row answers: 9 to 0 needs no BFS from 9. */
  assert_int_equal(lb_topo_distance(t, 9, 0), 1);
  assert_int_equal(lb_topo_cache_misses(t), 4);
  lb_topo_free(t);
  lb_topo_free(ring);
}

/* Components apart: no path, and eccentricities count finite distances. */
static void test_disconnected(void **state)
{
  (void)state;
  size_t e[][2] = {{0, 1}, {1, 2}, {2, 3}, {4, 5}}; /* path, edge, node 6 alone */
  lb_topo *t;
  assert_int_equal(lb_topo_from_edges(7, (const size_t(*)[2])e, 4, "x", &t), LB_SUCCESS);
  assert_int_equal(lb_topo_distance(t, 0, 3), 3);
  assert_int_equal(lb_topo_distance(t, 5, 4), 1);
  assert_int_equal(lb_topo_distance(t, 0, 4), LB_TOPO_NO_PATH);
  assert_int_equal(lb_topo_distance(t, 6, 6), 0);
  size_t d = 0;
  assert_int_equal(lb_topo_distance_e(t, 6, 2, &d), LB_SUCCESS);
  assert_int_equal(d, LB_TOPO_NO_PATH);
  assert_int_equal(lb_topo_eccentricity(t, 1), 2);
  assert_int_equal(lb_topo_eccentricity(t, 6), 0);
  assert_int_equal(lb_topo_diameter(t), 3);
  check_against_bfs(t);
  lb_topo_free(t);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_edge_counts),        cmocka_unit_test(test_degrees),
      cmocka_unit_test(test_random_is_seeded),   cmocka_unit_test(test_bad_specs),
      cmocka_unit_test(test_spec_size_errors),   cmocka_unit_test(test_random_stream),
      cmocka_unit_test(test_random_sizes),       cmocka_unit_test(test_laplacian_incidence),
      cmocka_unit_test(test_from_edges_rejects), cmocka_unit_test(test_from_edges_matches_matrix),
      cmocka_unit_test(test_closed_forms),       cmocka_unit_test(test_distance_errors),
      cmocka_unit_test(test_cached_bfs),         cmocka_unit_test(test_cache_lru),
      cmocka_unit_test(test_disconnected),       cmocka_unit_test(test_next_hop),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
