/* app_mem.c: see app_mem.h. */
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "app_mem.h"

#define HUGE_PAGE ((size_t)2 << 20)

void app_mem_setup(void)
{
  /* 32 MB is glibc's largest mmap threshold on 64-bit; blocks below it
   * come from the heap, and the heap's top is never given back. */
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  mallopt(M_TOP_PAD, 16 << 20);
}

/* A big block is its own mapping, a whole number of huge pages, with its
 * length in the first huge page's head: an aligned block carved from the
 * heap instead leaves gaps that push the next one onto fresh pages. */
typedef struct big_head {
  size_t len;
} big_head;
#define BIG_OFFSET ((size_t)64)

/* Freed big blocks kept for the next request of the same size: a run's
 * processes have blocks of one or two sizes, and a page that is already
 * mapped costs nothing, where a fresh one is zeroed by the kernel. */
#define CACHE_SLOTS 8
#define CACHE_BYTES ((size_t)512 << 20)
static big_head *cache[CACHE_SLOTS];
static size_t ncache, cached_bytes;

static void unmap(big_head *h) { munmap(h, h->len); }

/* Take block k out of the cache, keeping the rest oldest first. */
static big_head *cache_take(size_t k)
{
  big_head *h = cache[k];
  memmove(cache + k, cache + k + 1, (--ncache - k) * sizeof *cache);
  cached_bytes -= h->len;
  return h;
}

void *app_mem_big(size_t bytes)
{
  if (bytes + BIG_OFFSET < HUGE_PAGE) {
    big_head *h = malloc(BIG_OFFSET + (bytes ? bytes : 1));
    if (!h) return NULL;
    h->len = 0;
    return (char *)h + BIG_OFFSET;
  }
  size_t len = (bytes + BIG_OFFSET + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
  for (size_t k = ncache; k-- > 0;) /* the newest fit first: its pages are the warmest */
    if (cache[k]->len == len) return (char *)cache_take(k) + BIG_OFFSET;
  /* Map one huge page more than needed, to trim to a 2 MB boundary. */
  char *raw = mmap(NULL, len + HUGE_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) return NULL;
  char *p = (char *)(((size_t)raw + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1));
  if (p > raw) munmap(raw, (size_t)(p - raw));
  size_t tail = (size_t)(raw + len + HUGE_PAGE - (p + len));
  if (tail) munmap(p + len, tail);
  /* Advice only: where THP is off the block works with small pages. */
  (void)madvise(p, len, MADV_HUGEPAGE);
  ((big_head *)p)->len = len;
  return p + BIG_OFFSET;
}

void app_mem_free(void *p)
{
  if (!p) return;
  big_head *h = (big_head *)((char *)p - BIG_OFFSET);
  if (!h->len) {
    free(h);
    return;
  }
  /* Make room: the oldest blocks go first. */
  while (ncache && (ncache == CACHE_SLOTS || cached_bytes + h->len > CACHE_BYTES)) unmap(cache_take(0));
  if (h->len > CACHE_BYTES) {
    unmap(h);
    return;
  }
  cache[ncache++] = h;
  cached_bytes += h->len;
}
