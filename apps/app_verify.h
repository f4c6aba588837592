/* app_verify.h: the master's independent check of every result.
 *
 * It shares no arithmetic with the workers.  Matmul: every entry of C
 * must be an integer within the exact bound (n 2^20), and every row i
 * pass Freivalds' test C_i r = A_i (B r) modulo p = 2^61 - 1, in exact
 * integer arithmetic from the operand generator, for a vector r drawn
 * from getrandom when the verifier is made and never sent anywhere: a
 * result that differs from the true product in any entry passes with
 * probability at most 1/p < 2^-60 (docs/FARM.md, "The verification
 * bound").  B r costs n^2 multiply-adds once, a block of rows 2 x rows
 * x n.  Prime ranges: a sieve of Eratosthenes (count and sum of the
 * primes in each range).  It also checks that every process comes back
 * exactly once.  No PVM here. */
#ifndef APP_VERIFY_H
#define APP_VERIFY_H

#include "app.h"

typedef struct app_verifier app_verifier;

int app_verify_alloc(const app_workload *w, app_verifier **out);
void app_verify_free(app_verifier *v);
/* LB_SUCCESS if the result is right and new; LB_EFORMAT with a message
 * naming the first wrong entry, row or range, or a duplicate.  The
 * alloc fails with LB_EIO when the system has no random bytes. */
int app_verify_result(app_verifier *v, const app_result *r);
/* Results accepted so far; complete when it equals nproc. */
unsigned long app_verify_accepted(const app_verifier *v);
unsigned long app_verify_rejected(const app_verifier *v);

#endif
