/* Divisible-load sharing (seed 004): the worked example, window edge
 * cases, a direct root-find of x(t) = lambda, baselines, bad input. */
#include "testutil.h"
#include "lb_errno.h"
#include "lb_rng.h"
#include "lb_share.h"

/* Seed 004 section 4.1: T1=[0,inf) T2=[2,6] T3=[9,11] T4=[4,8]
 * T5=[12,16]u[18,inf), speeds 1,2,3,1,1, lambda = 25. */
static const lb_share_window w1[] = {{0, INFINITY}}, w2[] = {{2, 6}}, w3[] = {{9, 11}}, w4[] = {{4, 8}},
                             w5[] = {{12, 16}, {18, INFINITY}};
static const lb_share_proc ex[5] = {{1, 1, w1}, {2, 1, w2}, {3, 1, w3}, {1, 1, w4}, {1, 2, w5}};

static void test_worked_example(void **state)
{
  (void)state;
  double ts, sh[5], busy[5];
  assert_int_equal(lb_share_opt(5, ex, 0, 25, &ts, sh, busy), LB_SUCCESS);
  assert_close(ts, 10, 1e-12);
  const double want[5] = {10, 8, 3, 4, 0}, wb[5] = {10, 4, 1, 4, 0};
  for (int i = 0; i < 5; i++) {
    assert_close(sh[i], want[i], 1e-12);
    assert_close(busy[i], wb[i], 1e-12);
  }
  /* The curve's knots by hand: rates 1,3,4,2,1,4,1 from t = 0,2,4,6,8,9,11. */
  lb_share_curve *cv;
  assert_int_equal(lb_share_curve_build(5, ex, 0, &cv), LB_SUCCESS);
  const double c[] = {0, 2, 4, 6, 8, 9, 11, 12, 16, 18}, x[] = {0, 2, 8, 16, 20, 21, 29, 30, 38, 40},
               r[] = {1, 3, 4, 2, 1, 4, 1, 2, 1, 2};
  assert_int_equal(cv->nc, 10);
  for (int m = 0; m < 10; m++) {
    assert_close(cv->c[m], c[m], 0);
    assert_close(cv->x[m], x[m], 1e-12);
    assert_close(cv->r[m], r[m], 1e-12);
  }
  assert_close(lb_share_curve_eval(cv, 10), 25, 1e-12);
  lb_share_curve_free(cv);
}

static void test_edge_cases(void **state)
{
  (void)state;
  double ts, sh[5];
  /* t* on a window end (T4 closes at 8): x(8) = 20. */
  assert_int_equal(lb_share_opt(5, ex, 0, 20, &ts, sh, NULL), LB_SUCCESS);
  assert_close(ts, 8, 1e-12);
  assert_close(sh[3], 4, 1e-12);
  assert_close(sh[2], 0, 0);
  /* t* on a window start (T3 opens at 9): p3 is not selected. */
  assert_int_equal(lb_share_opt(5, ex, 0, 21, &ts, sh, NULL), LB_SUCCESS);
  assert_close(ts, 9, 1e-12);
  assert_close(sh[0] + sh[1] + sh[3], 21, 1e-12);
  assert_close(sh[2], 0, 0);
  /* p5's first window starts at 12 > t* = 10: share 0 (worked example)
   * but a larger job reaches it: x(16) = 38 and the rate is 1 after
   * 16, so lambda = 39 gives t* = 17. */
  assert_int_equal(lb_share_opt(5, ex, 0, 39, &ts, sh, NULL), LB_SUCCESS);
  assert_close(ts, 17, 1e-12);
  assert_close(sh[4], 4, 1e-12);
  /* Coincident window ends: two windows closing at 6 drop the rate by
   * both speeds at once (rate 1+2+5 on [4,6], then 1). */
  const lb_share_window a[] = {{0, INFINITY}}, b[] = {{2, 6}}, c[] = {{4, 6}};
  const lb_share_proc q[3] = {{1, 1, a}, {2, 1, b}, {5, 1, c}};
  lb_share_curve *cv;
  assert_int_equal(lb_share_curve_build(3, q, 0, &cv), LB_SUCCESS);
  assert_int_equal(cv->nc, 4);
  assert_close(cv->r[2], 8, 1e-12);
  assert_close(cv->r[3], 1, 1e-12);
  assert_close(cv->x[3], 2 + 6 + 16, 1e-12);
  lb_share_curve_free(cv);
  assert_int_equal(lb_share_opt(3, q, 0, 26, &ts, sh, NULL), LB_SUCCESS);
  assert_close(ts, 8, 1e-12);
  /* Windows that touch ([2,4] then [4,6]) are one stretch of work. */
  const lb_share_window d[] = {{2, 4}, {4, 6}};
  const lb_share_proc q2[2] = {{1, 1, a}, {2, 2, d}};
  assert_int_equal(lb_share_opt(2, q2, 0, 11, &ts, sh, NULL), LB_SUCCESS);
  assert_close(ts, 5, 1e-12);
}

