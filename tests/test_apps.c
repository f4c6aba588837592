/* The farm's workloads: quanta with a save/load round trip between every
 * two give bit-identical results to an uninterrupted run, and the
 * master's independent verifier (and a brute-force product / trial
 * count here) agrees. */
#include "testutil.h"
#include "app.h"
#include "app_verify.h"
#include "lb_errno.h"
#include <cblas.h>

/* Run to the end in one call; return the result blob. */
static unsigned char *run_straight(const app_workload *w, size_t i, size_t *len)
{
  app_task *t;
  assert_int_equal(app_task_alloc(w, i, &t), LB_SUCCESS);
  unsigned long ran;
  assert_int_equal(app_task_run(t, app_task_units_total(t) + 5, &ran), LB_SUCCESS);
  assert_int_equal(ran, app_task_units_total(t));
  assert_true(app_task_finished(t));
  *len = app_task_result_size(t);
  unsigned char *buf = malloc(*len);
  assert_non_null(buf);
  assert_int_equal(app_task_result(t, buf, *len), LB_SUCCESS);
  app_task_free(t);
  return buf;
}

/* Run in quanta of 1, 2, 3, 4, 9, 25, 1000, 20000 units, saving the task to a
 * blob and loading a new one from it after every quantum.  A matmul
 * process advances by whole columns of its block: as many columns as
 * fit in the quantum, at least one. */
static unsigned char *run_migrating(const app_workload *w, size_t i, size_t *len)
{
  static const unsigned long qs[] = { 1, 2, 3, 4, 9, 25, 1000, 20000 };
  app_task *t;
  assert_int_equal(app_task_alloc(w, i, &t), LB_SUCCESS);
  unsigned long step = w->kind == APP_MATMUL ? app_task_units_total(t) / w->size : 1;
  unsigned long quanta = 0;
  while (!app_task_finished(t)) {
    unsigned long q = qs[quanta % 8], ran, left = app_task_units_left(t);
    unsigned long want = q < step ? step : q / step * step;
    assert_int_equal(app_task_run(t, q, &ran), LB_SUCCESS);
    assert_int_equal(ran, want < left ? want : left);
    size_t n = app_task_blob_size(t);
    unsigned char *blob = malloc(n);
    assert_int_equal(app_task_save(t, blob, n), LB_SUCCESS);
    app_task_free(t);
    memset(&t, 0, sizeof t);
    assert_int_equal(app_task_load(blob, n, &t), LB_SUCCESS);
    app_task_add_hop(t);
    free(blob);
    quanta++;
  }
  assert_true(quanta > 1 || app_task_units_total(t) <= 1);
  assert_int_equal(app_task_hops(t), quanta);
  /* The result blob records hops; compare everything else. */
  *len = app_task_result_size(t);
  unsigned char *buf = malloc(*len);
  assert_int_equal(app_task_result(t, buf, *len), LB_SUCCESS);
  app_task_free(t);
  return buf;
}

static void check_workload(const app_workload *w)
{
  app_verifier *v;
  assert_int_equal(app_verify_alloc(w, &v), LB_SUCCESS);
  for (size_t i = 0; i < w->nproc; i++) {
    size_t la, lb;
    unsigned char *a = run_straight(w, i, &la);
    unsigned char *b = run_migrating(w, i, &lb);
    assert_int_equal(la, lb);
    app_result ra, rb;
    assert_int_equal(app_result_decode(a, la, &ra), LB_SUCCESS);
    assert_int_equal(app_result_decode(b, lb, &rb), LB_SUCCESS);
    assert_int_equal(ra.hops, 0);
    assert_true(rb.hops > 0 || ra.kind == APP_MATMUL);
    /* Bit-identical apart from the hop count (bytes 16..19 of the head). */
    memset(a + 16, 0, 4);
    memset(b + 16, 0, 4);
    assert_memory_equal(a, b, la);
    assert_int_equal(app_verify_result(v, &ra), LB_SUCCESS);
    /* The same result twice is a duplicate. */
    assert_int_equal(app_verify_result(v, &rb), LB_EFORMAT);
    app_result_clear(&ra);
    app_result_clear(&rb);
    free(a);
    free(b);
  }
  assert_int_equal(app_verify_accepted(v), w->nproc);
  assert_int_equal(app_verify_rejected(v), w->nproc);
  app_verify_free(v);
}

