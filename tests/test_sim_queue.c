/* The simulator's event queue (sim/sim_queue.h) gives events in exactly
 * the order of one heap by (time, timers last, insertion number),
 * whatever its buckets: near and far events, ties, times past the last
 * bucket, and pushes between pops as a run makes them. */
#include "testutil.h"
#include "sim_queue.h"
#include "lb_rng.h"
#include "lb_errno.h"

/* Runs a random schedule through a queue of nb buckets of width w and
 * through one heap, popping both in turn; they must agree event by
 * event. */
static void agree(double w, size_t nb, unsigned long seed)
{
  sim_queue q, ref;
  lb_rng *r;
  assert_int_equal(sim_queue_init(&q, w, nb), 0);
  assert_int_equal(sim_queue_init(&ref, 1, 0), 0);
  assert_int_equal(lb_rng_alloc(seed, &r), 0);
  double now = 0;
  size_t popped = 0;
  for (int step = 0; step < 20000; step++) {
    int pushes = (int)lb_rng_below(r, 3);
    for (int k = 0; k < pushes; k++) {
      double u = lb_rng_uniform(r), t;
      if (u < 0.3) t = now + (double)lb_rng_below(r, 3);    /* ties on whole times */
      else if (u < 0.8) t = now + 2 * lb_rng_uniform(r);    /* near */
      else if (u < 0.95) t = now + 500 * lb_rng_uniform(r); /* far */
      else if (u < 0.98) t = now;                           /* now */
      else t = 1e20 + (double)lb_rng_below(r, 4);           /* past every bucket */
      sim_ev e = {
          .t = t, .kind = lb_rng_below(r, 2) ? SIM_EV_TIMER : SIM_EV_QEND, .node = (uint32_t)lb_rng_below(r, 100)};
      assert_int_equal(sim_queue_push(&q, e), 0);
      assert_int_equal(sim_queue_push(&ref, e), 0);
    }
    if (lb_rng_uniform(r) < 0.5) {
      sim_ev a, b;
      int ha, hb;
      assert_int_equal(sim_queue_pop(&q, &a, &ha), 0);
      assert_int_equal(sim_queue_pop(&ref, &b, &hb), 0);
      assert_int_equal(ha, hb);
      if (!ha) continue;
      assert_true(a.t == b.t);
      assert_int_equal(a.seq, b.seq);
      assert_int_equal(a.node, b.node);
      assert_true(a.t >= now);
      if (a.t < 1e19) now = a.t;
      popped++;
    }
  }
  for (;;) { /* drain */
    sim_ev a, b;
    int ha, hb;
    assert_int_equal(sim_queue_pop(&q, &a, &ha), 0);
    assert_int_equal(sim_queue_pop(&ref, &b, &hb), 0);
    assert_int_equal(ha, hb);
    if (!ha) break;
    assert_int_equal(a.seq, b.seq);
    popped++;
  }
  assert_true(popped > 10000);
  lb_rng_free(r);
  sim_queue_free(&q);
  sim_queue_free(&ref);
}

static void test_same_order(void **state)
{
  (void)state;
  agree(1.0 / 64, 1024, 1); /* the ring covers 16 time units */
  agree(0.001, 16, 2);      /* a short ring: most events far */
  agree(10, 4, 3);          /* wide buckets: many ties in each */
  agree(1e-9, 1 << 10, 4);  /* everything beyond the ring */
  agree(50, 64, 5);         /* buckets of thousands, out of order: sorted, and their arrays reused */
}

/* One bucket's worth: events at times t[0..n-1] pushed into q and into
 * one heap (ref), then popped from both in the same order. */
