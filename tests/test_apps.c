/* The farm's workloads: a run in one go, quantum by quantum, and with
 * a save/load round trip (a migration) after every quantum give
 * bit-identical results, equal to one cblas_dgemm of the block, and the
 * master's independent verifier (and a brute-force product / trial
 * count here) agrees.  The reference dgemm is OpenBLAS's (checked). */
#include <dirent.h>
#include <stdlib.h>
#include <unistd.h>
#include "testutil.h"
#include "app.h"
#include "app_blas.h"
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

/* The units a run of q advances: whole values of k for matmul (its
 * block's rows each), at least the task's step, at most what is left. */
static unsigned long expect_ran(const app_workload *w, app_task *t, unsigned long q)
{
  unsigned long g = w->kind == APP_MATMUL ? app_task_units_total(t) / w->size : 1;
  unsigned long want = q / g * g, step = app_task_step(t), left = app_task_units_left(t);
  if (want < step) want = step;
  return want < left ? want : left;
}

/* Run in quanta of 1, 2, 3, 4, 9, 25, 1000, 20000 units; with `migrate`,
 * save the task to a blob and load a new one from it after every
 * quantum, as a move to another host does. */
static unsigned char *run_quanta(const app_workload *w, size_t i, int migrate, size_t *len)
{
  static const unsigned long qs[] = {1, 2, 3, 4, 9, 25, 1000, 20000};
  app_task *t;
  assert_int_equal(app_task_alloc(w, i, &t), LB_SUCCESS);
  unsigned long quanta = 0;
  while (!app_task_finished(t)) {
    unsigned long q = qs[quanta % 8], ran, want = expect_ran(w, t, q);
    assert_int_equal(app_task_run(t, q, &ran), LB_SUCCESS);
    assert_int_equal(ran, want);
    quanta++;
    if (!migrate) continue;
    size_t n = app_task_blob_size(t);
    unsigned char *blob = malloc(n);
    assert_int_equal(app_task_save(t, blob, n), LB_SUCCESS);
    app_task_free(t);
    memset(&t, 0, sizeof t);
    assert_int_equal(app_task_load(blob, n, &t), LB_SUCCESS);
    app_task_add_hop(t);
    free(blob);
  }
  assert_true(quanta > 1);
  assert_int_equal(app_task_hops(t), migrate ? quanta : 0);
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
    size_t la, lb, lc;
    unsigned char *a = run_straight(w, i, &la);
    unsigned char *b = run_quanta(w, i, 1, &lb);
    unsigned char *c = run_quanta(w, i, 0, &lc);
    assert_int_equal(la, lb);
    assert_int_equal(la, lc);
    app_result ra, rb;
    assert_int_equal(app_result_decode(a, la, &ra), LB_SUCCESS);
    assert_int_equal(app_result_decode(b, lb, &rb), LB_SUCCESS);
    assert_int_equal(ra.hops, 0);
    assert_true(rb.hops > 0);
    /* Bit-identical apart from the hop count (bytes 16..19 of the head). */
    memset(a + 16, 0, 4);
    memset(b + 16, 0, 4);
    assert_memory_equal(a, b, la);
    assert_memory_equal(a, c, la);
    assert_int_equal(app_verify_result(v, &ra), LB_SUCCESS);
    /* The same result twice is a duplicate. */
    assert_int_equal(app_verify_result(v, &rb), LB_EFORMAT);
    app_result_clear(&ra);
    app_result_clear(&rb);
    free(a);
    free(b);
    free(c);
  }
  assert_int_equal(app_verify_accepted(v), w->nproc);
  assert_int_equal(app_verify_rejected(v), w->nproc);
  app_verify_free(v);
}

static void test_matmul_quanta(void **state)
{
  (void)state;
  app_workload w = {APP_MATMUL, 37, 5, 7};
  check_workload(&w);
}

/* Panels of k are cut into dgemm calls of at most 256 and B is built
 * 64 rows at a time: blocks of 200 rows whose quanta start and end
 * inside and across both. */
