/* lb_mem.c: see lb_mem.h. */
#include <stdlib.h>
#include <string.h>
#include "lb_mem.h"

static _Thread_local lb_mem mem; /* alloc NULL: malloc */

void lb_mem_set(const lb_mem *m)
{
  if (m && m->alloc) mem = *m;
  else memset(&mem, 0, sizeof mem);
}

void lb_mem_get(lb_mem *out) { *out = mem; }

void *lb_mem_alloc(size_t size)
{
  if (mem.alloc) return mem.alloc(mem.ctx, size);
  return size && size % 64 == 0 ? aligned_alloc(64, size) : malloc(size ? size : 1);
}

void *lb_mem_calloc(size_t size)
{
  if (mem.alloc && mem.zalloc) return mem.zalloc(mem.ctx, size);
  if (!mem.alloc && size % 64) return calloc(1, size); /* malloc's alignment is enough */
  void *p = lb_mem_alloc(size);
  if (p) memset(p, 0, size);
  return p;
}

void lb_mem_free(void *p, size_t size)
{
  if (!p) return;
  if (mem.alloc) mem.free(mem.ctx, p, size);
  else free(p);
}

void *lb_mem_grow(void *p, size_t *cap, size_t n, size_t size, size_t first)
{
  if (n < *cap) return p;
  size_t c = *cap ? 2 * *cap : first;
  void *q = lb_mem_realloc(p, *cap * size, c * size);
  if (q) *cap = c;
  return q;
}

void *lb_mem_realloc(void *p, size_t old, size_t size)
{
  /* realloc keeps malloc's alignment only, not a whole line's. */
  if (!mem.alloc && size % 64) return realloc(p, size);
  void *q = lb_mem_alloc(size);
  if (!q) return NULL;
  if (p) {
    memcpy(q, p, old < size ? old : size);
    lb_mem_free(p, old);
  }
  return q;
}
