/* The parameter table (lb/lb_param.h): every parameter round-trips
 * through text (format, then parse, gives the same value), every field
 * of lb_node_params it names is the one it writes, values at each end of
 * a range are taken and just outside refused with a message naming the
 * option and the range, and the engine's defaults are the table's. */
#include <math.h>
#include <stddef.h>
#include <string.h>
#include "testutil.h"
#include "lb_param.h"
#include "lb_errno.h"

/* A value inside p's range other than its default: what a test sets. */
static double other_value(const lb_param *p)
{
  switch (p->type) {
  case LB_PARAM_FLAG: return p->dflt ? 0 : 1;
  case LB_PARAM_ENUM: {
    size_t n = 0;
    while (p->names[n]) n++;
    return p->dflt == (double)(n - 1) ? 0 : (double)(n - 1);
  }
  case LB_PARAM_INT: return p->dflt == p->lo + 1 ? p->lo + 2 : p->lo + 1;
  case LB_PARAM_REAL: break;
  }
  double v = p->lo + 0.3 * (fmin(p->hi, p->lo + 10) - p->lo); /* strictly inside */
  return v == p->dflt ? v / 2 + p->lo / 2 : v;
}

static void test_table(void **state)
{
  (void)state;
  size_t n = lb_param_count();
  for (size_t k = 0; k < n; k++) {
    const lb_param *p = lb_param_at(k);
    assert_ptr_equal(lb_param_find(p->name), p);
    assert_int_equal(lb_param_index(p), (long)k);
    for (size_t j = 0; j < k; j++) assert_string_not_equal(lb_param_at(j)->name, p->name);
    assert_true(p->help && p->help[0]);
    assert_true(p->type == LB_PARAM_FLAG || (p->arg && p->arg[0]));
    assert_true(p->offset < sizeof(lb_node_params));
    assert_int_equal(lb_param_check(p, p->dflt, NULL), LB_SUCCESS);
    if (p->type == LB_PARAM_ENUM) assert_non_null(p->names);
  }
  assert_null(lb_param_at(n));
  assert_null(lb_param_find("rmtlb.nonsense"));
  /* Each field belongs to one row: setting one row changes only its bytes. */
  for (size_t k = 0; k < n; k++) {
    const lb_param *p = lb_param_at(k);
    lb_node_params a, b;
    lb_node_params_default(&a);
    b = a;
    assert_int_equal(lb_param_set(p, &b, other_value(p), NULL), LB_SUCCESS);
    assert_true(lb_param_get(p, &b) == other_value(p));
    for (size_t j = 0; j < n; j++)
      if (j != k) assert_true(lb_param_get(lb_param_at(j), &a) == lb_param_get(lb_param_at(j), &b));
  }
}

static size_t ctype_size(lb_param_ctype c)
{
  switch (c) {
  case LB_PARAM_C_DOUBLE: return sizeof(double);
  case LB_PARAM_C_INT: return sizeof(int);
  case LB_PARAM_C_UNSIGNED: return sizeof(unsigned);
  case LB_PARAM_C_ULONG: return sizeof(unsigned long);
  case LB_PARAM_C_SIZE: return sizeof(size_t);
  }
  return 0;
}

/* Every field of lb_node_params has a row (speed, per node, aside):
 * the rows' fields and speed tile the struct, the only gaps being
 * alignment padding.  A field added without a row fails here (all but
 * a 4-byte one that lands where padding was). */
static void test_complete(void **state)
{
  (void)state;
  unsigned char owner[sizeof(lb_node_params)];
  memset(owner, 0, sizeof owner);
  for (size_t k = 0; k < lb_param_count(); k++) {
    const lb_param *p = lb_param_at(k);
    for (size_t b = 0; b < ctype_size(p->ctype); b++) {
      assert_true(p->offset + b < sizeof owner);
      if (owner[p->offset + b]) fail_msg("%s overlaps another parameter", p->name);
      owner[p->offset + b] = 1;
    }
  }
  for (size_t b = 0; b < sizeof(double); b++) owner[offsetof(lb_node_params, speed) + b] = 1;
  /* the room of a program's policies' rows (lb_policy.h): theirs */
  for (size_t b = 0; b < sizeof((lb_node_params *)0)->ext; b++) owner[offsetof(lb_node_params, ext) + b] = 1;
  for (size_t b = 0; b < sizeof owner;) {
    if (owner[b]) {
      b++;
      continue;
    }
    size_t e = b;
    while (e < sizeof owner && !owner[e]) e++;
    /* padding: shorter than the widest alignment, and ending where the
     * next field's alignment (or the struct's end) puts it */
    if (e - b >= _Alignof(lb_node_params) || (e % _Alignof(lb_node_params) && e != sizeof owner))
      fail_msg("bytes %zu..%zu of lb_node_params have no parameter row", b, e - 1);
    b = e;
  }
}

