/* Arrangement search: the fast evaluator against gsl_eigen_symm, the
 * searches against brute force, closed forms for ring and hypercube. */
#include "testutil.h"
#include <float.h>
#include <gsl/gsl_eigen.h>
#include "lb_topo.h"
#include "lb_rng.h"
#include "lb_symtri.h"
#include "lb_hetero.h"
#include "lb_arrange.h"
#include "lb_arrange_ws.h"
#include "lb_spectrum.h"
#include "lb_errno.h"

static lb_topo *topo(const char *spec)
{
  lb_topo *t;
  assert_int_equal(lb_topo_from_spec(spec, &t), LB_SUCCESS);
  return t;
}

static lb_topo *seedgraph(int k)
{
  char rel[64];
  lb_topo *t;
  snprintf(rel, sizeof rel, "data/graphs/seed002-g%d.graph", k);
  assert_int_equal(lb_topo_read_file(srcpath(rel), &t), LB_SUCCESS);
  return t;
}

/* Every eigenvalue by bisection equals gsl_eigen_symm's. */
static void test_symtri_vs_gsl(void **state)
{
  (void)state;
  lb_rng *r;
  assert_int_equal(lb_rng_alloc(7, &r), LB_SUCCESS);
  for (size_t n = 1; n <= 20; n += 3) {
    lb_spectrum *sp;
    assert_int_equal(lb_spectrum_alloc(n, &sp), LB_SUCCESS);
    gsl_matrix *a = gsl_matrix_alloc(n, n);
    double *buf = malloc(n * n * sizeof *buf), d[20], e[20], e2[20], scr[40];
    for (size_t i = 0; i < n; i++)
      for (size_t j = 0; j <= i; j++) {
        double x = lb_rng_range(r, -3, 3);
        if (i == j && n > 4 && i % 4 == 1) x = 0.0;
        gsl_matrix_set(a, i, j, x);
        gsl_matrix_set(a, j, i, x);
      }
    for (size_t i = 0; i < n; i++)
      for (size_t j = 0; j < n; j++) buf[i * n + j] = gsl_matrix_get(a, i, j);
    assert_int_equal(lb_spectrum_symm(sp, a), LB_SUCCESS);
    lb_symtri_reduce(buf, n, d, e, scr);
    for (size_t i = 0; i + 1 < n; i++) e2[i] = e[i] * e[i];
    double scale = fabs(gsl_vector_get(sp->eval, 0)) + fabs(gsl_vector_get(sp->eval, n - 1));
    for (size_t k = 0; k < n; k++) {
      double x1, x2;
      lb_symtri_bisect2(d, e2, n, k, n - 1 - k, 1e-14, &x1, &x2);
      assert_true(fabs(x1 - gsl_vector_get(sp->eval, k)) < 1e-12 * scale);
      assert_true(fabs(x2 - gsl_vector_get(sp->eval, n - 1 - k)) < 1e-12 * scale);
      assert_true(fabs(lb_symtri_kth(d, e2, n, k, 1e-14) - gsl_vector_get(sp->eval, k)) < 1e-12 * scale);
    }
    assert_int_equal(lb_symtri_count(d, e2, n, 1e9), n);
    free(buf);
    gsl_matrix_free(a);
    lb_spectrum_free(sp);
  }
  lb_rng_free(r);
}

static void test_ratio_vs_gsl(void **state)
{
  (void)state;
  lb_rng *r;
  assert_int_equal(lb_rng_alloc(11, &r), LB_SUCCESS);
  const char *specs[] = {"mesh:8x8", "random:30:20:4", "star:9", "complete:5"};
  for (int k = 0; k < 4 + 9; k++) {
    lb_topo *t = k < 4 ? topo(specs[k]) : seedgraph(k - 3);
    lb_arrange_ws *ws;
    assert_int_equal(lb_arrange_ws_alloc(t, &ws), LB_SUCCESS);
    double s[64], l2, lP;
    for (int trial = 0; trial < 5; trial++) {
      for (size_t i = 0; i < t->n; i++) s[i] = lb_rng_range(r, 1, 10);
      assert_int_equal(lb_hetero_extremes(t, s, &l2, &lP), LB_SUCCESS);
      assert_close(lb_arrange_ratio(ws, s), lP / l2, 1e-11);
    }
    lb_arrange_ws_free(ws);
    lb_topo_free(t);
  }
  lb_rng_free(r);
}

