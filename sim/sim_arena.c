/* sim_arena.c: see sim_arena.h. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "sim_arena.h"
#include "lb_errno.h"

#define GRAIN     16 /* sizes are rounded up to this */
#define NCLASS    (SIM_ARENA_MAX / GRAIN + 1)
#define HUGE      ((size_t)2 << 20) /* a huge page on x86-64 */
#define CHUNK_MAX ((size_t)64 << 20)

struct sim_arena {
  unsigned char *cur, *end;      /* the chunk being cut */
  void *free[NCLASS];            /* freed blocks by size class, linked through their first word */
  void **chunk;                  /* every chunk, for sim_arena_free */
  size_t nchunk, capchunk, next; /* next: the size of the next chunk */
};

int sim_arena_alloc(sim_arena **out)
{
  *out = calloc(1, sizeof **out);
  if (!*out) return lb_error(LB_ENOMEM, "arena");
  (*out)->next = HUGE; /* small runs stay small; chunks double up to CHUNK_MAX */
  return LB_SUCCESS;
}

void sim_arena_free(sim_arena *a)
{
  if (!a) return;
  for (size_t k = 0; k < a->nchunk; k++) free(a->chunk[k]);
  free(a->chunk);
  free(a);
}

/* size bytes aligned to align, advised for huge pages from one huge
 * page up (a hint: without it, small pages); NULL when out of memory. */
static void *huge_block(size_t size, size_t align)
{
  void *p;
  if (posix_memalign(&p, align, size)) return NULL;
#ifdef MADV_HUGEPAGE
  if (size >= HUGE) madvise(p, size, MADV_HUGEPAGE);
#endif
  return p;
}

void *sim_huge_calloc(size_t size)
{
  size = size ? (size + 63) / 64 * 64 : 64;
  void *p = huge_block(size, size >= HUGE ? HUGE : 64);
  if (p) memset(p, 0, size);
  return p;
}

static int new_chunk(sim_arena *a)
{
  if (a->nchunk == a->capchunk) {
    size_t c = a->capchunk ? 2 * a->capchunk : 16;
    void **v = realloc(a->chunk, c * sizeof *v);
    if (!v) return 0;
    a->chunk = v;
    a->capchunk = c;
  }
  void *p = huge_block(a->next, HUGE); /* a->next >= HUGE */
  if (!p) return 0;
  a->chunk[a->nchunk++] = p;
  a->cur = p;
  a->end = a->cur + a->next;
  if (a->next < CHUNK_MAX) a->next *= 2;
  return 1;
}

void *sim_arena_get(void *ctx, size_t size)
{
  sim_arena *a = ctx;
  if (size > SIM_ARENA_MAX) return size % 64 == 0 ? aligned_alloc(64, size) : malloc(size);
  size_t c = size ? (size + GRAIN - 1) / GRAIN : 1, sz = c * GRAIN;
  if (a->free[c]) {
    void *p = a->free[c];
    a->free[c] = *(void **)p;
    return p;
  }
  /* Whole cache lines for a block of whole lines (lb_mem.h). */
  size_t align = sz % 64 == 0 ? 64 : GRAIN;
  uintptr_t at = ((uintptr_t)a->cur + align - 1) & ~(uintptr_t)(align - 1);
  if (!a->cur || at + sz > (uintptr_t)a->end) {
    if (!new_chunk(a)) return NULL;
    at = (uintptr_t)a->cur;
  }
  a->cur = (unsigned char *)(at + sz);
  return (void *)at;
}

void sim_arena_put(void *ctx, void *p, size_t size)
{
  sim_arena *a = ctx;
  if (!p) return;
  if (size > SIM_ARENA_MAX) {
    free(p);
    return;
  }
  size_t c = size ? (size + GRAIN - 1) / GRAIN : 1;
  *(void **)p = a->free[c];
  a->free[c] = p;
}
