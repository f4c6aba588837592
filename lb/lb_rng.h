/* lb_rng.h: a seeded random-number source (GSL's MT19937) so that every
 * experiment can be repeated from its seed. */
#ifndef LB_RNG_H
#define LB_RNG_H

#include <stddef.h>
#include <gsl/gsl_rng.h>

typedef struct lb_rng {
  gsl_rng *g;
  unsigned long seed;
} lb_rng;

int lb_rng_alloc(unsigned long seed, lb_rng **out);
void lb_rng_free(lb_rng *r);

/* An independent stream for (seed, stream): used to give every node or
 * instance its own generator without the streams overlapping in use. */
int lb_rng_alloc_stream(unsigned long seed, unsigned long stream, lb_rng **out);

double lb_rng_uniform(lb_rng *r);                        /* [0,1) */
double lb_rng_range(lb_rng *r, double a, double b);      /* [a,b) */
unsigned long lb_rng_below(lb_rng *r, unsigned long n);  /* [0,n), n>0 */
void lb_rng_shuffle(lb_rng *r, size_t *a, size_t n);     /* Fisher-Yates */

#endif