/* The engine's defaults are the table's, including the changed one:
 * LOWEST has no back-off by default (seed 000 describes none). */
static void test_defaults(void **state)
{
  (void)state;
  lb_node_params d;
  lb_node_params_default(&d);
  for (size_t k = 0; k < lb_param_count(); k++) assert_true(lb_param_get(lb_param_at(k), &d) == lb_param_at(k)->dflt);
  assert_int_equal(d.capacity, 4);
  assert_true(d.threshold < 0);
  assert_int_equal(d.lowest.backoff_max, 0);
  assert_int_equal(d.lowest.probes, 3);
  assert_int_equal(d.rmtlb.estimate, LB_EST_MEAN);
  assert_true(d.speed == 1 && d.hop_time == 1);
  assert_int_equal(lb_params_check(&d), LB_SUCCESS);
}

/* Text: format then parse gives the value back exactly, for the default
 * and another value of every parameter, through a fresh struct. */
static void test_text_round_trip(void **state)
{
  (void)state;
  for (size_t k = 0; k < lb_param_count(); k++) {
    const lb_param *p = lb_param_at(k);
    double vals[2] = {p->dflt, other_value(p)};
    for (int i = 0; i < 2; i++) {
      lb_node_params a, b;
      lb_node_params_default(&a);
      memset(&b, 0xA5, sizeof b);
      assert_int_equal(lb_param_set(p, &a, vals[i], NULL), LB_SUCCESS);
      char text[64];
      int len = lb_param_format(p, &a, text, sizeof text);
      assert_true(len > 0 && (size_t)len < sizeof text);
      if (lb_param_parse(p, &b, text, NULL)) fail_msg("%s: '%s': %s", p->name, text, lb_errmsg());
      assert_true(lb_param_get(p, &b) == vals[i]);
    }
  }
  /* 1/3 reads as the nearest double, and formats back to it */
  lb_node_params a;
  lb_node_params_default(&a);
  const lb_param *alpha = lb_param_find("diffusion.alpha");
  assert_int_equal(lb_param_parse(alpha, &a, "1/3", NULL), LB_SUCCESS);
  assert_true(a.diffusion.alpha == 1.0 / 3);
  assert_int_equal(lb_param_parse(lb_param_find("results"), &a, "direct", NULL), LB_SUCCESS);
  assert_int_equal(a.results, LB_RESULTS_DIRECT);
  assert_int_equal(lb_param_parse(lb_param_find("rmtlb.estimate"), &a, "oracle", NULL), LB_SUCCESS);
  assert_int_equal(a.rmtlb.estimate, LB_EST_ORACLE);
  assert_int_equal(lb_param_parse(lb_param_find("seed"), &a, "4294967295", NULL), LB_SUCCESS);
  assert_true(a.seed == 4294967295ul);
}

static void expect_refused(const char *name, const char *text, int code, const char *needle)
{
  lb_node_params a, before;
  lb_node_params_default(&a);
  before = a;
  int rc = lb_param_parse(lb_param_find(name), &a, text, "--opt");
  if (rc != code) fail_msg("%s '%s': status %d, wanted %d (%s)", name, text, rc, code, lb_errmsg());
  if (!strstr(lb_errmsg(), "--opt") || !strstr(lb_errmsg(), needle))
    fail_msg("%s '%s': message '%s' lacks the option or '%s'", name, text, lb_errmsg(), needle);
  assert_memory_equal(&a, &before, sizeof a); /* nothing stored */
}

/* The ends of each range are taken; just outside them, non-numbers,
 * fractions of integers, unknown names, NaN and infinity are refused
 * with a message naming the option and what it allows. */