static void test_matmul_quanta(void **state)
{
  (void)state;
  app_workload w = { APP_MATMUL, 37, 5, 7 };
  check_workload(&w);
}

/* B is built and multiplied by panels of 256 columns: blocks of 200
 * rows whose quanta start and end inside and across panels. */
static void test_matmul_panels(void **state)
{
  (void)state;
  app_workload w = { APP_MATMUL, 600, 3, 11 };
  check_workload(&w);
}

static void test_primes_quanta(void **state)
{
  (void)state;
  app_workload w = { APP_PRIMES, 3000, 7, 1 };
  check_workload(&w);
}

/* The operands' definition, written out once more: four splitmix64
 * rounds over (4 seed + which, n, i, j), mod 9, minus 4. */
static uint64_t splitmix(uint64_t x)
{
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

static double operand(unsigned long n, unsigned long seed, unsigned which, unsigned long i, unsigned long j)
{
  uint64_t h = splitmix(splitmix(splitmix(splitmix((uint64_t)seed * 4 + which) ^ n) ^ i) ^ j);
  return (double)((int)(h % 9) - 4);
}

/* Entry-wise and row-wise generation give the definition's values, and
 * all nine values occur. */
static void test_operands(void **state)
{
  (void)state;
  unsigned long n = 37, seed = 5;
  double row[37];
  int seen[9] = { 0 };
  for (unsigned long i = 0; i < n; i++) {
    app_matmul_row_a(n, seed, i, row);
    for (unsigned long j = 0; j < n; j++) {
      assert_true(row[j] == operand(n, seed, 1, i, j));
      assert_true(app_matmul_a(n, seed, i, j) == row[j]);
      seen[(int)row[j] + 4]++;
    }
    app_matmul_row_b(n, seed, i, row);
    for (unsigned long j = 0; j < n; j++) {
      assert_true(row[j] == operand(n, seed, 2, i, j));
      assert_true(app_matmul_b(n, seed, i, j) == row[j]);
    }
  }
  for (int v = 0; v < 9; v++) assert_true(seen[v] > 0);
}

/* Brute force: the product by three loops, and primes by trial counting
 * of every divisor, against what the tasks computed. */
static void test_brute_force(void **state)
{
  (void)state;
  app_workload w = { APP_MATMUL, 23, 3, 42 };
  for (size_t p = 0; p < w.nproc; p++) {
    size_t len;
    unsigned char *blob = run_straight(&w, p, &len);
    app_result r;
    assert_int_equal(app_result_decode(blob, len, &r), LB_SUCCESS);
    for (unsigned long i = 0; i < r.nrows; i++)
      for (unsigned long j = 0; j < w.size; j++) {
        double c = 0;
        for (unsigned long k = 0; k < w.size; k++)
          c += operand(w.size, w.seed, 1, r.row0 + i, k) * operand(w.size, w.seed, 2, k, j);
        assert_true(c == r.c[i * w.size + j]);
      }
    app_result_clear(&r);
    free(blob);
  }
  /* pi(1000) = 168, and the primes below 1000 sum to 76127. */
  app_workload pw = { APP_PRIMES, 1000, 4, 0 };
  uint64_t count = 0, sum = 0;
  for (size_t p = 0; p < pw.nproc; p++) {
    size_t len;
    unsigned char *blob = run_straight(&pw, p, &len);
    app_result r;
    assert_int_equal(app_result_decode(blob, len, &r), LB_SUCCESS);
    count += r.count;
    sum += r.sum;
    free(blob);
  }
  assert_int_equal(count, 168);
  assert_int_equal(sum, 76127);
}

/* The blocked kernel against OpenBLAS's dgemm on the same operands, at a
 * size that crosses the kernel's K blocks (256), panels and ragged
 * tiles: integer entries, so the two products agree exactly. */
static void test_against_dgemm(void **state)
{
  (void)state;
  app_workload w = { APP_MATMUL, 300, 4, 9 };
  size_t n = w.size;
  double *a = malloc(n * n * sizeof *a), *b = malloc(n * n * sizeof *b), *c = malloc(n * n * sizeof *c);
  assert_true(a && b && c);
  for (size_t i = 0; i < n; i++) { app_matmul_row_a(n, w.seed, i, a + i * n); app_matmul_row_b(n, w.seed, i, b + i * n); }
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)n, (int)n, (int)n, 1.0, a, (int)n, b, (int)n, 0.0, c,
              (int)n);
  size_t rows = 0;
  for (size_t p = 0; p < w.nproc; p++) {
    size_t len;
    unsigned char *blob = run_straight(&w, p, &len);
    app_result r;
    assert_int_equal(app_result_decode(blob, len, &r), LB_SUCCESS);
    for (size_t e = 0; e < r.nrows * n; e++) assert_true(r.c[e] == c[r.row0 * n + e]);
    rows += r.nrows;
    app_result_clear(&r);
    free(blob);
  }
  assert_int_equal(rows, n);
  free(a); free(b); free(c);
}

