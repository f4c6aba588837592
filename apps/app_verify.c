/* app_verify.c: the master's checks, independent of the workers:
 * Freivalds' test for matmul under a secret the workers never see, a
 * sieve for primes.  The bound is derived in docs/FARM.md ("The
 * verification bound"). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include "app_operand.h"
#include "app_verify.h"
#include "lb_errno.h"

/* The field: p = 2^61 - 1, a Mersenne prime, so a residue fits in 61
 * bits and a 128-bit sum reduces with shifts and masks. */
#define P61 ((UINT64_C(1) << 61) - 1)

struct app_verifier {
  app_workload w;
  unsigned char *seen; /* per process */
  unsigned long accepted, rejected;
  uint64_t *r;           /* matmul: the secret vector, uniform in Z_p^n */
  uint64_t *br;          /* matmul: B r mod p */
  uint64_t *count, *sum; /* primes: per process, from the sieve */
};

/* v mod p in [0, p), for any v. */
static uint64_t mod_p(__int128 v)
{
  int neg = v < 0;
  unsigned __int128 u = neg ? -(unsigned __int128)v : (unsigned __int128)v;
  u = (u & P61) + (u >> 61); /* < 2^61 + 2^67 */
  u = (u & P61) + (u >> 61); /* < 2^61 + 2^6 */
  uint64_t m = (uint64_t)u;
  if (m >= P61) m -= P61;
  return neg && m ? P61 - m : m;
}

/* The sums below are over the integers, of terms x_j r_j with |x_j| <=
 * 2^33 (entries of A, B or C) and r_j < 2^61: each term is below 2^94
 * and n <= 2^13 terms below 2^107, so a 128-bit sum is exact, reduced
 * once. */

/* Row `key` of an operand times r, mod p: the entries made on the fly. */
static uint64_t operand_dot(uint64_t key, const uint64_t *r, unsigned long n)
{
  __int128 acc = 0;
  for (unsigned long j = 0; j < n; j++) acc += (__int128)app_operand(key, j) * (int64_t)r[j];
  return mod_p(acc);
}

/* A row of C times r, mod p, and whether every entry is an integer in
 * [-bound, bound] (bound < 2^53): *bad gets the first that is not, or
 * n.  Out-of-range values are not converted (that is undefined). */
static uint64_t result_dot(const double *c, const uint64_t *r, unsigned long n, double bound, unsigned long *bad)
{
  __int128 acc = 0;
  int ok = 1;
  for (unsigned long j = 0; j < n; j++) {
    int in = c[j] >= -bound && c[j] <= bound; /* NaN is not */
    int64_t x = (int64_t)(in ? c[j] : 0.0);
    ok &= in & ((double)x == c[j]);
    acc += (__int128)x * (int64_t)r[j];
  }
  *bad = n;
  if (!ok)
    for (unsigned long j = 0; j < n && *bad == n; j++)
      if (!(c[j] >= -bound && c[j] <= bound) || (double)(int64_t)c[j] != c[j]) *bad = j;
  return mod_p(acc);
}

/* Uniform residues from the kernel's generator (getrandom: never a
 * seed the workers could know or guess): 61 random bits each, the one
 * value p itself drawn again. */
static int draw_secret(uint64_t *r, unsigned long n)
{
  size_t got = 0, len = n * sizeof *r;
  while (got < len) {
    ssize_t k = getrandom((unsigned char *)r + got, len - got, 0);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return lb_error(LB_EIO, "getrandom: %s", k < 0 ? strerror(errno) : "no bytes");
    got += (size_t)k;
  }
  for (unsigned long j = 0; j < n; j++)
    while ((r[j] >>= 3) == P61)
      if (getrandom(&r[j], sizeof r[j], 0) != (ssize_t)sizeof r[j]) return lb_error(LB_EIO, "getrandom failed");
  return LB_SUCCESS;
}

/* The run's secret r, and B r mod p: n^2 multiply-adds, once per run. */
static int matmul_prepare(app_verifier *v)
{
  unsigned long n = v->w.size;
  v->r = malloc(n * sizeof *v->r);
  v->br = malloc(n * sizeof *v->br);
  if (!v->r || !v->br) return lb_error(LB_ENOMEM, "verification vectors");
  int s = draw_secret(v->r, n);
  if (s) return s;
  for (unsigned long k = 0; k < n; k++) v->br[k] = operand_dot(app_operand_key(n, v->w.seed, 2, k), v->r, n);
  return LB_SUCCESS;
}

