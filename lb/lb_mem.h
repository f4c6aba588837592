/* lb_mem.h: where lb/ takes the records it keeps per node and per
 * process: nodes, their runtimes and policy states, processes, run
 * queues and timer heaps, and messages.  By default malloc; a driver that runs
 * millions of nodes in one address space (the simulator) may hand in an
 * allocator that lays them out in order and on large pages.  Every call
 * says the block's size, so a size-class allocator needs no header.
 *
 * Set it before the first record is made and keep it until the last is
 * freed: a block goes back to the allocator that made it.  Not for
 * threads: one allocator for the whole process. */
#ifndef LB_MEM_H
#define LB_MEM_H

#include <stddef.h>

typedef struct lb_mem {
  /* NULL when out of memory; aligned as malloc's, and to 64 bytes (a
   * cache line) when size is a multiple of 64. */
  void *(*alloc)(void *ctx, size_t size);
  void (*free)(void *ctx, void *p, size_t size);     /* p NULL: nothing */
  void *ctx;
} lb_mem;

/* m NULL: malloc and free again. */
void lb_mem_set(const lb_mem *m);

/* size bytes, zeroed; NULL when out of memory. */
void *lb_mem_calloc(size_t size);
/* size bytes, not zeroed. */
void *lb_mem_alloc(size_t size);
void lb_mem_free(void *p, size_t size);
/* The block p of old bytes grown or shrunk to size (its first bytes
 * kept); NULL, and p untouched, when out of memory. */
void *lb_mem_realloc(void *p, size_t old, size_t size);

#endif
