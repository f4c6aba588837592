/* The farm's SETUP carries every parameter of lb/lb_param.c: each one,
 * set to a value other than its default, reaches the host unchanged
 * (RMTLB-drain's drain, work_mean and estimate included, which an
 * earlier SETUP dropped); a value out of its range, a missing or foreign
 * parameter, or a hop time the master did not set is refused with a
 * message naming it; the encoding is a fixed function of its fields.
 * CLOCK, the trace's clock exchange: a question and an answer come back
 * as they went, and a truncated one, an unknown kind, a time that is not
 * finite or a boot id that is not one are refused. */
#include <math.h>
#include <string.h>
#include "testutil.h"
#include "farm_wire.h"
#include "lb_param.h"
#include "lb_wire.h"
#include "lb_errno.h"

static farm_setup sample(void)
{
  farm_setup s = {
      .me = 1, .nhosts = 3, .policy = LB_POLICY_RMTLB, .throttle = 0, .trace = 1, .quantum_s = 0.01, .t0 = 1.7e9};
  s.w = (app_workload){APP_PRIMES, 200000, 12, 5};
  lb_node_params_default(&s.par);
  s.par.hop_time = 0.012;
  s.par.speed = 0.5;
  s.tids = malloc(3 * sizeof *s.tids);
  s.edges = malloc(3 * sizeof *s.edges);
  assert_non_null(s.tids);
  assert_non_null(s.edges);
  for (uint32_t i = 0; i < 3; i++) {
    s.tids[i] = 0x40001 + (int32_t)i;
    s.edges[i][0] = i;
    s.edges[i][1] = (i + 1) % 3;
  }
  s.nedges = 3;
  return s;
}

/* A value in p's range, not its default, that fits a SETUP of 3 hosts. */
static double other_value(const lb_param *p)
{
  if (!strcmp(p->name, "cchspmd.controller")) return 2;
  if (p->type == LB_PARAM_FLAG) return 1 - p->dflt;
  if (p->type == LB_PARAM_ENUM) return p->dflt ? 0 : 1;
  if (p->type == LB_PARAM_INT) return p->dflt == p->hi ? p->hi - 1 : p->dflt + 1;
  double v = p->dflt + 0.375;
  return v < p->hi ? v : p->lo + (p->hi - p->lo) / 3;
}

static int decode(const unsigned char *b, size_t n, farm_setup *d) { return farm_setup_decode(b, n, d); }

static void test_every_parameter(void **state)
{
  (void)state;
  size_t np = lb_param_count();
  for (size_t k = 0; k < np; k++) {
    const lb_param *p = lb_param_at(k);
    farm_setup s = sample(), d;
    assert_int_equal(lb_param_set(p, &s.par, other_value(p), NULL), LB_SUCCESS);
    unsigned char *b, *again;
    size_t n, n2;
    assert_int_equal(farm_setup_encode(&s, &b, &n), LB_SUCCESS);
    if (decode(b, n, &d)) fail_msg("%s: %s", p->name, lb_errmsg());
    /* every parameter, this one changed, the rest as sent */
    for (size_t j = 0; j < np; j++)
      if (lb_param_get(lb_param_at(j), &d.par) != lb_param_get(lb_param_at(j), &s.par))
        fail_msg("setting %s: %s arrived as %g, sent %g", p->name, lb_param_at(j)->name,
                 lb_param_get(lb_param_at(j), &d.par), lb_param_get(lb_param_at(j), &s.par));
    assert_true(lb_param_get(p, &d.par) == other_value(p));
    assert_true(d.par.speed == 0.5);
    assert_int_equal(farm_setup_encode(&d, &again, &n2), LB_SUCCESS);
    assert_int_equal(n2, n);
    assert_memory_equal(again, b, n);
    free(b);
    free(again);
    farm_setup_clear(&s);
    farm_setup_clear(&d);
  }
}

/* RMTLB-drain's settings, all at once, as lbmaster sends them. */
static void test_drain(void **state)
{
  (void)state;
  farm_setup s = sample(), d;
  s.par.rmtlb.drain = 2;
  s.par.rmtlb.work_mean = 1234.5;
  s.par.rmtlb.estimate = LB_EST_DECLARED;
  s.par.lowest.backoff_max = 3;
  unsigned char *b;
  size_t n;
  assert_int_equal(farm_setup_encode(&s, &b, &n), LB_SUCCESS);
  assert_int_equal(decode(b, n, &d), LB_SUCCESS);
  assert_true(d.par.rmtlb.drain == 2 && d.par.rmtlb.work_mean == 1234.5);
  assert_int_equal(d.par.rmtlb.estimate, LB_EST_DECLARED);
  assert_int_equal(d.par.lowest.backoff_max, 3);
  free(b);
  farm_setup_clear(&s);
  farm_setup_clear(&d);
}

