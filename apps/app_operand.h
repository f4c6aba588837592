/* app_operand.h: the definition of the matmul operands, the input that
 * the workers (app_matmul.c) and the master's verifier (app_verify.c)
 * both rebuild from (n, seed), like a file present on every machine.
 *
 * Entry (i, j) of A (which = 1) or B (which = 2) is the low 11 bits of
 * mix(mix(mix(mix(4 seed + which) ^ n) ^ i) ^ j), minus 2^10: uniform in
 * [-1024, 1023] (APP_MATMUL_ENTRY_MAX).  mix is splitmix64's finaliser,
 * cheap and well mixed.  The first three rounds depend on the row only,
 * so a row costs one round per entry (tests/test_apps.c checks the
 * formula). */
#ifndef APP_OPERAND_H
#define APP_OPERAND_H

#include <stdint.h>
#include "app.h"

static inline uint64_t app_operand_mix(uint64_t x)
{
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

/* The key of row i of A (which = 1) or B (which = 2). */
static inline uint64_t app_operand_key(unsigned long n, unsigned long seed, unsigned which, unsigned long i)
{
  return app_operand_mix(app_operand_mix(app_operand_mix((uint64_t)seed * 4 + which) ^ n) ^ i);
}

/* Entry j of the row with that key. */
static inline int64_t app_operand(uint64_t key, unsigned long j)
{
  return (int64_t)(app_operand_mix(key ^ j) & (2 * APP_MATMUL_ENTRY_MAX - 1)) - APP_MATMUL_ENTRY_MAX;
}

#endif