/* The lane evaluator: every lane against GSL, speeds over six orders of
 * magnitude (p up to ~1e6) and equal speeds (multiple eigenvalues, which Laguerre
 * approaches slowly and lb_symtri_kth finishes); each lane's p does not
 * depend on what the other lanes hold, and lb_arrange_ratio gives the
 * same bits. */
static void test_lanes(void **state)
{
  (void)state;
  lb_rng *r;
  assert_int_equal(lb_rng_alloc(23, &r), LB_SUCCESS);
  const char *specs[] = {"ring:2", "star:5", "torus:4x4", "hypercube:4", "mesh:8x8", "random:12:6:5"};
  enum { W = LB_ARRANGE_LANES };
  for (int k = 0; k < 6; k++) {
    lb_topo *t = topo(specs[k]);
    size_t n = t->n;
    lb_arrange_ws *ws;
    assert_int_equal(lb_arrange_ws_alloc(t, &ws), LB_SUCCESS);
    assert_non_null(ws->lane_a);
    double s[W * 64], s2[W * 64], p[W], p2[W], l2, lP;
    for (int trial = 0; trial < 6; trial++) {
      for (size_t l = 0; l < W; l++)
        for (size_t i = 0; i < n; i++) {
          double x = trial == 0   ? 2.0                          /* all equal */
                     : trial == 1 ? (double)(1 + (i % 2))        /* two values */
                                  : exp(lb_rng_range(r, -7, 7)); /* 1e-3..1e3 */
          s[l * n + i] = x;
        }
      lb_arrange_ratio_lanes(ws, s, p);
      for (size_t l = 0; l < W; l++) {
        assert_int_equal(lb_hetero_extremes(t, s + l * n, &l2, &lP), LB_SUCCESS);
        /* lambda_2 is known to ~eps lambda_P: relative error ~eps p. */
        double ref = lP / l2;
        assert_true(fabs(p[l] - ref) <= (1e-11 + 64 * DBL_EPSILON * ref) * ref);
        /* Alone in every lane: the same bits. */
        for (size_t m = 0; m < W; m++) memcpy(s2 + m * n, s + l * n, n * sizeof *s);
        lb_arrange_ratio_lanes(ws, s2, p2);
        for (size_t m = 0; m < W; m++) assert_true(p2[m] == p[l]);
        assert_true(lb_arrange_ratio(ws, s + l * n) == p[l]);
      }
    }
    lb_arrange_ws_free(ws);
    lb_topo_free(t);
  }
  /* Above LB_ARRANGE_LANES_MAXN nodes the one-at-a-time evaluator. */
  lb_topo *t = topo("ring:80");
  lb_arrange_ws *ws;
  assert_int_equal(lb_arrange_ws_alloc(t, &ws), LB_SUCCESS);
  assert_null(ws->lane_a);
  double s[80];
  for (size_t i = 0; i < 80; i++) s[i] = 3.0;
  assert_close(lb_arrange_ratio(ws, s), 4.0 / (2 - 2 * cos(2 * M_PI / 80.0)), 1e-11);
  lb_arrange_ws_free(ws);
  lb_topo_free(t);
  lb_rng_free(r);
}

