/* Fuzz target: a process context as a worker resumes it, app_task_load,
 * whoever sent it.  A loaded task must lie within what a workload can
 * make (app_workload_check's sizes), save back to the same bytes (but
 * the reserved word), and survive what the worker does next: a short run
 * (one panel of a matmul block of order 128 or less; four numbers of a
 * primes range), a save that loads again to the same cursor, and when it
 * finishes, a result that the master's decoder reads back.  A failure
 * must be LB_EFORMAT (or LB_ENOMEM) with a message. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include "app_impl.h"
#include "lb_errno.h"
#include "fuzz_check.h"

#define RESERVED    20 /* offset of the head's reserved word */
#define PRIMES_TOP  4000000001ull
#define CHEAP_ORDER 128

static void check_task(const app_task *t)
{
  CHECK(t->kind == APP_MATMUL || t->kind == APP_PRIMES);
  CHECK(t->cursor <= t->total && isfinite(t->cost) && t->cost >= 0);
  if (t->kind == APP_MATMUL) {
    CHECK(t->n >= 1 && t->n <= 8192 && t->total % t->n == 0);
    uint64_t rows = t->total / t->n;
    CHECK(rows >= 1 && rows <= t->n && t->row0 + rows <= t->n && t->cursor % rows == 0);
  } else {
    CHECK(t->lo >= 2 && t->lo + t->total <= PRIMES_TOP && t->count <= t->cursor);
  }
}

static unsigned char *save(const app_task *t, size_t *n)
{
  *n = app_task_blob_size(t);
  unsigned char *b = malloc(*n);
  CHECK(b && app_task_save(t, b, *n) == LB_SUCCESS);
  return b;
}

/* The result of a finished task reads back in the master's decoder. */
static void check_result(const app_task *t)
{
  size_t n = app_task_result_size(t);
  unsigned char *b = malloc(n);
  CHECK(b && app_task_result(t, b, n) == LB_SUCCESS);
  app_result r;
  CHECK(app_result_decode(b, n, &r) == LB_SUCCESS);
  CHECK(r.kind == t->kind && r.id == t->id);
  if (r.kind == APP_MATMUL) CHECK(r.n == t->n && r.row0 == t->row0 && r.nrows * r.n == t->total);
  else CHECK(r.lo == t->lo && r.hi == t->lo + t->total && r.count == t->count);
  app_result_clear(&r);
  free(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  app_task *t = NULL;
  int rc = app_task_load(data, size, &t);
  if (rc) {
    CHECK(rc == LB_EFORMAT || rc == LB_ENOMEM);
    CHECK(t == NULL && lb_errmsg()[0] != '\0');
    return 0;
  }
  check_task(t);
  size_t n;
  unsigned char *b = save(t, &n);
  CHECK(n == size && !memcmp(b, data, RESERVED) && !memcmp(b + RESERVED + 4, data + RESERVED + 4, n - RESERVED - 4));
  free(b);
  int cheap = t->kind == APP_PRIMES || t->n <= CHEAP_ORDER;
  if (cheap && !app_task_finished(t)) {
    uint64_t before = t->cursor;
    unsigned long ran;
    unsigned long units = t->kind == APP_PRIMES ? 4 : (unsigned long)(t->total / t->n);
    CHECK(app_task_run(t, units, &ran) == LB_SUCCESS);
    CHECK(ran >= 1 && t->cursor == before + ran);
    check_task(t);
    b = save(t, &n);
    app_task *u = NULL;
    CHECK(app_task_load(b, n, &u) == LB_SUCCESS);
    CHECK(u->cursor == t->cursor && u->total == t->total && u->id == t->id);
    app_task_free(u);
    free(b);
  }
  if (cheap && app_task_finished(t)) check_result(t);
  app_task_free(t);
  return 0;
}
