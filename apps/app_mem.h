/* app_mem.h: memory for the farm's large buffers (matmul operands and
 * rows, result blobs, PVM's message fragments).
 *
 * On the machines lbfarm is measured on, the first touch of a page is
 * dear: 10 us per 4 KB page, 400 MB/s, against 25 GB/s for a page
 * already mapped (docs/PERFORMANCE.md).  glibc hands out every block
 * over 128 KB as a fresh mapping and unmaps it on free, so each result
 * or fragment a worker relays is faulted in anew.  app_mem_setup keeps
 * freed memory in the heap for the next buffer; app_mem_big maps
 * transparent huge pages, whose first touch costs 0.3 us per 4 KB. */
#ifndef APP_MEM_H
#define APP_MEM_H

#include <stddef.h>

/* Keep freed memory mapped for reuse (mallopt).  Call once, first. */
void app_mem_setup(void);
/* An uninitialised block of `bytes`, from huge pages where the kernel
 * offers them (blocks of 2 MB and more); NULL when out of memory.
 * Release it with app_mem_free, never free(): a few freed blocks (at
 * most 8, 512 MB) are kept and handed out again for the same size. */
void *app_mem_big(size_t bytes);
void app_mem_free(void *p);

#endif