/* A wrong result is caught by the verifier. */
static void test_verifier_catches(void **state)
{
  (void)state;
  app_workload w = { APP_MATMUL, 16, 2, 3 };
  app_verifier *v;
  assert_int_equal(app_verify_alloc(&w, &v), LB_SUCCESS);
  size_t len;
  unsigned char *blob = run_straight(&w, 1, &len);
  app_result r;
  assert_int_equal(app_result_decode(blob, len, &r), LB_SUCCESS);
  r.owned[5] += 1.0;
  assert_int_equal(app_verify_result(v, &r), LB_EFORMAT);
  assert_non_null(strstr(lb_errmsg(), "checksums"));
  r.owned[5] -= 1.0;
  assert_int_equal(app_verify_result(v, &r), LB_SUCCESS);
  app_result_clear(&r);
  free(blob);
  app_verify_free(v);

  app_workload pw = { APP_PRIMES, 500, 3, 0 };
  assert_int_equal(app_verify_alloc(&pw, &v), LB_SUCCESS);
  blob = run_straight(&pw, 2, &len);
  assert_int_equal(app_result_decode(blob, len, &r), LB_SUCCESS);
  r.count++;
  assert_int_equal(app_verify_result(v, &r), LB_EFORMAT);
  assert_non_null(strstr(lb_errmsg(), "sieve"));
  free(blob);
  app_verify_free(v);
}

/* Damaged blobs are refused with a reason, never read past their end. */
static void test_damaged_blobs(void **state)
{
  (void)state;
  app_workload w = { APP_MATMUL, 12, 2, 1 };
  app_task *t, *u = NULL;
  assert_int_equal(app_task_alloc(&w, 0, &t), LB_SUCCESS);
  unsigned long ran;
  app_task_run(t, 2, &ran);
  size_t n = app_task_blob_size(t);
  unsigned char *blob = malloc(n);
  assert_int_equal(app_task_save(t, blob, n), LB_SUCCESS);
  assert_int_equal(app_task_save(t, blob, n - 1), LB_ERANGE);
  assert_int_equal(app_task_save(t, blob, n), LB_SUCCESS);
  for (size_t cut = 0; cut < n; cut += 7) {
    assert_int_equal(app_task_load(blob, cut, &u), LB_EFORMAT);
    assert_null(u);
  }
  blob[0] ^= 1;
  assert_int_equal(app_task_load(blob, n, &u), LB_EFORMAT);
  assert_non_null(strstr(lb_errmsg(), "magic"));
  blob[0] ^= 1;
  unsigned char version = blob[4];
  blob[4] = 99;
  assert_int_equal(app_task_load(blob, n, &u), LB_EFORMAT);
  assert_non_null(strstr(lb_errmsg(), "version"));
  blob[4] = version;
  assert_int_equal(app_task_load(blob, n, &u), LB_SUCCESS);
  assert_int_equal(app_task_units_left(u), app_task_units_left(t));
  app_task_free(u);
  free(blob);
  app_task_free(t);
  app_workload bad = { APP_PRIMES, 10, 20, 0 };
  assert_int_equal(app_task_alloc(&bad, 0, &t), LB_ERANGE);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_matmul_quanta),
    cmocka_unit_test(test_matmul_panels),
    cmocka_unit_test(test_against_dgemm),
    cmocka_unit_test(test_primes_quanta),
    cmocka_unit_test(test_operands),
    cmocka_unit_test(test_brute_force),
    cmocka_unit_test(test_verifier_catches),
    cmocka_unit_test(test_damaged_blobs),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
