/* The hosts' leases (lb_lease.h): expiry, fencing for good, progress
 * and stalls; and a random run of events against a plain model. */
#include "testutil.h"
#include "lb_lease.h"
#include "lb_rng.h"
#include "lb_errno.h"

static void test_bad_input(void **state)
{
  (void)state;
  lb_lease *l;
  assert_int_equal(lb_lease_alloc(0, 2, 10, &l), LB_EINVAL);
  assert_int_equal(lb_lease_alloc(3, 0, 10, &l), LB_EINVAL);
  assert_int_equal(lb_lease_alloc(3, NAN, 10, &l), LB_EINVAL);
  assert_int_equal(lb_lease_alloc(3, INFINITY, 10, &l), LB_EINVAL);
  assert_int_equal(lb_lease_alloc(3, 2, 0, &l), LB_EINVAL);
  assert_int_equal(lb_lease_alloc(3, 2, INFINITY, &l), LB_SUCCESS);
  assert_int_equal(lb_lease_start(l, 3, 0), LB_EINVAL);
  assert_int_equal(lb_lease_renew(l, 7, 1, 1, 0), LB_EINVAL);
  assert_int_equal(lb_lease_fence(l, 3), LB_EINVAL);
  assert_false(lb_lease_is_fenced(l, 3));
  lb_lease_free(l);
}

/* A lease runs out strictly after `duration` without a renewal; each
 * renewal moves its end; an expired host is reported once. */
static void test_expiry(void **state)
{
  (void)state;
  lb_lease *l;
  assert_int_equal(lb_lease_alloc(3, 2.0, INFINITY, &l), LB_SUCCESS);
  /* Not started: no deadline, never expires. */
  assert_true(isinf(lb_lease_next_deadline(l)));
  size_t e[3], ne, s[3], ns;
  assert_int_equal(lb_lease_tick(l, 100, e, 3, &ne, s, 3, &ns), LB_SUCCESS);
  assert_int_equal(ne, 0);
  for (size_t h = 0; h < 3; h++) assert_int_equal(lb_lease_start(l, h, 10), LB_SUCCESS);
  assert_close(lb_lease_deadline(l, 1), 12, 1e-12);
  assert_int_equal(lb_lease_renew(l, 0, 1, 4, 11.5), LB_SUCCESS);
  assert_int_equal(lb_lease_touch(l, 2, 11.0), LB_SUCCESS);
  assert_close(lb_lease_next_deadline(l), 12, 1e-12); /* host 1's */
  lb_lease_tick(l, 12.0, e, 3, &ne, s, 3, &ns);
  assert_int_equal(ne, 0); /* exactly 2 s: still held */
  lb_lease_tick(l, 12.0001, e, 3, &ne, s, 3, &ns);
  assert_int_equal(ne, 1);
  assert_int_equal(e[0], 1);
  assert_true(lb_lease_is_fenced(l, 1));
  assert_true(isinf(lb_lease_deadline(l, 1)));
  assert_close(lb_lease_next_deadline(l), 13, 1e-12); /* host 2's */
  /* Reported once. */
  lb_lease_tick(l, 12.5, e, 3, &ne, s, 3, &ns);
  assert_int_equal(ne, 0);
  /* Two at once, and a list too short for them still fences both. */
  lb_lease_tick(l, 20, e, 1, &ne, s, 3, &ns);
  assert_int_equal(ne, 2);
  assert_int_equal(e[0], 0);
  assert_true(lb_lease_is_fenced(l, 0) && lb_lease_is_fenced(l, 2));
  assert_int_equal(lb_lease_fenced(l), 3);
  assert_int_equal(lb_lease_expired(l), 3);
  assert_true(isinf(lb_lease_next_deadline(l)));
  lb_lease_free(l);
}

/* Fenced is for good: a host that comes back renews in vain, and a
 * start does not bring it back. */
static void test_fenced_for_good(void **state)
{
  (void)state;
  lb_lease *l;
  assert_int_equal(lb_lease_alloc(2, 1.0, INFINITY, &l), LB_SUCCESS);
  lb_lease_start(l, 0, 0);
  lb_lease_start(l, 1, 0);
  assert_int_equal(lb_lease_fence(l, 1), LB_SUCCESS); /* its exit was noticed */
  assert_int_equal(lb_lease_fence(l, 1), LB_SUCCESS);
  assert_int_equal(lb_lease_fenced(l), 1);
  assert_int_equal(lb_lease_expired(l), 0);
  assert_int_equal(lb_lease_renew(l, 1, 5, 1, 0.5), LB_ESTATE);
  assert_int_equal(lb_lease_touch(l, 1, 0.5), LB_ESTATE);
  assert_int_equal(lb_lease_start(l, 1, 0.5), LB_ESTATE);
  assert_int_equal(lb_lease_progress(l, 1), 0); /* nothing it said counted */
  size_t e[2], ne;
  lb_lease_tick(l, 5, e, 2, &ne, NULL, 0, NULL);
  assert_int_equal(ne, 1); /* host 0 only */
  assert_int_equal(e[0], 0);
  assert_int_equal(lb_lease_renew(l, 0, 1, 0, 5.1), LB_ESTATE);
  lb_lease_free(l);
}