static void test_matmul_panels(void **state)
{
  (void)state;
  app_workload w = {APP_MATMUL, 600, 3, 11};
  check_workload(&w);
}

static void test_primes_quanta(void **state)
{
  (void)state;
  app_workload w = {APP_PRIMES, 3000, 7, 1};
  check_workload(&w);
}

/* The operands' definition, written out once more: four splitmix64
 * rounds over (4 seed + which, n, i, j), the low 11 bits, minus 1024. */
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
  return (double)((int)(h % 2048) - 1024);
}

/* Entry-wise and row-wise generation give the definition's values, and
 * at n = 256 (2^16 entries of each operand) all 2048 values occur. */
static void test_operands(void **state)
{
  (void)state;
  unsigned long n = 256, seed = 5;
  double row[256];
  int seen[2][2048] = {{0}};
  for (unsigned long i = 0; i < n; i++)
    for (unsigned which = 1; which <= 2; which++) {
      (which == 1 ? app_matmul_row_a : app_matmul_row_b)(n, seed, i, row);
      for (unsigned long j = 0; j < n; j++) {
        assert_true(row[j] == operand(n, seed, which, i, j));
        assert_true((which == 1 ? app_matmul_a : app_matmul_b)(n, seed, i, j) == row[j]);
        seen[which - 1][(int)row[j] + 1024]++;
      }
    }
  for (int v = 0; v < 2048; v++) assert_true(seen[0][v] > 0 && seen[1][v] > 0);
  assert_int_equal(APP_MATMUL_ENTRY_MAX, 1024);
}

/* Brute force: the product by three loops, and primes by trial counting
 * of every divisor, against what the tasks computed. */
static void test_brute_force(void **state)
{
  (void)state;
  app_workload w = {APP_MATMUL, 23, 3, 42};
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
  app_workload pw = {APP_PRIMES, 1000, 4, 0};
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

/* The reference is OpenBLAS: GSL's reference CBLAS (libgslcblas) also
 * defines cblas_dgemm, and whichever comes first on the link line is
 * the one called.  app_blas_check names the shared object. */
static void test_blas_is_openblas(void **state)
{
  (void)state;
  char what[512];
  int rc = app_blas_check(what, sizeof what);
  if (rc) fail_msg("%s", lb_errmsg());
  assert_non_null(strstr(what, "OpenBLAS"));
  assert_non_null(strstr(what, "openblas"));
}

/* main ran app_blas_one_thread: OpenBLAS, loaded again with the
 * variable set (the program run again under its own name), started no
 * helper thread (without it, one per further
 * core: this machine's count shows in the message). */
static void test_one_blas_thread(void **state)
{
  (void)state;
  const char *v = getenv("OPENBLAS_NUM_THREADS");
  assert_non_null(v);
  assert_string_equal(v, "1");
  DIR *d = opendir("/proc/self/task");
  if (!d) skip();
  int n = 0;
  for (struct dirent *e; (e = readdir(d));)
    if (e->d_name[0] != '.') n++;
  closedir(d);
  if (n != 1) fail_msg("%d threads (%ld CPUs online)", n, sysconf(_SC_NPROCESSORS_ONLN));
  /* ps and pgrep still know it by its name */
  char comm[64] = "";
  FILE *f = fopen("/proc/self/comm", "r");
  assert_non_null(f);
  assert_non_null(fgets(comm, sizeof comm, f));
  fclose(f);
  assert_string_equal(comm, "test_apps\n");
}

/* A block run panel by panel, in quanta and with a migration after
 * every quantum, is bit for bit one cblas_dgemm of the block (and of
 * the whole matrix), at a size that crosses the dgemm calls' panels
 * (256) and B's chunks (64). */
static void test_against_dgemm(void **state)
{
  (void)state;
  app_workload w = {APP_MATMUL, 300, 4, 9};
  size_t n = w.size;
  double *a = malloc(n * n * sizeof *a), *b = malloc(n * n * sizeof *b), *c = malloc(n * n * sizeof *c),
         *cb = malloc(n * n * sizeof *cb);
  assert_true(a && b && c && cb);
  for (size_t i = 0; i < n; i++) {
    app_matmul_row_a(n, w.seed, i, a + i * n);
    app_matmul_row_b(n, w.seed, i, b + i * n);
  }
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)n, (int)n, (int)n, 1.0, a, (int)n, b, (int)n, 0.0, c,
              (int)n);
  size_t rows = 0;
  for (size_t p = 0; p < w.nproc; p++) {
    for (int how = 0; how < 3; how++) {
      size_t len;
      unsigned char *blob = how == 0 ? run_straight(&w, p, &len) : run_quanta(&w, p, how == 2, &len);
      app_result r;
      assert_int_equal(app_result_decode(blob, len, &r), LB_SUCCESS);
      cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)r.nrows, (int)n, (int)n, 1.0, a + r.row0 * n, (int)n,
                  b, (int)n, 0.0, cb, (int)n);
      assert_memory_equal(r.c, cb, r.nrows * n * sizeof *cb);
      assert_memory_equal(r.c, c + r.row0 * n, r.nrows * n * sizeof *c);
      if (how == 0) rows += r.nrows;
      app_result_clear(&r);
      free(blob);
    }
  }
  assert_int_equal(rows, n);
  free(a);
  free(b);
  free(c);
  free(cb);
}

