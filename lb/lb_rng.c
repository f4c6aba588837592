/* lb_rng.c: thin wrapper over gsl_rng_mt19937. */
#include <stdlib.h>
#include <gsl/gsl_errno.h>
#include "lb_rng.h"
#include "lb_errno.h"

int lb_rng_alloc(unsigned long seed, lb_rng **out)
{
  lb_rng *r = malloc(sizeof *r);
  if (!r) return lb_error(LB_ENOMEM, "lb_rng_alloc: out of memory");
  r->g = gsl_rng_alloc(gsl_rng_mt19937);
  if (!r->g) { free(r); return lb_error(LB_ENOMEM, "lb_rng_alloc: out of memory"); }
  gsl_set_error_handler_off();  /* errors come back as status codes */
  gsl_rng_set(r->g, seed);
  r->seed = seed;
  *out = r;
  return LB_SUCCESS;
}

/* SplitMix64 finaliser: spreads (seed, stream) so nearby pairs give
 * unrelated MT19937 seeds. */
static unsigned long mix(unsigned long long z)
{
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return (unsigned long)(z ^ (z >> 31));
}

int lb_rng_alloc_stream(unsigned long seed, unsigned long stream, lb_rng **out)
{
  return lb_rng_alloc(mix(mix(seed) ^ stream), out);
}

void lb_rng_free(lb_rng *r)
{
  if (!r) return;
  gsl_rng_free(r->g);
  free(r);
}

double lb_rng_uniform(lb_rng *r) { return gsl_rng_uniform(r->g); }

double lb_rng_range(lb_rng *r, double a, double b)
{
  return a + (b - a) * gsl_rng_uniform(r->g);
}

unsigned long lb_rng_below(lb_rng *r, unsigned long n)
{
  if (n <= 1) return 0;  /* GSL would call its error handler for n == 0 */
  return gsl_rng_uniform_int(r->g, n);
}

void lb_rng_shuffle(lb_rng *r, size_t *a, size_t n)
{
  for (size_t i = n; i > 1; i--) {
    size_t j = gsl_rng_uniform_int(r->g, i);
    size_t tmp = a[i - 1];
    a[i - 1] = a[j];
    a[j] = tmp;
  }
}