/* x(t) summed window by window, independent of the knot recursion. */
static double x_direct(size_t n, const lb_share_proc *p, double t)
{
  double s = 0;
  for (size_t i = 0; i < n; i++)
    for (size_t k = 0; k < p[i].nwin; k++)
      if (p[i].win[k].a < t) s += p[i].speed * (fmin(p[i].win[k].b, t) - p[i].win[k].a);
  return s;
}

static void test_random_vs_rootfind(void **state)
{
  (void)state;
  lb_rng *r;
  assert_int_equal(lb_rng_alloc(4, &r), LB_SUCCESS);
  enum { NP = 8, NW = 4 };
  lb_share_window w[NP][NW];
  lb_share_proc p[NP];
  for (int it = 0; it < 300; it++) {
    size_t n = 1 + lb_rng_below(r, NP);
    for (size_t i = 0; i < n; i++) {
      double t = lb_rng_range(r, 0, 5);
      size_t nw = 1 + lb_rng_below(r, NW);
      for (size_t k = 0; k < nw; k++) {
        /* integer times half the time, so knots often coincide */
        double len = it % 2 ? lb_rng_range(r, 0.1, 6) : (double)(1 + lb_rng_below(r, 4));
        if (it % 2 == 0) t = floor(t);
        w[i][k].a = t;
        w[i][k].b = (k + 1 == nw && lb_rng_below(r, 2)) ? INFINITY : t + len;
        t = w[i][k].b + (it % 2 ? lb_rng_range(r, 0, 3) : (double)lb_rng_below(r, 3));
      }
      p[i] = (lb_share_proc){it % 2 ? lb_rng_range(r, 0.2, 5) : (double)(1 + lb_rng_below(r, 4)), nw, w[i]};
    }
    double cap = x_direct(n, p, 1e9), lambda = lb_rng_range(r, 0.01, fmin(cap, 80));
    double ts, sh[NP];
    assert_int_equal(lb_share_opt(n, p, 0, lambda, &ts, sh, NULL), LB_SUCCESS);
    /* bisection for the smallest t with x(t) >= lambda */
    double lo = 0, hi = 1e9;
    for (int k = 0; k < 200; k++) {
      double mid = 0.5 * (lo + hi);
      if (x_direct(n, p, mid) >= lambda) hi = mid;
      else lo = mid;
    }
    assert_close(ts, hi, 1e-9);
    double tot = 0;
    for (size_t i = 0; i < n; i++) tot += sh[i];
    assert_close(tot, lambda, 1e-9); /* Theorem 1 */
    /* neither baseline can beat the optimum */
    double tb, tbal;
    size_t who;
    if (lb_share_bidding(n, p, 0, lambda, &tb, &who) == LB_SUCCESS) assert_true(tb >= ts - 1e-9);
    assert_int_equal(lb_share_balance(n, p, 0, lambda, &tbal, NULL), LB_SUCCESS);
    assert_true(tbal >= ts - 1e-9);
  }
  lb_rng_free(r);
}

static void test_baselines(void **state)
{
  (void)state;
  double t, sh[5];
  size_t who;
  /* bidding: only p1 is available at 0, so it does all 25 units alone */
  assert_int_equal(lb_share_bidding(5, ex, 0, 25, &t, &who), LB_SUCCESS);
  assert_int_equal(who, 0);
  assert_close(t, 25, 1e-12);
  /* balance: shares 25*s/8 = 3.125, 6.25, 9.375, 3.125, 3.125; p3 has
   * only 3 units of room in [9,11] and never finishes. */
  assert_int_equal(lb_share_balance(5, ex, 0, 25, &t, sh), LB_SUCCESS);
  assert_close(sh[2], 9.375, 1e-12);
  assert_true(isinf(t));
  /* all processors always available: balance is optimal */
  const lb_share_window a[] = {{0, INFINITY}};
  const lb_share_proc q[3] = {{1, 1, a}, {2, 1, a}, {1.8, 1, a}};
  double ts;
  assert_int_equal(lb_share_balance(3, q, 0, 48, &t, sh), LB_SUCCESS);
  assert_int_equal(lb_share_opt(3, q, 0, 48, &ts, NULL, NULL), LB_SUCCESS);
  assert_close(t, 10, 1e-12);
  assert_close(ts, 10, 1e-12);
  assert_int_equal(lb_share_bidding(3, q, 0, 48, &t, &who), LB_SUCCESS);
  assert_int_equal(who, 1);
  assert_close(t, 24, 1e-12);
}

