/* lb_rng.h: seeded random-number sources, so that every experiment can
 * be repeated from its seed.
 *
 * Two kinds behind one interface:
 * - GSL's MT19937 (lb_rng_alloc, lb_rng_alloc_stream): about 5 KB of
 *   state, for the few long streams of a run (loads, message jitter,
 *   random graphs, workloads);
 * - xoshiro256** (lb_rng_init_small): 32 bytes of state set in place,
 *   nothing allocated, for the many short streams of per-node decisions
 *   (a million-node run has a million of them).
 * Both kinds are fixed by (seed, stream); the same seed gives the same
 * numbers on every platform. */
#ifndef LB_RNG_H
#define LB_RNG_H

#include <stddef.h>
#include <stdint.h>
#include <gsl/gsl_rng.h>

typedef struct lb_rng {
  gsl_rng *g;    /* MT19937, or NULL for the small kind */
  uint64_t s[4]; /* xoshiro256** state (small kind) */
  unsigned long seed;
} lb_rng;

int lb_rng_alloc(unsigned long seed, lb_rng **out);
void lb_rng_free(lb_rng *r);

/* An independent stream for (seed, stream): used to give every node or
 * instance its own generator without the streams overlapping in use. */
int lb_rng_alloc_stream(unsigned long seed, unsigned long stream, lb_rng **out);

/* The small kind for (seed, stream), set in *r wherever the caller keeps
 * it (inside a larger structure); it owns nothing, so it is never passed
 * to lb_rng_free. */
void lb_rng_init_small(lb_rng *r, unsigned long seed, unsigned long stream);

double lb_rng_uniform(lb_rng *r);                       /* [0,1) */
double lb_rng_range(lb_rng *r, double a, double b);     /* [a,b) */
unsigned long lb_rng_below(lb_rng *r, unsigned long n); /* [0,n), n>0 */
void lb_rng_shuffle(lb_rng *r, size_t *a, size_t n);    /* Fisher-Yates */

#endif
