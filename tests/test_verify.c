/* The master's verifier: a right result passes and every tampered form
 * of it fails.  For matmul, the forgeries include the ones that passed
 * the two fixed row checksums used before (C.1 and C.w, w_j = j + 1):
 * the test computes those checksums itself to show that each forgery
 * keeps them, and that Freivalds' test under the verifier's secret
 * rejects it all the same. */
#include "testutil.h"
#include "app.h"
#include "app_verify.h"
#include "lb_errno.h"

/* Workload of the matmul tests: blocks of 16 rows of order 48. */
static const app_workload W = {APP_MATMUL, 48, 3, 5};

/* The result of process `index`, run to the end and decoded; the blob
 * is kept in *blob (free it after app_result_clear). */
static void result_of(const app_workload *w, size_t index, app_result *r, unsigned char **blob)
{
  app_task *t;
  unsigned long ran;
  assert_int_equal(app_task_alloc(w, index, &t), LB_SUCCESS);
  assert_int_equal(app_task_run(t, app_task_units_total(t), &ran), LB_SUCCESS);
  size_t len = app_task_result_size(t);
  *blob = malloc(len);
  assert_int_equal(app_task_result(t, *blob, len), LB_SUCCESS);
  app_task_free(t);
  assert_int_equal(app_result_decode(*blob, len, r), LB_SUCCESS);
}

/* The old checks of row i: sum_j c_j and sum_j (j + 1) c_j, exact. */
static void old_sums(const app_result *r, unsigned long i, long long *s1, long long *s2)
{
  *s1 = *s2 = 0;
  for (unsigned long j = 0; j < r->n; j++) {
    long long c = (long long)r->c[i * r->n + j];
    *s1 += c;
    *s2 += c * (long long)(j + 1);
  }
}

/* A fresh verifier (a fresh secret) judges r: the status, and the
 * message must name `why` when it fails. */
static int judge(const app_result *r, const char *why)
{
  app_verifier *v;
  assert_int_equal(app_verify_alloc(&W, &v), LB_SUCCESS);
  int rc = app_verify_result(v, r);
  if (rc && why && !strstr(lb_errmsg(), why)) fail_msg("expected '%s' in: %s", why, lb_errmsg());
  assert_int_equal(app_verify_accepted(v) + app_verify_rejected(v), 1);
  app_verify_free(v);
  return rc;
}

static void test_right_result_passes(void **state)
{
  (void)state;
  app_verifier *v;
  assert_int_equal(app_verify_alloc(&W, &v), LB_SUCCESS);
  for (size_t p = 0; p < W.nproc; p++) {
    app_result r;
    unsigned char *blob;
    result_of(&W, p, &r, &blob);
    assert_int_equal(app_verify_result(v, &r), LB_SUCCESS);
    assert_int_equal(app_verify_result(v, &r), LB_EFORMAT); /* twice: a duplicate */
    assert_non_null(strstr(lb_errmsg(), "twice"));
    app_result_clear(&r);
    free(blob);
  }
  assert_int_equal(app_verify_accepted(v), W.nproc);
  assert_int_equal(app_verify_rejected(v), W.nproc);
  app_verify_free(v);
}

/* (1, -2, 1) added to three neighbouring entries of a row keeps both
 * old sums (1 - 2 + 1 = 0 and j - 2 (j + 1) + (j + 2) = 0), in every
 * row and at every place. */
static void test_one_minus_two_one(void **state)
{
  (void)state;
  app_result r;
  unsigned char *blob;
  result_of(&W, 1, &r, &blob);
  for (unsigned long i = 0; i < r.nrows; i++)
    for (unsigned long j = 0; j + 2 < r.n; j += 5) {
      long long a1, a2, b1, b2;
      old_sums(&r, i, &a1, &a2);
      double *c = r.owned + i * r.n + j;
      c[0] += 1, c[1] -= 2, c[2] += 1;
      old_sums(&r, i, &b1, &b2);
      assert_true(a1 == b1 && a2 == b2);
      assert_int_equal(judge(&r, "Freivalds"), LB_EFORMAT);
      c[0] -= 1, c[1] += 2, c[2] -= 1;
    }
  assert_int_equal(judge(&r, NULL), LB_SUCCESS);
  app_result_clear(&r);
  free(blob);
}

/* Every row replaced, keeping its old sums: (a) by two numbers x, y at
 * columns m, m + 1 (x + y = s1, (m + 1) x + (m + 2) y = s2), m chosen to
 * keep them small: where both are within the range a true entry may
 * take (n 2^20) it is Freivalds' test that must catch them, elsewhere
 * the range; (b) by the row plus random (1, -2, 1) patterns at random
 * places, entirely different values, all in range.  Each row forged
 * alone, then all rows at once.  Returns whether the row is in range. */
