/* lb_rng.c: gsl_rng_mt19937, or xoshiro256** (Blackman and Vigna) for
 * the small kind. */
#include <stdlib.h>
#include <gsl/gsl_errno.h>
#include "lb_rng.h"
#include "lb_errno.h"

int lb_rng_alloc(unsigned long seed, lb_rng **out)
{
  lb_rng *r = calloc(1, sizeof *r);
  if (!r) return lb_error(LB_ENOMEM, "lb_rng_alloc: out of memory");
  r->g = gsl_rng_alloc(gsl_rng_mt19937);
  if (!r->g) {
    free(r);
    return lb_error(LB_ENOMEM, "lb_rng_alloc: out of memory");
  }
  gsl_set_error_handler_off(); /* errors come back as status codes */
  gsl_rng_set(r->g, seed);
  r->seed = seed;
  *out = r;
  return LB_SUCCESS;
}

/* SplitMix64: its finaliser spreads (seed, stream) so nearby pairs give
 * unrelated seeds; its sequence fills the small kind's state. */
static uint64_t splitmix(uint64_t *x)
{
  uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

static unsigned long mix(uint64_t z) { return (unsigned long)splitmix(&z); }

int lb_rng_alloc_stream(unsigned long seed, unsigned long stream, lb_rng **out)
{
  return lb_rng_alloc(mix(mix(seed) ^ stream), out);
}

void lb_rng_init_small(lb_rng *r, unsigned long seed, unsigned long stream)
{
  uint64_t x = mix(mix(seed) ^ stream);
  r->g = NULL;
  r->seed = (unsigned long)x;
  for (int k = 0; k < 4; k++) r->s[k] = splitmix(&x);
  if (!(r->s[0] | r->s[1] | r->s[2] | r->s[3])) r->s[0] = 1; /* the one state xoshiro must avoid */
}

void lb_rng_free(lb_rng *r)
{
  if (!r) return;
  gsl_rng_free(r->g);
  free(r);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static uint64_t next64(lb_rng *r)
{
  uint64_t *s = r->s, out = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 45);
  return out;
}

double lb_rng_uniform(lb_rng *r) { return r->g ? gsl_rng_uniform(r->g) : (double)(next64(r) >> 11) * 0x1.0p-53; }

double lb_rng_range(lb_rng *r, double a, double b) { return a + (b - a) * lb_rng_uniform(r); }

/* [0, n) without bias: Lemire's multiply-and-shift with rejection. */
static uint64_t below64(lb_rng *r, uint64_t n)
{
  unsigned __int128 m = (unsigned __int128)next64(r) * n;
  if ((uint64_t)m < n) {
    uint64_t floor = -n % n;
    while ((uint64_t)m < floor) m = (unsigned __int128)next64(r) * n;
  }
  return (uint64_t)(m >> 64);
}

unsigned long lb_rng_below(lb_rng *r, unsigned long n)
{
  if (n <= 1) return 0; /* GSL would call its error handler for n == 0 */
  return r->g ? gsl_rng_uniform_int(r->g, n) : (unsigned long)below64(r, n);
}

void lb_rng_shuffle(lb_rng *r, size_t *a, size_t n)
{
  for (size_t i = n; i > 1; i--) {
    size_t j = lb_rng_below(r, i);
    size_t tmp = a[i - 1];
    a[i - 1] = a[j];
    a[j] = tmp;
  }
}