/* Odd-only sieve up to `size`, then count and sum per process range. */
static int primes_prepare(app_verifier *v)
{
  unsigned long size = v->w.size, np = v->w.nproc;
  size_t half = size / 2 + 1; /* index i stands for 2i+1 */
  unsigned char *composite = calloc(half, 1);
  v->count = calloc(np, sizeof *v->count);
  v->sum = calloc(np, sizeof *v->sum);
  if (!composite || !v->count || !v->sum) {
    free(composite);
    return lb_error(LB_ENOMEM, "sieve of %lu", size);
  }
  for (uint64_t p = 3; p * p <= size; p += 2)
    if (!composite[p / 2])
      for (uint64_t q = p * p; q <= size; q += 2 * p) composite[q / 2] = 1;
  for (unsigned long i = 0; i < np; i++) {
    unsigned long start, cnt;
    app_split(size - 1, np, i, &start, &cnt);
    uint64_t lo = 2 + (uint64_t)start, hi = lo + cnt;
    for (uint64_t m = lo; m < hi; m++) {
      int prime = m == 2 || (m % 2 && m > 1 && !composite[m / 2]);
      if (prime) {
        v->count[i]++;
        v->sum[i] += m;
      }
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
  s = v->seen ? (w->kind == APP_MATMUL ? matmul_prepare(v) : primes_prepare(v)) : lb_error(LB_ENOMEM, "verifier");
  if (s) {
    app_verify_free(v);
    return s;
  }
  *out = v;
  return LB_SUCCESS;
}

void app_verify_free(app_verifier *v)
{
  if (!v) return;
  free(v->seen);
  free(v->r);
  free(v->br);
  free(v->count);
  free(v->sum);
  free(v);
}

/* Rows of C, each checked as C_i r = A_i (B r) mod p, once its entries
 * are known to be integers within the bound: a wrong row passes with
 * probability 1/p (docs/FARM.md, "The verification bound"). */
static int check_matmul(app_verifier *v, const app_result *r)
{
  unsigned long n = v->w.size, row0, nrows;
  app_split(n, v->w.nproc, (unsigned long)r->id, &row0, &nrows);
  if (r->n != n || r->row0 != row0 || r->nrows != nrows || !r->c)
    return lb_error(LB_EFORMAT, "process %llu returned rows %lu+%lu of order %lu, expected %lu+%lu of %lu",
                    (unsigned long long)r->id, r->row0, r->nrows, r->n, row0, nrows, n);
  double bound = (double)n * APP_MATMUL_ENTRY_MAX * APP_MATMUL_ENTRY_MAX;
  for (unsigned long i = 0; i < nrows; i++) {
    const double *c = r->c + (size_t)i * n;
    unsigned long j;
    uint64_t got = result_dot(c, v->r, n, bound, &j);
    if (j < n)
      return lb_error(LB_EFORMAT, "C(%lu, %lu) = %.17g is not an integer in [-%.0f, %.0f]", row0 + i, j, c[j], bound,
                      bound);
    uint64_t want = operand_dot(app_operand_key(n, v->w.seed, 1, row0 + i), v->br, n);
    if (got != want)
      return lb_error(LB_EFORMAT, "row %lu of C fails Freivalds' test: C r != A (B r) mod 2^61 - 1", row0 + i);
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
                    (unsigned long long)r->sum, (unsigned long long)v->count[r->id], (unsigned long long)v->sum[r->id]);
  return LB_SUCCESS;
}

int app_verify_result(app_verifier *v, const app_result *r)
{
  int s;
  if (r->kind != v->w.kind)
    s = lb_error(LB_EFORMAT, "a %s result in a %s run", app_kind_name(r->kind), app_kind_name(v->w.kind));
  else if (r->id >= v->w.nproc)
    s = lb_error(LB_EFORMAT, "result for process %llu of %lu", (unsigned long long)r->id, v->w.nproc);
  else if (v->seen[r->id]) s = lb_error(LB_EFORMAT, "process %llu returned twice", (unsigned long long)r->id);
  else s = r->kind == APP_MATMUL ? check_matmul(v, r) : check_primes(v, r);
  if (s) {
    v->rejected++;
    return s;
  }
  v->seen[r->id] = 1;
  v->accepted++;
  return LB_SUCCESS;
}

unsigned long app_verify_accepted(const app_verifier *v) { return v->accepted; }
unsigned long app_verify_rejected(const app_verifier *v) { return v->rejected; }