static void expect_refused(farm_setup *s, const char *needle)
{
  unsigned char *b;
  size_t n;
  assert_int_equal(farm_setup_encode(s, &b, &n), LB_SUCCESS);
  farm_setup d;
  int rc = decode(b, n, &d);
  if (rc != LB_EFORMAT) fail_msg("decoded (rc %d), wanted '%s' refused", rc, needle);
  if (!strstr(lb_errmsg(), needle)) fail_msg("message '%s' lacks '%s'", lb_errmsg(), needle);
  assert_null(d.tids);
  assert_null(d.edges);
  free(b);
  farm_setup_clear(s);
}

/* Out of range, every kind: each parameter just beyond its upper end,
 * and named in the message. */
static void test_refused(void **state)
{
  (void)state;
  for (size_t k = 0; k < lb_param_count(); k++) {
    const lb_param *p = lb_param_at(k);
    if (!strcmp(p->name, "cchspmd.controller") || !strcmp(p->name, "seed")) continue;
    farm_setup s = sample();
    double hi = p->type == LB_PARAM_ENUM       ? 7
                : p->type == LB_PARAM_FLAG     ? 2
                : p->type == LB_PARAM_INT      ? p->hi + 1
                : (p->open & LB_PARAM_HI_OPEN) ? p->hi
                                               : nextafter(p->hi, INFINITY);
    /* written past the setter's check, as a foreign master could */
    char *f = (char *)&s.par + p->offset;
    switch (p->ctype) {
    case LB_PARAM_C_DOUBLE: memcpy(f, &hi, sizeof hi); break;
    case LB_PARAM_C_INT: {
      int x = (int)hi;
      memcpy(f, &x, sizeof x);
      break;
    }
    case LB_PARAM_C_UNSIGNED: {
      unsigned x = (unsigned)hi;
      memcpy(f, &x, sizeof x);
      break;
    }
    case LB_PARAM_C_ULONG: {
      unsigned long x = (unsigned long)hi;
      memcpy(f, &x, sizeof x);
      break;
    }
    case LB_PARAM_C_SIZE: {
      size_t x = (size_t)hi;
      memcpy(f, &x, sizeof x);
      break;
    }
    }
    expect_refused(&s, p->name);
  }
  farm_setup s = sample();
  s.par.seed = 1ul << 33;
  expect_refused(&s, "seed");
  s = sample();
  s.par.cchspmd.controller = 3; /* 3 hosts */
  expect_refused(&s, "controller");
  s = sample();
  s.par.hop_time = 0; /* the master derives it; a host cannot */
  expect_refused(&s, "hop time");
  s = sample();
  s.par.rmtlb.tmax = NAN;
  expect_refused(&s, "rmtlb.tmax");
}

/* The list itself: one parameter fewer, or a name this build does not
 * have, is refused and said. */
static void test_list(void **state)
{
  (void)state;
  farm_setup s = sample(), d;
  unsigned char *b;
  size_t n;
  assert_int_equal(farm_setup_encode(&s, &b, &n), LB_SUCCESS);
  /* after the run's key, host, hosts, policy (u32 each) and speed
   * (f64): u16 count, then u8 length and the first name */
  unsigned char *p = b + FARM_KEY_LEN;
  lb_rbuf r = {p + 20, 2, 0, 0};
  assert_int_equal(lb_r_u16(&r), lb_param_count());
  assert_int_equal(p[22], strlen(lb_param_at(0)->name));
  assert_memory_equal(p + 23, lb_param_at(0)->name, p[22]);
  p[20]--;
  assert_int_equal(decode(b, n, &d), LB_EFORMAT);
  assert_non_null(strstr(lb_errmsg(), "parameter count"));
  p[20]++;
  p[23] ^= 0x20;
  assert_int_equal(decode(b, n, &d), LB_EFORMAT);
  assert_non_null(strstr(lb_errmsg(), lb_param_at(0)->name));
  p[23] ^= 0x20;
  assert_int_equal(decode(b, n, &d), LB_SUCCESS);
  farm_setup_clear(&d);
  /* every truncation is refused */
  for (size_t k = 0; k < n; k++) {
    assert_int_equal(decode(b, k, &d), LB_EFORMAT);
    assert_null(d.tids);
  }
  free(b);
  farm_setup_clear(&s);
}