/* A matmul process advances by at least 16 values of k, in whole values
 * of k; the step shrinks to what is left at the end. */
static void test_step(void **state)
{
  (void)state;
  app_workload w = {APP_MATMUL, 40, 4, 3}; /* blocks of 10 rows */
  app_task *t;
  unsigned long ran;
  assert_int_equal(app_task_alloc(&w, 1, &t), LB_SUCCESS);
  assert_int_equal(app_task_step(t), 160);
  assert_int_equal(app_task_run(t, 1, &ran), LB_SUCCESS);
  assert_int_equal(ran, 160);
  assert_int_equal(app_task_run(t, 219, &ran), LB_SUCCESS);
  assert_int_equal(ran, 210);
  assert_int_equal(app_task_step(t), 30); /* 3 values of k left */
  assert_int_equal(app_task_run(t, 1, &ran), LB_SUCCESS);
  assert_int_equal(ran, 30);
  assert_true(app_task_finished(t));
  assert_int_equal(app_task_step(t), 0);
  app_task_free(t);
  app_workload pw = {APP_PRIMES, 100, 2, 0};
  assert_int_equal(app_task_alloc(&pw, 0, &t), LB_SUCCESS);
  assert_int_equal(app_task_step(t), 1);
  app_task_free(t);
}

/* Damaged blobs are refused with a reason, never read past their end. */
static void test_damaged_blobs(void **state)
{
  (void)state;
  app_workload w = {APP_MATMUL, 40, 2, 1};
  app_task *t, *u = NULL;
  assert_int_equal(app_task_alloc(&w, 0, &t), LB_SUCCESS);
  unsigned long ran;
  assert_int_equal(app_task_run(t, 2, &ran), LB_SUCCESS);
  assert_false(app_task_finished(t));
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
  app_workload bad = {APP_PRIMES, 10, 20, 0};
  assert_int_equal(app_task_alloc(&bad, 0, &t), LB_ERANGE);
}

int main(int argc, char **argv)
{
  (void)argc;
  app_blas_one_thread(argv);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_matmul_quanta),    cmocka_unit_test(test_matmul_panels),
      cmocka_unit_test(test_blas_is_openblas), cmocka_unit_test(test_one_blas_thread),
      cmocka_unit_test(test_against_dgemm),    cmocka_unit_test(test_step),
      cmocka_unit_test(test_primes_quanta),    cmocka_unit_test(test_operands),
      cmocka_unit_test(test_brute_force),      cmocka_unit_test(test_damaged_blobs),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