static void test_closed_forms(void **state)
{
  (void)state;
  double s[64];
  for (size_t i = 0; i < 64; i++) s[i] = 3.0;
  for (size_t n = 4; n <= 20; n += 8) {
    char spec[32];
    snprintf(spec, sizeof spec, "ring:%zu", n);
    lb_topo *t = topo(spec);
    lb_arrange_ws *ws;
    assert_int_equal(lb_arrange_ws_alloc(t, &ws), LB_SUCCESS);
    assert_close(lb_arrange_ratio(ws, s), 4.0 / (2 - 2 * cos(2 * M_PI / (double)n)), 1e-12);
    lb_arrange_ws_free(ws);
    lb_topo_free(t);
  }
  for (unsigned d = 1; d <= 6; d++) {
    char spec[32];
    snprintf(spec, sizeof spec, "hypercube:%u", d);
    lb_topo *t = topo(spec);
    lb_arrange_ws *ws;
    assert_int_equal(lb_arrange_ws_alloc(t, &ws), LB_SUCCESS);
    assert_close(lb_arrange_ratio(ws, s), (double)d, 1e-12);
    lb_arrange_ws_free(ws);
    lb_topo_free(t);
  }
}

static int next_perm(size_t *a, size_t n)
{
  size_t i = n - 1;
  while (i > 0 && a[i - 1] >= a[i]) i--;
  if (i == 0) return 0;
  size_t j = n - 1;
  while (a[j] <= a[i - 1]) j--;
  size_t t = a[i - 1];
  a[i - 1] = a[j];
  a[j] = t;
  for (size_t l = i, h = n - 1; l < h; l++, h--) {
    t = a[l];
    a[l] = a[h];
    a[h] = t;
  }
  return 1;
}

static double gsl_p(const lb_topo *t, const double *speed, const size_t *arr)
{
  double ns[16], l2, lP;
  for (size_t i = 0; i < t->n; i++) ns[i] = speed[arr[i]];
  assert_int_equal(lb_hetero_extremes(t, ns, &l2, &lP), LB_SUCCESS);
  return lP / l2;
}

/* P = 6 and 7: all arrangements by lexicographic enumeration and GSL. */
static void test_exhaustive_brute(void **state)
{
  (void)state;
  const char *specs[] = {"random:6:3:2", "mesh:2x3", "random:7:4:9"};
  double speed[7] = {1, 4.5, 2, 7, 3.25, 9, 5};
  for (int k = 0; k < 3; k++) {
    lb_topo *t = topo(specs[k]);
    size_t n = t->n, a[7], amin[7], amax[7], bmin[7], bmax[7];
    for (size_t i = 0; i < n; i++) a[i] = i;
    double pmin = INFINITY, pmax = 0, pref = 0;
    size_t cnt = 0;
    do {
      double p = gsl_p(t, speed, a);
      if (cnt == 37) pref = p;
      if (p < pmin) pmin = p;
      if (p > pmax) pmax = p;
      cnt++;
    } while (next_perm(a, n));
    size_t below = 0, above = 0;
    for (size_t i = 0; i < n; i++) a[i] = i;
    do {
      double p = gsl_p(t, speed, a);
      below += p < pref * (1 - 1e-7);
      above += p > pref * (1 + 1e-7);
    } while (next_perm(a, n));
    lb_arrange_stats st, st1;
    assert_int_equal(lb_arrange_exhaustive(t, speed, pref, 0, amin, amax, &st), LB_SUCCESS);
    assert_int_equal(st.n_total, cnt);
    assert_close(st.p_min, pmin, 1e-10);
    assert_close(st.p_max, pmax, 1e-10);
    assert_int_equal(st.n_below, below);
    assert_int_equal(st.n_above, above);
    assert_int_equal(st.n_below + st.n_equal + st.n_above, cnt);
    assert_true(st.n_equal >= 1);
    assert_close(gsl_p(t, speed, amin), pmin, 1e-10);
    assert_close(gsl_p(t, speed, amax), pmax, 1e-10);
    /* One thread or three: the same answer. */
    assert_int_equal(lb_arrange_exhaustive(t, speed, pref, 1, bmin, bmax, &st1), LB_SUCCESS);
    assert_true(st1.p_min == st.p_min && st1.p_max == st.p_max);
    assert_memory_equal(amin, bmin, n * sizeof *amin);
    assert_memory_equal(amax, bmax, n * sizeof *amax);
    assert_int_equal(lb_arrange_exhaustive(t, speed, pref, 3, bmin, bmax, &st1), LB_SUCCESS);
    assert_memory_equal(amin, bmin, n * sizeof *amin);
    assert_int_equal(st1.n_below, st.n_below);
    lb_topo_free(t);
  }
  lb_topo *t = topo("ring:11");
  double s11[11] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
  lb_arrange_stats st;
  assert_int_equal(lb_arrange_exhaustive(t, s11, 1, 0, NULL, NULL, &st), LB_ERANGE);
  lb_topo_free(t);
}

