/* Load index, balance metrics and the random source. */
#include "testutil.h"
#include "lb_load.h"
#include "lb_metrics.h"
#include "lb_rng.h"
#include "lb_errno.h"

static void test_threshold_rounding(void **state)
{
  (void)state;
  assert_close(lb_load_threshold(10, 10), 1, 0);
  assert_close(lb_load_threshold(4, 10), 0.4, 1e-15); /* 10 % of C, as it is */
  assert_close(lb_load_threshold(25, 10), 2.5, 1e-15);
  assert_close(lb_load_threshold(0, 10), 0, 0);
  assert_close(lb_load_threshold(10, 0), 0, 0);
  /* the option: rounded up to a whole process */
  assert_close(lb_load_threshold_ceil(4, 10), 1, 0);
  assert_close(lb_load_threshold_ceil(25, 10), 3, 0);
  assert_close(lb_load_threshold_ceil(30, 10), 3, 0); /* exact stays */
}

/* Every q in 0..39: a heavy node sends EPN and a light one takes IPN,
 * and both end normal, at most C + A. */
static void band_ends_normal(int C, double A)
{
  for (long q = 0; q < 40; q++) {
    lb_state s = lb_load_state(q, C, A);
    if (s == LB_HEAVY) {
      long r = q - lb_load_epn(q, C, A);
      assert_int_equal(lb_load_state(r, C, A), LB_NORMAL);
      assert_true(r <= C + A);
    }
    if (s == LB_LIGHT) {
      long r = q + lb_load_ipn(q, C, A);
      assert_int_equal(lb_load_state(r, C, A), LB_NORMAL);
      assert_true(r <= C + A && lb_load_ipn(q, C, A) > 0);
    }
  }
}

static void test_bands(void **state)
{
  (void)state;
  int C = 10;
  double A = lb_load_threshold(C, 10); /* band [9, 11] */
  assert_int_equal(lb_load_state(12, C, A), LB_HEAVY);
  assert_int_equal(lb_load_epn(12, C, A), 1);
  assert_int_equal(lb_load_state(11, C, A), LB_NORMAL);
  assert_int_equal(lb_load_epn(11, C, A), 0);
  assert_int_equal(lb_load_state(9, C, A), LB_NORMAL);
  assert_int_equal(lb_load_ipn(9, C, A), 0);
  assert_int_equal(lb_load_state(8, C, A), LB_LIGHT);
  assert_int_equal(lb_load_ipn(8, C, A), 3); /* fills up to C + A */
  assert_int_equal(lb_load_ipn(0, C, A), 11);
  assert_int_equal(lb_load_epn(30, C, A), 19);
  assert_string_equal(lb_load_state_name(LB_LIGHT), "light");
  band_ends_normal(C, A);
  /* C = 4, A = 0.4: the band [3.6, 4.4] holds 4 alone; EPN and IPN
   * bring a node to exactly C (rounded not to overshoot C + A). */
  C = 4;
  A = lb_load_threshold(C, 10);
  assert_int_equal(lb_load_state(5, C, A), LB_HEAVY);
  assert_int_equal(lb_load_epn(5, C, A), 1);
  assert_int_equal(lb_load_epn(11, C, A), 7);
  assert_int_equal(lb_load_state(3, C, A), LB_LIGHT);
  assert_int_equal(lb_load_ipn(3, C, A), 1);
  assert_int_equal(lb_load_ipn(0, C, A), 4);
  band_ends_normal(C, A);
  for (C = 1; C < 30; C++) {
    band_ends_normal(C, lb_load_threshold(C, 10));
    band_ends_normal(C, lb_load_threshold_ceil(C, 10));
  }
}

static void test_metrics_hand(void **state)
{
  (void)state;
  double l[4] = {3, 5, 7, 5};
  assert_close(lb_metric_m1(l, 4), 4.0, 0);
  assert_close(lb_metric_m3(l, 4), 7.0, 0);
  /* sum (l-5)^2 = 8; sqrt(8/3)/7 */
  assert_close(lb_metric_m2(l, 4), sqrt(8.0 / 3.0) / 7.0, 1e-15);
  double flat[3] = {2, 2, 2};
  assert_close(lb_metric_m1(flat, 3), 0, 0);
  assert_close(lb_metric_m2(flat, 3), 0, 0);
  /* Seed 003 worked example after T: nine at 100 and one at 97. */
  double t[10] = {100, 100, 100, 100, 100, 100, 100, 100, 100, 97};
  assert_close(lb_metric_m1(t, 10), 3, 0);
  assert_close(lb_metric_m3(t, 10), 100, 0);
  size_t before[5] = {0, 0, 1, 2, 2}, after[5] = {0, 1, 1, 0, 2};
  assert_int_equal(lb_metric_q(before, after, 5), 2);
}