static void phase_agrees(sim_queue *q, sim_queue *ref, const double *t, size_t n)
{
  for (size_t k = 0; k < n; k++) {
    sim_ev e = {.t = t[k], .kind = SIM_EV_QEND};
    assert_int_equal(sim_queue_push(q, e), 0);
    assert_int_equal(sim_queue_push(ref, e), 0);
  }
  for (size_t k = 0; k < n; k++) {
    sim_ev a, b;
    int ha, hb;
    assert_int_equal(sim_queue_pop(q, &a, &ha), 0);
    assert_int_equal(sim_queue_pop(ref, &b, &hb), 0);
    assert_true(ha && hb);
    assert_int_equal(a.seq, b.seq);
  }
}

/* Buckets of hundreds to thousands of events out of order, one after
 * another (a time unit's events each): sorted, and a large spent array
 * taken by the next bucket that grows large; the order stays the
 * heap's. */
static void test_large_buckets(void **state)
{
  (void)state;
  sim_queue q, ref;
  lb_rng *r;
  assert_int_equal(sim_queue_init(&q, 1, 64), 0);
  assert_int_equal(sim_queue_init(&ref, 1, 0), 0);
  assert_int_equal(lb_rng_alloc(9, &r), 0);
  static const size_t sizes[] = {1000, 300, 2000, 500, 700, 4000, 260};
  static double t[4000];
  for (size_t ph = 0; ph < sizeof sizes / sizeof *sizes; ph++) {
    /* in bucket 2 ph + 1, on a few times, so ties too */
    for (size_t k = 0; k < sizes[ph]; k++) t[k] = (double)(2 * ph + 1) + (double)lb_rng_below(r, 50) / 50;
    phase_agrees(&q, &ref, t, sizes[ph]);
  }
  lb_rng_free(r);
  sim_queue_free(&q);
  sim_queue_free(&ref);
}

/* A large bucket dealt into slots by time: continuous times (one event
 * in each slot's worth), and times bunched into a sliver of the bucket
 * but one, so that one slot holds nearly all (sorted whole there). */
static void test_spread_buckets(void **state)
{
  (void)state;
  sim_queue q, ref;
  lb_rng *r;
  assert_int_equal(sim_queue_init(&q, 1, 64), 0);
  assert_int_equal(sim_queue_init(&ref, 1, 0), 0);
  assert_int_equal(lb_rng_alloc(11, &r), 0);
  static double t[1900];
  for (size_t ph = 0; ph < 6; ph++) {
    size_t n = 100 + 900 * (ph % 3);
    for (size_t k = 0; k < n; k++) {
      double u = lb_rng_uniform(r);
      if (ph >= 3) u = k == n / 2 ? 0.99 : 1e-6 * u; /* bunched */
      t[k] = (double)(2 * ph + 1) + u;
    }
    phase_agrees(&q, &ref, t, n);
  }
  lb_rng_free(r);
  sim_queue_free(&q);
  sim_queue_free(&ref);
}

/* Looking ahead on events pushed in time order (so every bucket is in
 * pop order): what it finds is exactly the event that many pops on,
 * and it finds every one that lies in the next eight buckets that hold
 * events, within 128 buckets, past the empty ones (rings shorter and
 * longer than a word of the bitmap). */