/* The greedy method re-done step by step with GSL. */
static void test_greedy(void **state)
{
  (void)state;
  for (int g = 1; g <= 9; g++) {
    lb_topo *t = seedgraph(g);
    size_t n = t->n, arr[9], evals;
    double speed[9], p;
    for (size_t i = 0; i < n; i++) speed[i] = (double)(i + 1);
    assert_int_equal(lb_arrange_greedy(t, speed, arr, &p, &evals), LB_SUCCESS);
    assert_int_equal(evals, n * (n + 1) / 2);
    assert_int_equal(lb_arrange_check(arr, n), LB_SUCCESS);
    assert_close(gsl_p(t, speed, arr), p, 1e-10);
    /* Second route: speeds 9..1 in turn, each at the free node with the
     * least GSL p, unplaced nodes at 1. */
    double ns[9];
    int placed[9] = {0};
    for (size_t i = 0; i < n; i++) ns[i] = 1;
    for (size_t r = 0; r < n; r++) {
      double s = (double)(n - r), best = INFINITY, l2, lP;
      size_t k = n;
      for (size_t j = 0; j < n; j++) {
        if (placed[j]) continue;
        ns[j] = s;
        assert_int_equal(lb_hetero_extremes(t, ns, &l2, &lP), LB_SUCCESS);
        ns[j] = 1;
        if (k == n || lP / l2 < best * (1 - 1e-9)) {
          best = lP / l2;
          k = j;
        }
      }
      placed[k] = 1;
      ns[k] = s;
      assert_int_equal(arr[k], n - 1 - r);
    }
    lb_topo_free(t);
  }
  /* Scale does not matter: the paper divides by the slowest speed. */
  lb_topo *t = seedgraph(3);
  double s1[9], s2[9], p1, p2;
  size_t a1[9], a2[9];
  for (size_t i = 0; i < 9; i++) {
    s1[i] = 1.0 + (double)((i * 4) % 9);
    s2[i] = 2.5 * s1[i];
  }
  assert_int_equal(lb_arrange_greedy(t, s1, a1, &p1, NULL), LB_SUCCESS);
  assert_int_equal(lb_arrange_greedy(t, s2, a2, &p2, NULL), LB_SUCCESS);
  assert_memory_equal(a1, a2, sizeof a1);
  assert_close(p1, p2, 1e-12);
  s1[4] = -1;
  assert_int_equal(lb_arrange_greedy(t, s1, a1, &p1, NULL), LB_EINVAL);
  lb_topo_free(t);
}