/* Largest remainder: a known answer (the seed 004 machines, 600 rows),
 * then random shares against the method's defining properties: the
 * counts sum to the total, each is its quota rounded down or up, and
 * every rounded-up count has a remainder no smaller than any that was
 * rounded down. */
static void test_apportion(void **state)
{
  (void)state;
  const double m[6] = {1, 1, 1, 1, 2, 1.8};
  unsigned long c[16];
  assert_int_equal(lb_share_apportion(6, m, 600, c), LB_SUCCESS);
  const unsigned long want[6] = {77, 77, 77, 77, 154, 138};
  for (int i = 0; i < 6; i++) assert_int_equal(c[i], want[i]);
  unsigned long long x = 88172645463325252ull;
  for (int trial = 0; trial < 2000; trial++) {
    size_t n = 1 + trial % 16;
    double s[16], sum = 0;
    for (size_t i = 0; i < n; i++) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      s[i] = (double)(x % 1000) / 100.0 * (trial % 3 ? 1 : (double)(i % 2)); /* some zeros */
      sum += s[i];
    }
    if (!(sum > 0)) {
      s[0] = 1;
      sum = 1;
    }
    unsigned long total = (unsigned long)(x % 5000);
    assert_int_equal(lb_share_apportion(n, s, total, c), LB_SUCCESS);
    unsigned long got = 0;
    double up_min = 2, down_max = -1;
    for (size_t i = 0; i < n; i++) {
      double q = (double)total * s[i] / sum, f = floor(q);
      got += c[i];
      assert_true((double)c[i] == f || (double)c[i] == f + 1);
      if ((double)c[i] == f + 1 && q - f < up_min) up_min = q - f;
      if ((double)c[i] == f && q - f > down_max) down_max = q - f;
    }
    assert_int_equal(got, total);
    assert_true(up_min >= down_max - 1e-9);
  }
  const double neg[2] = {1, -1}, zero[2] = {0, 0};
  assert_int_equal(lb_share_apportion(2, neg, 10, c), LB_EINVAL);
  assert_int_equal(lb_share_apportion(2, zero, 10, c), LB_EINVAL);
}

static void test_bad_input(void **state)
{
  (void)state;
  double ts;
  const lb_share_window rev[] = {{5, 3}}, ovl[] = {{0, 4}, {3, 6}}, ok[] = {{0, 4}};
  const lb_share_proc r1[1] = {{1, 1, rev}}, o1[1] = {{1, 2, ovl}}, s0[1] = {{0, 1, ok}}, sn[1] = {{-2, 1, ok}},
                      good[1] = {{1, 1, ok}};
  assert_int_equal(lb_share_opt(1, r1, 0, 1, &ts, NULL, NULL), LB_EINVAL);
  assert_non_null(strstr(lb_errmsg(), "reversed"));
  assert_int_equal(lb_share_opt(1, o1, 0, 1, &ts, NULL, NULL), LB_EINVAL);
  assert_non_null(strstr(lb_errmsg(), "overlap"));
  assert_int_equal(lb_share_opt(1, s0, 0, 1, &ts, NULL, NULL), LB_EINVAL);
  assert_non_null(strstr(lb_errmsg(), "speed 0"));
  assert_int_equal(lb_share_opt(1, sn, 0, 1, &ts, NULL, NULL), LB_EINVAL);
  assert_int_equal(lb_share_opt(1, good, 0, 0, &ts, NULL, NULL), LB_EINVAL);
  assert_non_null(strstr(lb_errmsg(), "lambda"));
  assert_int_equal(lb_share_opt(1, good, 0, -3, &ts, NULL, NULL), LB_EINVAL);
  assert_int_equal(lb_share_opt(1, good, 1, 1, &ts, NULL, NULL), LB_EINVAL);
  assert_non_null(strstr(lb_errmsg(), "before t0"));
  assert_int_equal(lb_share_opt(1, good, 0, 5, &ts, NULL, NULL), LB_ERANGE);
  assert_non_null(strstr(lb_errmsg(), "only 4"));
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_worked_example),     cmocka_unit_test(test_edge_cases),
      cmocka_unit_test(test_random_vs_rootfind), cmocka_unit_test(test_baselines),
      cmocka_unit_test(test_apportion),          cmocka_unit_test(test_bad_input),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