/* Progress: a counter that only grows; the last progress anywhere; a
 * host holding work with no progress for `stall` is stalled, reported
 * once until it moves again; an idle host is never stalled. */
static void test_progress_and_stall(void **state)
{
  (void)state;
  lb_lease *l;
  assert_int_equal(lb_lease_alloc(3, 2.0, 10.0, &l), LB_SUCCESS);
  assert_true(isinf(lb_lease_progress_at(l)) && lb_lease_progress_at(l) < 0);
  for (size_t h = 0; h < 3; h++) lb_lease_start(l, h, 0);
  assert_close(lb_lease_progress_at(l), 0, 1e-12);
  size_t s[3], ns, e[3], ne;
  for (double t = 0.5; t <= 30; t += 0.5) {
    /* Host 0 moves all the time, host 1 until 5 and again from 20,
     * host 2 holds nothing. */
    uint64_t p1 = t <= 5 ? (uint64_t)(t * 2) : t < 20 ? 10 : (uint64_t)(t * 2);
    assert_int_equal(lb_lease_renew(l, 0, (uint64_t)(t * 4), 3, t), LB_SUCCESS);
    assert_int_equal(lb_lease_renew(l, 1, p1, 2, t), LB_SUCCESS);
    assert_int_equal(lb_lease_renew(l, 2, 0, 0, t), LB_SUCCESS);
    lb_lease_tick(l, t, e, 3, &ne, s, 3, &ns);
    assert_int_equal(ne, 0);
    if (t == 15.0) {
      assert_int_equal(ns, 1); /* 10 s after its last progress, at 5 */
      assert_int_equal(s[0], 1);
    } else {
      assert_int_equal(ns, 0);
    }
    size_t lv = lb_lease_stalled(l, t, s, 3);
    assert_int_equal(lv, t >= 15 && t < 20 ? 1 : 0);
    assert_close(lb_lease_progress_at(l), t, 1e-12); /* host 0 */
  }
  assert_close(lb_lease_host_progress_at(l, 1), 30, 1e-12);
  /* A smaller counter does not undo progress, nor count as it. */
  assert_int_equal(lb_lease_renew(l, 1, 3, 2, 31), LB_SUCCESS);
  assert_int_equal(lb_lease_progress(l, 1), 60);
  assert_close(lb_lease_host_progress_at(l, 1), 30, 1e-12);
  assert_close(lb_lease_renewed_at(l, 1), 31, 1e-12);
  assert_int_equal(lb_lease_held(l, 1), 2);
  lb_lease_free(l);
}

/* Random events against a plain model: a host is fenced exactly when
 * a tick finds its last renewal (or start) more than `duration` ago, or
 * the driver fenced it; fenced hosts take nothing. */
static void test_random_against_model(void **state)
{
  (void)state;
  enum { N = 7 };
  lb_rng *r;
  assert_int_equal(lb_rng_alloc(2024, &r), LB_SUCCESS);
  for (int run = 0; run < 200; run++) {
    lb_lease *l;
    double dur = 0.5 + lb_rng_uniform(r) * 3;
    assert_int_equal(lb_lease_alloc(N, dur, 5, &l), LB_SUCCESS);
    double last[N];
    int started[N] = {0}, fenced[N] = {0};
    double t = 0;
    for (int step = 0; step < 400; step++) {
      t += lb_rng_uniform(r) * 0.4;
      size_t h = lb_rng_below(r, N);
      unsigned long what = lb_rng_below(r, 10);
      if (what < 5) {
        int rc = lb_lease_renew(l, h, (uint64_t)step, 1, t);
        assert_int_equal(rc, fenced[h] ? LB_ESTATE : LB_SUCCESS);
        if (!fenced[h]) {
          last[h] = t;
          started[h] = 1;
        }
      } else if (what < 6) {
        assert_int_equal(lb_lease_fence(l, h), LB_SUCCESS);
        fenced[h] = 1;
      } else {
        size_t e[N], ne;
        assert_int_equal(lb_lease_tick(l, t, e, N, &ne, NULL, 0, NULL), LB_SUCCESS);
        size_t k = 0;
        for (size_t i = 0; i < N; i++) {
          int want = started[i] && !fenced[i] && t - last[i] > dur;
          if (want) {
            assert_true(k < ne);
            assert_int_equal(e[k], i);
            k++;
            fenced[i] = 1;
          }
          assert_int_equal(lb_lease_is_fenced(l, i), fenced[i]);
        }
        assert_int_equal(k, ne);
      }
    }
    lb_lease_free(l);
  }
  lb_rng_free(r);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_bad_input),
      cmocka_unit_test(test_expiry),
      cmocka_unit_test(test_fenced_for_good),
      cmocka_unit_test(test_progress_and_stall),
      cmocka_unit_test(test_random_against_model),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
