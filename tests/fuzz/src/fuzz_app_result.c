/* Fuzz target: a result as lbmaster takes it, app_result_decode and then
 * the verifier.  The input is the workload to verify against (u8
 * processes, u8 seed, u32 size: fuzz_sel.h) and the result blob.  A
 * decoded result must be consistent in itself: a finite, non-negative
 * cost (the master adds it up), and for matmul whole rows of C inside
 * the matrix, each entry present.  When the workload is small (matmul of
 * order 64 or less, primes up to 10^5) the master's verifier judges it
 * too, which must not crash whatever it is given. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include "app.h"
#include "app_verify.h"
#include "lb_errno.h"
#include "fuzz_check.h"
#include "fuzz_sel.h"

static void verify(const app_result *r, const uint8_t *pre)
{
  app_workload w = {r->kind,
                    (unsigned long)pre[2] | (unsigned long)pre[3] << 8 | (unsigned long)pre[4] << 16 |
                        (unsigned long)pre[5] << 24,
                    pre[0], pre[1]};
  if (w.size > (w.kind == APP_MATMUL ? 64 : 100000)) return;
  app_verifier *v;
  if (app_verify_alloc(&w, &v)) return;
  int rc = app_verify_result(v, r);
  CHECK(rc == LB_SUCCESS || lb_errmsg()[0] != '\0');
  CHECK(app_verify_accepted(v) == (rc == LB_SUCCESS));
  /* the same result twice is refused */
  if (!rc) CHECK(app_verify_result(v, r) != LB_SUCCESS);
  app_verify_free(v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  if (size < FZ_RESULT_PREFIX) return 0;
  const uint8_t *blob = data + FZ_RESULT_PREFIX;
  size_t len = size - FZ_RESULT_PREFIX;
  app_result r;
  int rc = app_result_decode(blob, len, &r);
  if (rc) {
    CHECK(rc == LB_EFORMAT || rc == LB_ENOMEM);
    CHECK(r.owned == NULL && lb_errmsg()[0] != '\0');
    return 0;
  }
  CHECK(r.kind == APP_MATMUL || r.kind == APP_PRIMES);
  CHECK(isfinite(r.cost) && r.cost >= 0);
  if (r.kind == APP_MATMUL) {
    CHECK(r.n >= 1 && r.n <= 8192 && r.nrows >= 1 && r.nrows <= r.n && r.row0 <= r.n - r.nrows);
    CHECK(r.c && len == 56 + 24 + 8 * (size_t)r.nrows * r.n);
    double s = 0;
    for (size_t k = 0; k < (size_t)r.nrows * r.n; k++) s += r.c[k]; /* every entry is there */
    (void)s;
  }
  verify(&r, data);
  app_result_clear(&r);
  return 0;
}