static void ahead_case(size_t nb, unsigned long seed)
{
  sim_queue q;
  lb_rng *r;
  assert_int_equal(sim_queue_init(&q, 1, nb), 0);
  assert_int_equal(lb_rng_alloc(seed, &r), 0);
  enum { N = 3000 };
  static double t[N];
  double now = 1; /* bucket 0 is reached at the start: its events wait in a heap */
  for (size_t i = 0; i < N; i++) {
    /* runs of events in one bucket, then gaps of empty buckets */
    if (lb_rng_below(r, 4) == 0) now += (double)lb_rng_below(r, (unsigned long)(nb < 64 ? nb / 2 : 90));
    t[i] = now + 0.5;
    assert_int_equal(sim_queue_push(&q, (sim_ev){.t = t[i], .kind = SIM_EV_QEND, .node = (uint32_t)i}), 0);
  }
  static const size_t ks[] = {0, 1, 3, 10, 40, 100};
  const size_t m = sizeof ks / sizeof *ks;
  size_t found = 0;
  for (size_t i = 0; i < N; i++) {
    const sim_ev *e[sizeof ks / sizeof *ks], *top;
    assert_int_equal(sim_queue_top(&q, &top), 0);
    sim_queue_ahead(&q, ks, e, m);
    uint64_t at = (uint64_t)t[i]; /* the current bucket */
    for (size_t j = 0; j < m; j++) {
      size_t want = i + ks[j];
      if (e[j]) {
        assert_true(want < N);
        assert_int_equal(e[j]->node, want);
        found++;
        continue;
      }
      if (want >= N || (uint64_t)t[want] == at) continue; /* past the end; or in the current bucket, not sorted yet */
      /* nonempty buckets after the current one, up to want's */
      uint64_t b = (uint64_t)t[want];
      size_t full = 0;
      for (size_t x = i; x <= want; x++)
        if ((uint64_t)t[x] != at && (x == i || (uint64_t)t[x] != (uint64_t)t[x - 1])) full++;
      assert_true(b - at >= nb || b - at > 128 || full > 8);
    }
    sim_ev e0;
    int have;
    assert_int_equal(sim_queue_pop(&q, &e0, &have), 0);
    assert_true(have);
    assert_int_equal(e0.node, i);
  }
  assert_true(found > N);
  lb_rng_free(r);
  sim_queue_free(&q);
}

static void test_ahead(void **state)
{
  (void)state;
  ahead_case(1024, 11);
  ahead_case(256, 12);
  ahead_case(16, 13);
}

/* At one time, timers come after every other kind, whatever the order
 * of insertion; among themselves, in that order. */
static void test_timers_last(void **state)
{
  (void)state;
  for (size_t nb = 0; nb <= 8; nb += 8) {
    sim_queue q;
    assert_int_equal(sim_queue_init(&q, 1, nb), 0);
    sim_ev_kind kinds[] = {SIM_EV_TIMER, SIM_EV_QEND, SIM_EV_TIMER, SIM_EV_TICK, SIM_EV_ORDER};
    for (uint32_t k = 0; k < 5; k++)
      assert_int_equal(sim_queue_push(&q, (sim_ev){.t = 3, .kind = kinds[k], .node = k}), 0);
    assert_int_equal(sim_queue_push(&q, (sim_ev){.t = 2.5, .kind = SIM_EV_TIMER, .node = 5}), 0);
    uint32_t want[] = {5, 1, 3, 4, 0, 2};
    for (int k = 0; k < 6; k++) {
      sim_ev e;
      int have;
      assert_int_equal(sim_queue_pop(&q, &e, &have), 0);
      assert_true(have);
      assert_int_equal(e.node, want[k]);
    }
    sim_queue_free(&q);
  }
}

/* Owned messages and processes are freed wherever they wait. */
static void test_free_owned(void **state)
{
  (void)state;
  sim_queue q;
  assert_int_equal(sim_queue_init(&q, 0.5, 8), 0);
  for (int k = 0; k < 30; k++) {
    lb_msg *m;
    assert_int_equal(lb_msg_alloc(LB_MSG_LOAD, 0, 1, &m), 0);
    assert_int_equal(sim_queue_push(&q, (sim_ev){.t = k * 0.7, .kind = SIM_EV_DELIVER, .msg = m}), 0);
  }
  sim_ev e;
  int have;
  assert_int_equal(sim_queue_pop(&q, &e, &have), 0);
  assert_true(have && e.t == 0);
  sim_ev_free(&e);
  sim_queue_free(&q); /* the rest: in the heap, the ring and beyond */
  assert_int_equal(sim_queue_init(&q, 0, 8), LB_EINVAL);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_same_order), cmocka_unit_test(test_large_buckets), cmocka_unit_test(test_spread_buckets),
      cmocka_unit_test(test_ahead),      cmocka_unit_test(test_timers_last),   cmocka_unit_test(test_free_owned),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
