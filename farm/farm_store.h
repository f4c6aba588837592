/* farm_store.h: the result payloads a host holds, by process id, for
 * any transport: each item is the transport's own handle (a PVM buffer
 * id, the bytes of an MPI message), freed by the function given at
 * allocation. */
#ifndef FARM_STORE_H
#define FARM_STORE_H

#include <stddef.h>
#include <stdint.h>

typedef struct farm_store farm_store;
int farm_store_alloc(void (*free_item)(void *item), farm_store **out);
/* Frees the store and every item still in it. */
void farm_store_free(farm_store *s);
/* 0, or -1 if one is held for pid already (the new one is freed) or
 * memory ran out. */
int farm_store_put(farm_store *s, uint64_t pid, void *item);
/* The item, now the caller's, or NULL if none. */
void *farm_store_take(farm_store *s, uint64_t pid);
size_t farm_store_count(const farm_store *s);
/* Copy up to cap held pids into pids; returns how many are held. */
size_t farm_store_pids(const farm_store *s, uint64_t *pids, size_t cap);

#endif
