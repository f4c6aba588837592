/* app_verify.c: checksums and a sieve, independent of the workers. */
#include <stdlib.h>
#include <string.h>
#include "app_verify.h"
#include "lb_errno.h"

struct app_verifier {
  app_workload w;
  unsigned char *seen;      /* per process */
  unsigned long accepted, rejected;
  long long *bu, *bw;       /* matmul: B.1 and B.w */
  double *row;              /* matmul: a row of A or B */
  uint64_t *count, *sum;    /* primes: per process, from the sieve */
};

static int matmul_prepare(app_verifier *v)
{
  unsigned long n = v->w.size;
  v->bu = calloc(n, sizeof *v->bu);
  v->bw = calloc(n, sizeof *v->bw);
  v->row = malloc(n * sizeof *v->row);
  if (!v->bu || !v->bw || !v->row) return lb_error(LB_ENOMEM, "checksum vectors");
  for (unsigned long k = 0; k < n; k++) {
    app_matmul_row_b(n, v->w.seed, k, v->row);
    for (unsigned long j = 0; j < n; j++) {
      long long b = (long long)v->row[j];
      v->bu[k] += b;
      v->bw[k] += b * (long long)(j + 1);
    }
  }
  return LB_SUCCESS;
}

/* Odd-only sieve up to `size`, then count and sum per process range. */
static int primes_prepare(app_verifier *v)
{
  unsigned long size = v->w.size, np = v->w.nproc;
  size_t half = size / 2 + 1;                 /* index i stands for 2i+1 */
  unsigned char *composite = calloc(half, 1);
  v->count = calloc(np, sizeof *v->count);
  v->sum = calloc(np, sizeof *v->sum);
  if (!composite || !v->count || !v->sum) { free(composite); return lb_error(LB_ENOMEM, "sieve of %lu", size); }
  for (uint64_t p = 3; p * p <= size; p += 2)
    if (!composite[p / 2])
      for (uint64_t q = p * p; q <= size; q += 2 * p) composite[q / 2] = 1;
  for (unsigned long i = 0; i < np; i++) {
    unsigned long start, cnt;
    app_split(size - 1, np, i, &start, &cnt);
    uint64_t lo = 2 + (uint64_t)start, hi = lo + cnt;
    for (uint64_t m = lo; m < hi; m++) {
      int prime = m == 2 || (m % 2 && m > 1 && !composite[m / 2]);
      if (prime) { v->count[i]++; v->sum[i] += m; }
    }
  }
  free(composite);
  return LB_SUCCESS;
}

int app_verify_alloc(const app_workload *w, app_verifier **out)
{
  int s = app_workload_check(w);
  if (s) return s;
  app_verifier *v = calloc(1, sizeof *v);
  if (!v) return lb_error(LB_ENOMEM, "verifier");
  v->w = *w;
  v->seen = calloc(w->nproc, 1);
  s = v->seen ? (w->kind == APP_MATMUL ? matmul_prepare(v) : primes_prepare(v))
              : lb_error(LB_ENOMEM, "verifier");
  if (s) { app_verify_free(v); return s; }
  *out = v;
  return LB_SUCCESS;
}

void app_verify_free(app_verifier *v)
{
  if (!v) return;
  free(v->seen);
  free(v->bu);
  free(v->bw);
  free(v->row);
  free(v->count);
  free(v->sum);
  free(v);
}

static int check_matmul(app_verifier *v, const app_result *r)
{
  unsigned long n = v->w.size, row0, nrows;
  app_split(n, v->w.nproc, (unsigned long)r->id, &row0, &nrows);
  if (r->n != n || r->row0 != row0 || r->nrows != nrows)
    return lb_error(LB_EFORMAT, "process %llu returned rows %lu+%lu of order %lu, expected %lu+%lu of %lu",
                    (unsigned long long)r->id, r->row0, r->nrows, r->n, row0, nrows, n);
  for (unsigned long i = 0; i < nrows; i++) {
    long long eu = 0, ew = 0;
    app_matmul_row_a(n, v->w.seed, row0 + i, v->row);
    for (unsigned long k = 0; k < n; k++) {
      long long a = (long long)v->row[k];
      eu += a * v->bu[k];
      ew += a * v->bw[k];
    }
    /* C's entries are integers below 2^53: the sums are exact. */
    double gu = 0, gw = 0;
    for (unsigned long j = 0; j < n; j++) {
      gu += r->c[i * n + j];
      gw += r->c[i * n + j] * (double)(j + 1);
    }
    if (gu != (double)eu || gw != (double)ew)
      return lb_error(LB_EFORMAT, "row %lu of C fails its checksums (%.17g vs %lld, %.17g vs %lld)",
                      row0 + i, gu, eu, gw, ew);
  }
  return LB_SUCCESS;
}

static int check_primes(const app_verifier *v, const app_result *r)
{
  unsigned long start, cnt;
  app_split(v->w.size - 1, v->w.nproc, (unsigned long)r->id, &start, &cnt);
  uint64_t lo = 2 + (uint64_t)start;
  if (r->lo != lo || r->hi != lo + cnt)
    return lb_error(LB_EFORMAT, "process %llu returned range [%llu, %llu), expected [%llu, %llu)",
                    (unsigned long long)r->id, (unsigned long long)r->lo, (unsigned long long)r->hi,
                    (unsigned long long)lo, (unsigned long long)(lo + cnt));
  if (r->count != v->count[r->id] || r->sum != v->sum[r->id])
    return lb_error(LB_EFORMAT, "range [%llu, %llu): %llu primes (sum %llu), the sieve says %llu (sum %llu)",
                    (unsigned long long)r->lo, (unsigned long long)r->hi, (unsigned long long)r->count,
                    (unsigned long long)r->sum, (unsigned long long)v->count[r->id],
                    (unsigned long long)v->sum[r->id]);
  return LB_SUCCESS;
}

int app_verify_result(app_verifier *v, const app_result *r)
{
  int s;
  if (r->kind != v->w.kind)
    s = lb_error(LB_EFORMAT, "a %s result in a %s run", app_kind_name(r->kind), app_kind_name(v->w.kind));
  else if (r->id >= v->w.nproc)
    s = lb_error(LB_EFORMAT, "result for process %llu of %lu", (unsigned long long)r->id, v->w.nproc);
  else if (v->seen[r->id])
    s = lb_error(LB_EFORMAT, "process %llu returned twice", (unsigned long long)r->id);
  else
    s = r->kind == APP_MATMUL ? check_matmul(v, r) : check_primes(v, r);
  if (s) { v->rejected++; return s; }
  v->seen[r->id] = 1;
  v->accepted++;
  return LB_SUCCESS;
}

unsigned long app_verify_accepted(const app_verifier *v) { return v->accepted; }
unsigned long app_verify_rejected(const app_verifier *v) { return v->rejected; }