static void test_clock(void **state)
{
  (void)state;
  unsigned char b[FARM_CLOCK_MAX];
  size_t n;
  farm_clock q = {.round = 5, .master = 0.125}, d;
  assert_int_equal(farm_clock_encode(&q, b, sizeof b, &n), LB_SUCCESS);
  assert_int_equal(n, 16);
  assert_int_equal(farm_clock_decode(b, n, &d), LB_SUCCESS);
  assert_true(d.round == 5 && !d.reply && d.master == 0.125 && !d.boot[0]);
  farm_clock a = {.round = 5,
                  .reply = 1,
                  .master = 0.125,
                  .node = 0.126,
                  .mono = 812.5,
                  .boot = "1de68e83-a72a-4002-a407-598474500365"};
  assert_int_equal(farm_clock_encode(&a, b, sizeof b, &n), LB_SUCCESS);
  assert_int_equal(n, FARM_CLOCK_MAX);
  assert_int_equal(farm_clock_decode(b, n, &d), LB_SUCCESS);
  assert_true(d.reply && d.node == 0.126 && d.mono == 812.5);
  assert_string_equal(d.boot, a.boot);
  for (size_t k = 0; k < n; k++)
    if (k != 16) assert_int_equal(farm_clock_decode(b, k, &d), LB_EFORMAT);
  b[n - 1] = 'X';
  assert_int_equal(farm_clock_decode(b, n, &d), LB_EFORMAT);
  a.boot[0] = '\0'; /* unknown: zeros */
  assert_int_equal(farm_clock_encode(&a, b, sizeof b, &n), LB_SUCCESS);
  assert_int_equal(farm_clock_decode(b, n, &d), LB_SUCCESS);
  assert_string_equal(d.boot, "");
  a.node = INFINITY;
  assert_int_equal(farm_clock_encode(&a, b, sizeof b, &n), LB_SUCCESS);
  assert_int_equal(farm_clock_decode(b, n, &d), LB_EFORMAT);
  b[4] = 2; /* neither question nor answer */
  assert_int_equal(farm_clock_decode(b, 16, &d), LB_EFORMAT);
  assert_int_equal(farm_clock_encode(&a, b, 10, &n), LB_ERANGE);
}

/* HEARTBEAT: read back as written; a host out of range, a count beyond
 * any run's, or a length other than its own is refused.  SETUP's test
 * switch `silent` travels too and is 0 or 1. */
static void test_beat(void **state)
{
  (void)state;
  farm_beat b = {2, 12345, 987654321, 17}, d;
  unsigned char buf[FARM_BEAT_LEN + 8];
  size_t n;
  assert_int_equal(farm_beat_encode(&b, buf, sizeof buf, &n), LB_SUCCESS);
  assert_int_equal(n, FARM_BEAT_LEN);
  assert_int_equal(farm_beat_decode(buf, n, 3, &d), LB_SUCCESS);
  assert_true(d.me == 2 && d.quanta == 12345 && d.units == 987654321 && d.held == 17);
  assert_int_equal(farm_beat_decode(buf, n, 2, &d), LB_EFORMAT); /* host 2 of 2 */
  for (size_t k = 0; k < n; k++) assert_int_equal(farm_beat_decode(buf, k, 3, &d), LB_EFORMAT);
  assert_int_equal(farm_beat_decode(buf, n + 1, 3, &d), LB_EFORMAT);
  assert_int_equal(farm_beat_encode(&b, buf, n - 1, &n), LB_ERANGE);
  b.held = (uint64_t)1 << 40;
  assert_int_equal(farm_beat_encode(&b, buf, sizeof buf, &n), LB_SUCCESS);
  assert_int_equal(farm_beat_decode(buf, n, 3, &d), LB_EFORMAT);
  assert_non_null(strstr(lb_errmsg(), "out of range"));

  farm_setup s = sample(), e;
  s.silent = 1;
  unsigned char *sb;
  size_t sn;
  assert_int_equal(farm_setup_encode(&s, &sb, &sn), LB_SUCCESS);
  assert_int_equal(decode(sb, sn, &e), LB_SUCCESS);
  assert_int_equal(e.silent, 1);
  farm_setup_clear(&e);
  free(sb);
  s.silent = 2;
  expect_refused(&s, "test switch");
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_every_parameter), cmocka_unit_test(test_drain),
      cmocka_unit_test(test_refused),         cmocka_unit_test(test_list),
      cmocka_unit_test(test_clock),           cmocka_unit_test(test_beat),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