static int forge_two(app_result *r, unsigned long i)
{
  long long s1, s2, n = (long long)r->n, bound = n << 20;
  old_sums(r, i, &s1, &s2);
  long long t = s2 - s1; /* sum_j j c_j */
  long long m = s1 ? t / s1 : 0;
  if (m < 0) m = 0;
  if (m > n - 2) m = n - 2;
  long long y = t - m * s1, x = s1 - y;
  double *c = r->owned + i * r->n;
  for (unsigned long j = 0; j < r->n; j++) c[j] = 0;
  c[m] = (double)x;
  c[m + 1] = (double)y;
  long long u1, u2;
  old_sums(r, i, &u1, &u2);
  assert_true(u1 == s1 && u2 == s2);
  return llabs(x) <= bound && llabs(y) <= bound;
}

static int forge_spread(app_result *r, unsigned long i, uint64_t *rng)
{
  long long s1, s2, u1, u2;
  old_sums(r, i, &s1, &s2);
  double *c = r->owned + i * r->n;
  for (int k = 0; k < 40; k++) {
    *rng = *rng * 6364136223846793005ull + 1442695040888963407ull;
    unsigned long j = (unsigned long)(*rng >> 33) % (r->n - 2);
    double s = (double)((long long)(*rng >> 50) % 2001 - 1000);
    c[j] += s, c[j + 1] -= 2 * s, c[j + 2] += s;
  }
  old_sums(r, i, &u1, &u2);
  assert_true(u1 == s1 && u2 == s2);
  return 1;
}

static void test_rows_replaced(void **state)
{
  (void)state;
  app_result r;
  unsigned char *blob;
  result_of(&W, 2, &r, &blob);
  size_t bytes = r.nrows * r.n * sizeof *r.owned;
  double *keep = malloc(bytes);
  memcpy(keep, r.owned, bytes);
  uint64_t rng = 12345;
  for (int how = 0; how < 2; how++) {
    unsigned long in_range = 0;
    for (unsigned long i = 0; i < r.nrows; i++) {
      int in = how ? forge_spread(&r, i, &rng) : forge_two(&r, i);
      char why[64];
      snprintf(why, sizeof why, "row %lu of C fails Freivalds", r.row0 + i);
      assert_int_equal(judge(&r, in ? why : "not an integer"), LB_EFORMAT);
      in_range += (unsigned long)in;
      memcpy(r.owned, keep, bytes);
    }
    /* Freivalds' test itself meets most of them. */
    assert_true(in_range >= r.nrows / 2);
    for (unsigned long i = 0; i < r.nrows; i++) how ? forge_spread(&r, i, &rng) : forge_two(&r, i);
    assert_int_equal(judge(&r, NULL), LB_EFORMAT);
    memcpy(r.owned, keep, bytes);
  }
  assert_int_equal(judge(&r, NULL), LB_SUCCESS);
  free(keep);
  app_result_clear(&r);
  free(blob);
}

/* Every single entry off by one, either way. */
static void test_single_entry(void **state)
{
  (void)state;
  app_result r;
  unsigned char *blob;
  result_of(&W, 0, &r, &blob);
  app_verifier *v;
  assert_int_equal(app_verify_alloc(&W, &v), LB_SUCCESS);
  for (size_t e = 0; e < r.nrows * r.n; e++)
    for (int d = -1; d <= 1; d += 2) {
      r.owned[e] += d;
      assert_int_equal(app_verify_result(v, &r), LB_EFORMAT);
      assert_non_null(strstr(lb_errmsg(), "Freivalds"));
      r.owned[e] -= d;
    }
  assert_int_equal(app_verify_rejected(v), 2 * r.nrows * r.n);
  assert_int_equal(app_verify_result(v, &r), LB_SUCCESS);
  app_verify_free(v);
  app_result_clear(&r);
  free(blob);
}

/* Two rows swapped: both sums of each row are a right row's. */
static void test_rows_swapped(void **state)
{
  (void)state;
  app_result r;
  unsigned char *blob;
  result_of(&W, 1, &r, &blob);
  size_t n = r.n;
  double *tmp = malloc(n * sizeof *tmp);
  for (unsigned long i = 0; i + 1 < r.nrows; i += 3) {
    double *a = r.owned + i * n, *b = a + n;
    assert_true(memcmp(a, b, n * sizeof *a) != 0);
    memcpy(tmp, a, n * sizeof *a), memcpy(a, b, n * sizeof *a), memcpy(b, tmp, n * sizeof *a);
    assert_int_equal(judge(&r, "Freivalds"), LB_EFORMAT);
    memcpy(tmp, a, n * sizeof *a), memcpy(a, b, n * sizeof *a), memcpy(b, tmp, n * sizeof *a);
  }
  assert_int_equal(judge(&r, NULL), LB_SUCCESS);
  free(tmp);
  app_result_clear(&r);
  free(blob);
}

/* Entries that no exact product has: fractions, NaN, infinities,
 * integers beyond n 2^20, and integers huge enough to wrap an int64. */