/* Q counted per task equals the set form (1/2) sum |C\C'| + |C'\C|. */
static void test_q_set_form(void **state)
{
  (void)state;
  lb_rng *r;
  assert_int_equal(lb_rng_alloc(5, &r), 0);
  size_t a[500], b[500];
  for (int rep = 0; rep < 20; rep++) {
    for (size_t t = 0; t < 500; t++) {
      a[t] = lb_rng_below(r, 7);
      b[t] = lb_rng_uniform(r) < 0.3 ? lb_rng_below(r, 7) : a[t];
    }
    size_t twice = 0;
    for (size_t k = 0; k < 7; k++)
      for (size_t t = 0; t < 500; t++) twice += (a[t] == k && b[t] != k) + (b[t] == k && a[t] != k);
    assert_int_equal(2 * lb_metric_q(a, b, 500), twice);
  }
  lb_rng_free(r);
}

/* a and b from one (seed, stream) give the same draws, c another; the
 * mean of 10^5 uniforms is within 0.01 of 1/2. */
static void check_streams(lb_rng *a, lb_rng *b, lb_rng *c)
{
  int same = 1, differ = 0;
  double mean = 0;
  for (int i = 0; i < 100000; i++) {
    double x = lb_rng_uniform(a), y = lb_rng_uniform(b), z = lb_rng_uniform(c);
    same &= x == y;
    differ |= x != z;
    mean += x;
  }
  assert_true(same);
  assert_true(differ);
  assert_close(mean / 100000, 0.5, 0.01);
}

static void test_rng(void **state)
{
  (void)state;
  lb_rng *a, *b, *c;
  assert_int_equal(lb_rng_alloc(42, &a), 0);
  assert_int_equal(lb_rng_alloc(42, &b), 0);
  assert_int_equal(lb_rng_alloc_stream(42, 1, &c), 0);
  check_streams(a, b, c);
  size_t p[50], seen[50] = {0};
  for (size_t i = 0; i < 50; i++) p[i] = i;
  lb_rng_shuffle(a, p, 50);
  for (size_t i = 0; i < 50; i++) seen[p[i]]++;
  for (size_t i = 0; i < 50; i++) assert_int_equal(seen[i], 1);
  assert_int_equal(lb_rng_below(a, 0), 0);
  for (int i = 0; i < 1000; i++) {
    double v = lb_rng_range(a, 1.0, 10.0);
    assert_true(v >= 1.0 && v < 10.0);
  }
  lb_rng_free(a);
  lb_rng_free(b);
  lb_rng_free(c);
}

/* The small kind: xoshiro256** (the reference's first outputs from the
 * state {1, 2, 3, 4}), repeatable per (seed, stream), streams distinct,
 * uniform enough, and lb_rng_below unbiased up to the largest n. */
static void test_rng_small(void **state)
{
  (void)state;
  lb_rng a, b, c;
  lb_rng_init_small(&a, 7, 3);
  for (int k = 0; k < 4; k++) a.s[k] = (uint64_t)k + 1;
  const uint64_t ref[3] = {11520, 0, 1509978240};
  for (int k = 0; k < 3; k++) assert_true(lb_rng_uniform(&a) == (double)(ref[k] >> 11) * 0x1.0p-53);
  lb_rng_init_small(&a, 42, 5);
  lb_rng_init_small(&b, 42, 5);
  lb_rng_init_small(&c, 42, 6);
  assert_null(a.g);
  check_streams(&a, &b, &c);
  unsigned long count[7] = {0};
  for (int i = 0; i < 70000; i++) count[lb_rng_below(&a, 7)]++;
  for (int k = 0; k < 7; k++) assert_true(count[k] > 9500 && count[k] < 10500);
  unsigned long big = (1ul << 63) + 1, high = 0;
  for (int i = 0; i < 1000; i++) {
    unsigned long v = lb_rng_below(&a, big);
    assert_true(v < big);
    high += v >= big / 2;
  }
  assert_true(high > 400 && high < 600);
  assert_int_equal(lb_rng_below(&a, 0), 0);
  assert_int_equal(lb_rng_below(&a, 1), 0);
  size_t p[50], seen[50] = {0};
  for (size_t i = 0; i < 50; i++) p[i] = i;
  lb_rng_shuffle(&a, p, 50);
  for (size_t i = 0; i < 50; i++) seen[p[i]]++;
  for (size_t i = 0; i < 50; i++) assert_int_equal(seen[i], 1);
}

static void test_errors(void **state)
{
  (void)state;
  assert_int_equal(lb_error(LB_EINVAL, "speed %g <= 0", -1.0), LB_EINVAL);
  assert_string_equal(lb_errmsg(), "speed -1 <= 0");
  lb_error_wrap(LB_EINVAL, "node %d", 3);
  assert_string_equal(lb_errmsg(), "node 3: speed -1 <= 0");
  assert_string_equal(lb_strerror(LB_ETOPO), "invalid topology");
  lb_error_clear();
  assert_string_equal(lb_errmsg(), "");
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_threshold_rounding),
      cmocka_unit_test(test_bands),
      cmocka_unit_test(test_metrics_hand),
      cmocka_unit_test(test_q_set_form),
      cmocka_unit_test(test_rng),
      cmocka_unit_test(test_rng_small),
      cmocka_unit_test(test_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