static void test_ranges(void **state)
{
  (void)state;
  for (size_t k = 0; k < lb_param_count(); k++) {
    const lb_param *p = lb_param_at(k);
    if (p->type != LB_PARAM_REAL && p->type != LB_PARAM_INT) continue;
    lb_node_params a;
    lb_node_params_default(&a);
    assert_int_equal(lb_param_set(p, &a, p->lo, NULL) == LB_SUCCESS, !(p->open & LB_PARAM_LO_OPEN));
    assert_int_equal(lb_param_set(p, &a, p->hi, NULL) == LB_SUCCESS, !(p->open & LB_PARAM_HI_OPEN));
    double below = p->type == LB_PARAM_INT ? p->lo - 1 : nextafter(p->lo, -INFINITY);
    double above = p->type == LB_PARAM_INT ? p->hi + 1 : nextafter(p->hi, INFINITY);
    assert_int_equal(lb_param_set(p, &a, below, "--x"), LB_ERANGE);
    assert_non_null(strstr(lb_errmsg(), "--x: "));
    assert_int_equal(lb_param_set(p, &a, above, NULL), LB_ERANGE);
    assert_non_null(strstr(lb_errmsg(), p->name));
    assert_int_equal(lb_param_set(p, &a, NAN, NULL), LB_ERANGE);
    assert_int_equal(lb_param_set(p, &a, INFINITY, NULL), LB_ERANGE);
    if (p->type == LB_PARAM_INT) assert_int_equal(lb_param_set(p, &a, p->lo + 0.5, NULL), LB_ERANGE);
  }
  expect_refused("rmtlb.tmax", "-1", LB_ERANGE, "[0,1e+12]");
  expect_refused("diffusion.beta", "2", LB_ERANGE, "[0,2)");
  expect_refused("dasud.period", "0", LB_ERANGE, "(0,1e+12]");
  expect_refused("lowest.probes", "0", LB_ERANGE, "1..1000000");
  expect_refused("lowest.probes", "2.5", LB_EINVAL, "whole number");
  expect_refused("capacity", "-3", LB_EINVAL, "whole number");
  expect_refused("capacity", "99999999999999999999", LB_ERANGE, "0..1000000000");
  expect_refused("rmtlb.backoff_max", "31", LB_ERANGE, "0..30");
  expect_refused("hop_time", "fast", LB_EINVAL, "not a number");
  expect_refused("hop_time", "nan", LB_EINVAL, "not a number");
  expect_refused("hop_time", "1/0", LB_EINVAL, "not a number");
  expect_refused("hop_time", "", LB_EINVAL, "no value");
  expect_refused("results", "sideways", LB_EINVAL, "origin, direct");
  expect_refused("rmtlb.estimate", "guess", LB_EINVAL, "mean, declared, oracle");
  expect_refused("threshold_ceil", "2", LB_EINVAL, "0 or 1");
  /* -0 would read back as 0 where the field is an integer */
  lb_node_params a;
  lb_node_params_default(&a);
  assert_int_equal(lb_param_set(lb_param_find("capacity"), &a, -0.0, NULL), LB_ERANGE);
  assert_int_equal(lb_param_set(lb_param_find("rmtlb.estimate"), &a, 3, NULL), LB_ERANGE);
  assert_non_null(strstr(lb_errmsg(), "not one of"));
}

/* lb_params_check names the first parameter out of range; a node will
 * not be made with it. */
static void test_check(void **state)
{
  (void)state;
  lb_node_params p;
  lb_node_params_default(&p);
  p.lowest.probes = 0;
  assert_int_equal(lb_params_check(&p), LB_ERANGE);
  assert_non_null(strstr(lb_errmsg(), "lowest.probes"));
  lb_node_params_default(&p);
  p.diffusion.beta = 2.5;
  assert_int_equal(lb_params_check(&p), LB_ERANGE);
  assert_non_null(strstr(lb_errmsg(), "diffusion.beta"));
}

/* Every shorthand names parameters of the table. */
static void test_aliases(void **state)
{
  (void)state;
  assert_true(lb_param_alias_count() >= 3);
  for (size_t k = 0; k < lb_param_alias_count(); k++) {
    const lb_param_alias *a = lb_param_alias_at(k);
    assert_non_null(a->targets[0]);
    for (size_t j = 0; a->targets[j]; j++) assert_non_null(lb_param_find(a->targets[j]));
  }
  assert_null(lb_param_alias_at(lb_param_alias_count()));
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_table),           cmocka_unit_test(test_complete), cmocka_unit_test(test_defaults),
      cmocka_unit_test(test_text_round_trip), cmocka_unit_test(test_ranges),   cmocka_unit_test(test_check),
      cmocka_unit_test(test_aliases),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
