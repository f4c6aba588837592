/* app_primes.c: a process tests a range of integers for primality by
 * trial division.  A number m costs up to sqrt(m)/2 divisions, so
 * ranges higher up cost more and numbers within a range differ: the
 * uneven iteration costs that load balancing has to cope with. */
#include <math.h>
#include "app_impl.h"
#include "lb_errno.h"

#define PRIMES_TOP 4000000001ull /* 1 + the largest size of a workload */

static int is_prime(uint64_t m)
{
  if (m < 2) return 0;
  if (m < 4) return 1;
  if (m % 2 == 0) return 0;
  for (uint64_t d = 3; d <= m / d; d += 2)
    if (m % d == 0) return 0;
  return 1;
}

int app_primes_init(app_task *t, const app_workload *w, size_t index)
{
  unsigned long start, count;
  app_split(w->size - 1, w->nproc, index, &start, &count);
  t->lo = 2 + (uint64_t)start; /* numbers 2..size */
  t->total = count;
  return LB_SUCCESS;
}

int app_primes_run(app_task *t, unsigned long units)
{
  uint64_t m = t->lo + t->cursor, end = m + units;
  for (; m < end; m++)
    if (is_prime(m)) {
      t->count++;
      t->sum += m; /* wraps mod 2^64, as the master's sieve does */
    }
  t->cursor += units;
  return LB_SUCCESS;
}

void app_primes_save(const app_task *t, lb_wbuf *b)
{
  lb_w_u64(b, t->lo);
  lb_w_u64(b, t->lo + t->total);
  lb_w_u64(b, t->count);
  lb_w_u64(b, t->sum);
}

int app_primes_load(app_task *t, lb_rbuf *b)
{
  t->lo = lb_r_u64(b);
  uint64_t hi = lb_r_u64(b);
  t->count = lb_r_u64(b);
  t->sum = lb_r_u64(b);
  if (b->bad) return lb_error(LB_EFORMAT, "primes blob truncated");
  if (hi < t->lo || hi - t->lo != t->total || t->count > t->cursor)
    return lb_error(LB_EFORMAT, "primes blob: inconsistent range [%llu, %llu) or count", (unsigned long long)t->lo,
                    (unsigned long long)hi);
  /* Within the largest workload (app_workload_check): beyond it one
   * number may cost 1.5e9 trial divisions (seconds), a process hours. */
  if (t->lo < 2 || hi > PRIMES_TOP)
    return lb_error(LB_EFORMAT, "primes blob: range [%llu, %llu) outside [2, %llu)", (unsigned long long)t->lo,
                    (unsigned long long)hi, PRIMES_TOP);
  return LB_SUCCESS;
}

/* sqrt(m) / ln(m) by the midpoint rule on up to 64 pieces: the function
 * is smooth and slowly varying above 2, so this is within a fraction of
 * a percent of the sum. */
double app_primes_work(uint64_t a, uint64_t b)
{
  if (b <= a) return 0;
  uint64_t n = b - a, pieces = n < 64 ? n : 64;
  double sum = 0;
  for (uint64_t k = 0; k < pieces; k++) {
    uint64_t lo = a + n * k / pieces, hi = a + n * (k + 1) / pieces;
    double mid = 0.5 * ((double)lo + (double)hi - 1);
    if (mid < 2) mid = 2;
    sum += (double)(hi - lo) * sqrt(mid) / log(mid);
  }
  return sum;
}

void app_primes_result(const app_task *t, lb_wbuf *b) { app_primes_save(t, b); }
