/* sim_arena.h: the simulator's allocator for lb/'s records (lb_mem.h):
 * nodes, runtimes, policy states, processes, run queues, timer heaps.
 *
 * A run of a million nodes touches them an event at a time, in no
 * order.  From malloc they lie among everything else on small pages,
 * and each event misses the TLB on every record it reads.  Here blocks
 * are cut in the order asked from large chunks advised for huge pages
 * (a node's records, made one after another at the start, lie side by
 * side), and a freed block waits in a list of its size for the next of
 * that size.  Blocks above SIM_ARENA_MAX bytes go to malloc.  Nothing
 * is returned to the system before sim_arena_free, which frees every
 * block at once. */
#ifndef SIM_ARENA_H
#define SIM_ARENA_H

#include <stddef.h>

#define SIM_ARENA_MAX 2048

typedef struct sim_arena sim_arena;

int sim_arena_alloc(sim_arena **out);
void sim_arena_free(sim_arena *a);
/* lb_mem's alloc and free, ctx the arena. */
void *sim_arena_get(void *ctx, size_t size);
void sim_arena_put(void *ctx, void *p, size_t size);
/* sim_arena_get's block, zeroed; a large one (above SIM_ARENA_MAX) cut
 * from fresh pages that stay unallocated until written. */
void *sim_arena_zget(void *ctx, size_t size);

/* size bytes, zeroed, on huge pages where the system gives them (and
 * so on whole cache lines), for an array read in no order; free() it.
 * NULL when out of memory. */
void *sim_huge_calloc(size_t size);

#endif
