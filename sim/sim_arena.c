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

/* Large zeroed blocks (a process with a large context, allocated with
 * its zero padding): cut from mappings of fresh pages, which are zero
 * already and stay untouched, and so unallocated, until written; a
 * freed one waits in a list of its size (a few sizes at most). */
#define BIG_CHUNK  ((size_t)64 << 20)
#define BIG_SIZES  4
#define BIG_CHUNKS 4096

typedef struct big {
  unsigned char *cur, *end;
  unsigned char *chunk[BIG_CHUNKS];
  size_t len[BIG_CHUNKS], n;
  size_t size[BIG_SIZES];
  void *free[BIG_SIZES];
} big;

struct sim_arena {
  unsigned char *cur, *end;      /* the chunk being cut */
  void *free[NCLASS];            /* freed blocks by size class, linked through their first word */
  void **chunk;                  /* every chunk, for sim_arena_free */
  size_t nchunk, capchunk, next; /* next: the size of the next chunk */
  big *big;
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
  for (size_t k = 0; a->big && k < a->big->n; k++) munmap(a->big->chunk[k], a->big->len[k]);
  free(a->big);
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

/* The list of freed large blocks of `size`, or -1 (none, and no room
 * for another size when `make` is 0 or the table is full). */
static int big_list(big *b, size_t size, int make)
{
  for (int k = 0; k < BIG_SIZES; k++) {
    if (b->size[k] == size) return k;
    if (!b->size[k]) {
      if (!make) return -1;
      b->size[k] = size;
      return k;
    }
  }
  return -1;
}

static int is_big(const big *b, const void *p)
{
  for (size_t k = 0; b && k < b->n; k++)
    if ((const unsigned char *)p >= b->chunk[k] && (const unsigned char *)p < b->chunk[k] + b->len[k]) return 1;
  return 0;
}

static void *big_get(sim_arena *a, size_t size)
{
  if (!a->big && !(a->big = calloc(1, sizeof *a->big))) return NULL;
  big *b = a->big;
  int k = big_list(b, size, 0);
  if (k >= 0 && b->free[k]) {
    void *p = b->free[k];
    b->free[k] = *(void **)p;
    memset(p, 0, size); /* written before */
    return p;
  }
  size_t sz = (size + 63) / 64 * 64;
  if (!b->cur || sz > (size_t)(b->end - b->cur)) {
    size_t len = sz > BIG_CHUNK ? sz : BIG_CHUNK;
    if (b->n == BIG_CHUNKS) return NULL;
    void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) return NULL;
    b->chunk[b->n] = m;
    b->len[b->n++] = len;
    b->cur = m;
    b->end = b->cur + len;
  }
  void *p = b->cur;
  b->cur += sz;
  return p;
}

void *sim_arena_zget(void *ctx, size_t size)
{
  sim_arena *a = ctx;
  if (size > SIM_ARENA_MAX) return big_get(a, size);
  void *p = sim_arena_get(ctx, size);
  if (p) memset(p, 0, size);
  return p;
}

void sim_arena_put(void *ctx, void *p, size_t size)
{
  sim_arena *a = ctx;
  if (!p) return;
  if (size > SIM_ARENA_MAX) {
    int k;
    if (!is_big(a->big, p)) free(p);
    else if ((k = big_list(a->big, size, 1)) >= 0) {
      *(void **)p = a->big->free[k];
      a->big->free[k] = p;
    } /* else kept till the arena goes */
    return;
  }
  size_t c = size ? (size + GRAIN - 1) / GRAIN : 1;
  *(void **)p = a->free[c];
  a->free[c] = p;
}
