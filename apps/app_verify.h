/* app_verify.h: the master's independent check of every result.
 *
 * It shares no arithmetic with the workers: matmul rows are checked by
 * two row checksums, C.1 = A.(B.1) and C.w = A.(B.w) with w_j = j+1,
 * computed in exact integer arithmetic from the operand generator; prime
 * ranges by a sieve of Eratosthenes (count and sum of the primes in each
 * range).  It also checks that every process comes back exactly once.
 * No PVM here. */
#ifndef APP_VERIFY_H
#define APP_VERIFY_H

#include "app.h"

typedef struct app_verifier app_verifier;

int app_verify_alloc(const app_workload *w, app_verifier **out);
void app_verify_free(app_verifier *v);
/* LB_SUCCESS if the result is right and new; LB_EFORMAT with a message
 * naming the first wrong row or range, or a duplicate. */
int app_verify_result(app_verifier *v, const app_result *r);
/* Results accepted so far; complete when it equals nproc. */
unsigned long app_verify_accepted(const app_verifier *v);
unsigned long app_verify_rejected(const app_verifier *v);

#endif
