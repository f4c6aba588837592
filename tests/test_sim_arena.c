/* The simulator's arena (sim/sim_arena.h) behind lb_mem (lb/lb_mem.h):
 * blocks that do not overlap, aligned as lb_mem asks, a freed block
 * given again for its size, large blocks from malloc, and the engine's
 * records made and freed through it. */
#include <stdint.h>
#include <string.h>
#include "testutil.h"
#include "sim_arena.h"
#include "lb_mem.h"
#include "lb_proc.h"
#include "lb_errno.h"

#define NBLK 4000

static void test_blocks(void **state)
{
  (void)state;
  sim_arena *a;
  assert_int_equal(sim_arena_alloc(&a), 0);
  static unsigned char *b[NBLK];
  static size_t len[NBLK];
  for (size_t k = 0; k < NBLK; k++) {
    len[k] = k % 7 == 0 ? 64 * (1 + k % 5) : k % 3000; /* some of whole lines, some past the largest class */
    b[k] = sim_arena_get(a, len[k]);
    assert_non_null(b[k]);
    assert_int_equal((uintptr_t)b[k] % 16, 0);
    if (len[k] && len[k] % 64 == 0) assert_int_equal((uintptr_t)b[k] % 64, 0);
    memset(b[k], (int)(k & 0xff), len[k]);
  }
  for (size_t k = 0; k < NBLK; k++) /* nothing written over another block */
    for (size_t j = 0; j < len[k]; j++) assert_int_equal(b[k][j], k & 0xff);
  /* A freed block comes back for a block of its size. */
  sim_arena_put(a, b[10], len[10]);
  assert_ptr_equal(sim_arena_get(a, len[10]), b[10]);
  for (size_t k = 0; k < NBLK; k++) sim_arena_put(a, b[k], len[k]);
  sim_arena_free(a);
}

static void test_through_lb_mem(void **state)
{
  (void)state;
  sim_arena *a;
  assert_int_equal(sim_arena_alloc(&a), 0);
  lb_mem_set(&(lb_mem){.alloc = sim_arena_get, .free = sim_arena_put, .ctx = a});
  lb_proc *p, *q;
  double w = 3;
  assert_int_equal(lb_proc_alloc(7, 1, w, &w, sizeof w, &p), 0);
  lb_proc_free(p);
  assert_int_equal(lb_proc_alloc(8, 1, w, &w, sizeof w, &q), 0);
  assert_ptr_equal(q, p); /* the same size class, from the arena's list */
  lb_proc_free(q);
  void *r = lb_mem_realloc(NULL, 0, 40);
  assert_non_null(r);
  memset(r, 1, 40);
  r = lb_mem_realloc(r, 40, 5000); /* past the classes: malloc */
  assert_int_equal(((unsigned char *)r)[39], 1);
  lb_mem_free(r, 5000);
  lb_mem_set(NULL);
  sim_arena_free(a);
  assert_int_equal(lb_proc_alloc(9, 1, w, &w, sizeof w, &p), 0); /* malloc again */
  lb_proc_free(p);
}

/* Large zeroed blocks: zero, not overlapping, a freed one zeroed again
 * when given for its size; a large block of malloc's goes back to
 * free().  A process of a large context with a head: the head, then
 * zeros. */
static void test_big_zeroed(void **state)
{
  (void)state;
  sim_arena *a;
  assert_int_equal(sim_arena_alloc(&a), 0);
  enum { NB = 600, SZ = 16464 }; /* some 10 MB, in one mapping */
  static unsigned char *b[NB];
  for (size_t k = 0; k < NB; k++) {
    b[k] = sim_arena_zget(a, SZ + (k % 3) * 100);
    assert_non_null(b[k]);
    assert_int_equal((uintptr_t)b[k] % 16, 0);
    for (size_t j = 0; j < SZ; j += 509) assert_int_equal(b[k][j], 0);
    memset(b[k], (int)(k & 0xff) | 1, SZ);
  }
  for (size_t k = 0; k < NB; k++)
    for (size_t j = 0; j < SZ; j += 97) assert_int_equal(b[k][j], (k & 0xff) | 1);
  sim_arena_put(a, b[5], SZ + (5 % 3) * 100);
  unsigned char *again = sim_arena_zget(a, SZ + (5 % 3) * 100);
  assert_ptr_equal(again, b[5]);
  for (size_t j = 0; j < SZ; j++) assert_int_equal(again[j], 0);
  void *m = sim_arena_get(a, 9000); /* malloc's */
  sim_arena_put(a, m, 9000);
  for (size_t k = 0; k < NB; k++) sim_arena_put(a, b[k], SZ + (k % 3) * 100);
  lb_mem_set(&(lb_mem){.alloc = sim_arena_get, .free = sim_arena_put, .ctx = a, .zalloc = sim_arena_zget});
  unsigned char ctx[20000];
  memset(ctx, 0xee, sizeof ctx);
  lb_proc *p;
  assert_int_equal(lb_proc_alloc_head(3, 0, 1, ctx, 8, sizeof ctx, &p), 0);
  assert_int_equal(p->ctx_len, sizeof ctx);
  for (size_t j = 0; j < sizeof ctx; j++) assert_int_equal(p->ctx[j], j < 8 ? 0xee : 0);
  lb_proc_free(p);
  assert_int_equal(lb_proc_alloc_head(3, 0, 1, ctx, 9, 8, &p), LB_EINVAL);
  lb_mem_set(NULL);
  sim_arena_free(a);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_blocks),
      cmocka_unit_test(test_through_lb_mem),
      cmocka_unit_test(test_big_zeroed),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
