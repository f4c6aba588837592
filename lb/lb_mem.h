/* lb_mem.h: where lb/ takes the records it keeps per node and per
 * process: nodes, their runtimes and policy states, processes, run
 * queues, output lists, timer heaps, and messages (the codec's decoded
 * ones too).  By default malloc; a driver that runs millions of nodes
 * in one address space (the simulator) may hand in an allocator that
 * lays them out in order and on large pages, and a test one that fails
 * on purpose.  Every call says the block's size, so a size-class
 * allocator needs no header.
 *
 * The allocator belongs to a thread: lb_mem_set changes the calling
 * thread's only, and a run on another thread is not disturbed.  A block
 * goes back to the allocator that made it, so free every record on the
 * thread that made it and under the allocator in use then; a driver
 * that installs its own for a run saves the caller's first (lb_mem_get)
 * and puts it back (lb_mem_set) once the run's last record is freed, as
 * lb_sim_run does. */
#ifndef LB_MEM_H
#define LB_MEM_H

#include <stddef.h>

typedef struct lb_mem {
  /* NULL when out of memory; aligned as malloc's, and to 64 bytes (a
   * cache line) when size is a multiple of 64. */
  void *(*alloc)(void *ctx, size_t size);
  void (*free)(void *ctx, void *p, size_t size); /* p NULL: nothing */
  void *ctx;
  /* The same, zeroed (NULL: alloc, then memset); an allocator that
   * knows fresh pages are zero leaves them unwritten. */
  void *(*zalloc)(void *ctx, size_t size);
} lb_mem;

/* The calling thread's allocator from now on; m NULL (or m->alloc
 * NULL): malloc and free. */
void lb_mem_set(const lb_mem *m);
/* The calling thread's allocator now, to put back with lb_mem_set. */
void lb_mem_get(lb_mem *out);

/* size bytes, zeroed; NULL when out of memory. */
void *lb_mem_calloc(size_t size);
/* size bytes, not zeroed. */
void *lb_mem_alloc(size_t size);
void lb_mem_free(void *p, size_t size);
/* The block p of old bytes grown or shrunk to size (its first bytes
 * kept); NULL, and p untouched, when out of memory. */
void *lb_mem_realloc(void *p, size_t old, size_t size);
/* Room for one more in the array p of *cap elements of `size` bytes, n
 * of them used: p itself, or the array grown to twice its room (to
 * `first` elements at first), *cap updated; NULL, and p untouched, when
 * out of memory. */
void *lb_mem_grow(void *p, size_t *cap, size_t n, size_t size, size_t first);

#endif
