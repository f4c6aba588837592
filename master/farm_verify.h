/* farm_verify.h: the master's independent check of every result.
 *
 * It shares no arithmetic with the workers: matmul rows are checked by
 * two row checksums, C.1 = A.(B.1) and C.w = A.(B.w) with w_j = j+1,
 * computed in exact integer arithmetic from the operand generator; prime
 * ranges by a sieve of Eratosthenes (count and sum of the primes in each
 * range).  It also checks that every process comes back exactly once.
 * No PVM here. */
#ifndef FARM_VERIFY_H
#define FARM_VERIFY_H

#include "farm_app.h"

typedef struct farm_verifier farm_verifier;

int farm_verify_alloc(const farm_workload *w, farm_verifier **out);
void farm_verify_free(farm_verifier *v);
/* LB_SUCCESS if the result is right and new; LB_EFORMAT with a message
 * naming the first wrong row or range, or a duplicate. */
int farm_verify_result(farm_verifier *v, const farm_result *r);
/* Results accepted so far; complete when it equals nproc. */
unsigned long farm_verify_accepted(const farm_verifier *v);
unsigned long farm_verify_rejected(const farm_verifier *v);

#endif