static void test_random_scheme(void **state)
{
  (void)state;
  lb_rng *r;
  assert_int_equal(lb_rng_alloc(3, &r), LB_SUCCESS);
  size_t order[3] = {2, 0, 1}, arr[3], hits[27] = {0};
  for (int i = 0; i < 60000; i++) {
    lb_arrange_random(r, order, 3, arr);
    assert_int_equal(lb_arrange_check(arr, 3), LB_SUCCESS);
    hits[arr[0] * 9 + arr[1] * 3 + arr[2]]++;
  }
  size_t nz = 0;
  for (int i = 0; i < 27; i++)
    if (hits[i]) {
      nz++;
      assert_true(labs((long)hits[i] - 10000) < 500);
    } /* 5 sigma */
  assert_int_equal(nz, 6);
  lb_rng_free(r);
  /* The scheme itself: with m known, the choice is mod(m, P-k). */
  gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(g, 99);
  assert_int_equal(lb_rng_alloc(99, &r), LB_SUCCESS);
  size_t ord[5] = {0, 1, 2, 3, 4}, got[5], list[5] = {0, 1, 2, 3, 4}, len = 5;
  lb_arrange_random(r, ord, 5, got);
  for (size_t k = 0; k < 5; k++) {
    size_t pick = k + 1 < 5 ? gsl_rng_get(g) % len : 0;
    assert_int_equal(got[k], list[pick]);
    memmove(list + pick, list + pick + 1, (len - pick - 1) * sizeof *list);
    len--;
  }
  gsl_rng_free(g);
  lb_rng_free(r);
}

static void test_monte_carlo(void **state)
{
  (void)state;
  lb_topo *t = topo("mesh:4x4");
  double speed[16], pall[3000], pall2[3000];
  for (size_t i = 0; i < 16; i++) speed[i] = 1.0 + (double)((i * 7) % 10);
  size_t amin[16], amax[16], hist[40], hist2[40];
  lb_rng *r;
  lb_arrange_stats st, st2;
  assert_int_equal(lb_rng_alloc(5, &r), LB_SUCCESS);
  assert_int_equal(lb_arrange_monte_carlo(t, speed, 3000, r, 30.0, 2, amin, amax, pall, hist, 40, &st), LB_SUCCESS);
  lb_rng_free(r);
  assert_int_equal(lb_rng_alloc(5, &r), LB_SUCCESS);
  assert_int_equal(lb_arrange_monte_carlo(t, speed, 3000, r, 30.0, 1, NULL, NULL, pall2, hist2, 40, &st2), LB_SUCCESS);
  lb_rng_free(r);
  assert_memory_equal(pall, pall2, sizeof pall);
  assert_memory_equal(hist, hist2, sizeof hist);
  size_t hs = 0, below = 0;
  double mn = INFINITY, mx = 0;
  for (int i = 0; i < 40; i++) hs += hist[i];
  assert_int_equal(hs, 3000);
  for (int i = 0; i < 3000; i++) {
    mn = fmin(mn, pall[i]);
    mx = fmax(mx, pall[i]);
    below += pall[i] < 30.0 * (1 - 1e-9);
  }
  assert_true(mn == st.p_min && mx == st.p_max);
  assert_int_equal(st.n_below, below);
  assert_int_equal(st.n_total, 3000);
  assert_close(gsl_p(t, speed, amin), st.p_min, 1e-10);
  assert_close(gsl_p(t, speed, amax), st.p_max, 1e-10);
  /* The histogram bin of the minimum holds it: (k, k+1] */
  size_t k = (size_t)ceil(st.p_min) - 1;
  assert_true(k < 39 && hist[k] >= 1);
  for (size_t i = 0; i < k; i++) assert_int_equal(hist[i], 0);
  lb_arrange_stats fake = {.p_min = 2, .p_max = 12, .n_below = 3, .n_above = 6};
  assert_close(lb_arrange_pr(&fake, 4.5), 0.25, 1e-15);
  assert_close(lb_arrange_pct(&fake), 0.3, 1e-15);
  lb_topo_free(t);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_symtri_vs_gsl), cmocka_unit_test(test_ratio_vs_gsl),     cmocka_unit_test(test_lanes),
      cmocka_unit_test(test_closed_forms),  cmocka_unit_test(test_exhaustive_brute), cmocka_unit_test(test_greedy),
      cmocka_unit_test(test_random_scheme), cmocka_unit_test(test_monte_carlo),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