static void test_not_integers(void **state)
{
  (void)state;
  app_result r;
  unsigned char *blob;
  result_of(&W, 2, &r, &blob);
  double bound = (double)W.size * 1024 * 1024;
  const double bad[] = {0.5, -0.25, 1e-300, NAN, INFINITY, -INFINITY, bound + 1, -bound - 1, 1e300, 0x1p63, -0x1p64};
  for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
    size_t e = (k * 37) % (r.nrows * r.n);
    double keep = r.owned[e];
    r.owned[e] = k < 2 ? keep + bad[k] : bad[k];
    assert_int_equal(judge(&r, "not an integer"), LB_EFORMAT);
    r.owned[e] = keep;
  }
  /* The bound itself is a value a product may take: range, then Freivalds. */
  r.owned[0] = bound;
  assert_int_equal(judge(&r, "Freivalds"), LB_EFORMAT);
  app_result_clear(&r);
  free(blob);
}

/* The wrong rows or order: a result that names another block, fewer
 * rows, or another matrix; and blobs of the wrong length. */
static void test_wrong_size(void **state)
{
  (void)state;
  app_result r;
  unsigned char *blob;
  result_of(&W, 1, &r, &blob);
  r.nrows--;
  assert_int_equal(judge(&r, "expected"), LB_EFORMAT);
  r.nrows++;
  r.row0++;
  assert_int_equal(judge(&r, "expected"), LB_EFORMAT);
  r.row0--;
  r.n--;
  assert_int_equal(judge(&r, "expected"), LB_EFORMAT);
  r.n++;
  r.id = 0; /* process 0's rows are others */
  assert_int_equal(judge(&r, "expected"), LB_EFORMAT);
  r.id = 1;
  assert_int_equal(judge(&r, NULL), LB_SUCCESS);
  /* A blob with one entry more or less does not decode. */
  size_t len = 56 + 24 + 8 * r.nrows * r.n;
  app_result q;
  unsigned char *longer = malloc(len + 8);
  memcpy(longer, blob, len);
  memset(longer + len, 0, 8);
  assert_int_equal(app_result_decode(longer, len + 8, &q), LB_EFORMAT);
  assert_int_equal(app_result_decode(blob, len - 8, &q), LB_EFORMAT);
  free(longer);
  app_result_clear(&r);
  free(blob);
}

/* Many random wrong results (an entry changed by a random non-zero
 * amount, or a row scaled): none passes, with fresh secrets. */
static void test_random_forgeries(void **state)
{
  (void)state;
  app_result r;
  unsigned char *blob;
  result_of(&W, 0, &r, &blob);
  app_verifier *v;
  assert_int_equal(app_verify_alloc(&W, &v), LB_SUCCESS);
  uint64_t rng = 99;
  for (int k = 0; k < 2000; k++) {
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    size_t e = (size_t)(rng >> 20) % (r.nrows * r.n);
    double d = (double)((long long)(rng >> 40) % 1000001 - 500000);
    if (d == 0) d = 7;
    r.owned[e] += d;
    assert_int_equal(app_verify_result(v, &r), LB_EFORMAT);
    r.owned[e] -= d;
  }
  for (unsigned long i = 0; i < r.nrows; i++) {
    for (unsigned long j = 0; j < r.n; j++) r.owned[i * r.n + j] *= -1;
    int zero = 1;
    for (unsigned long j = 0; j < r.n; j++) zero &= r.owned[i * r.n + j] == 0;
    if (!zero) assert_int_equal(app_verify_result(v, &r), LB_EFORMAT);
    for (unsigned long j = 0; j < r.n; j++) r.owned[i * r.n + j] *= -1;
  }
  assert_int_equal(app_verify_result(v, &r), LB_SUCCESS);
  app_verify_free(v);
  app_result_clear(&r);
  free(blob);
}

/* Primes stay exact: a count or a sum off by one, or another range. */
static void test_primes(void **state)
{
  (void)state;
  app_workload pw = {APP_PRIMES, 500, 3, 0};
  app_verifier *v;
  assert_int_equal(app_verify_alloc(&pw, &v), LB_SUCCESS);
  app_result r;
  unsigned char *blob;
  result_of(&pw, 2, &r, &blob);
  r.count++;
  assert_int_equal(app_verify_result(v, &r), LB_EFORMAT);
  assert_non_null(strstr(lb_errmsg(), "sieve"));
  r.count--;
  r.sum += 2;
  assert_int_equal(app_verify_result(v, &r), LB_EFORMAT);
  r.sum -= 2;
  r.hi++;
  assert_int_equal(app_verify_result(v, &r), LB_EFORMAT);
  assert_non_null(strstr(lb_errmsg(), "range"));
  r.hi--;
  assert_int_equal(app_verify_result(v, &r), LB_SUCCESS);
  /* a matmul result in a primes run */
  app_result m;
  unsigned char *mblob;
  result_of(&W, 0, &m, &mblob);
  assert_int_equal(app_verify_result(v, &m), LB_EFORMAT);
  app_result_clear(&m);
  free(mblob);
  free(blob);
  app_verify_free(v);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_right_result_passes),
      cmocka_unit_test(test_one_minus_two_one),
      cmocka_unit_test(test_rows_replaced),
      cmocka_unit_test(test_single_entry),
      cmocka_unit_test(test_rows_swapped),
      cmocka_unit_test(test_not_integers),
      cmocka_unit_test(test_wrong_size),
      cmocka_unit_test(test_random_forgeries),
      cmocka_unit_test(test_primes),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
