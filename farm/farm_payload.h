/* farm_payload.h: results in transit, each a PVM message of its own.
 *
 * A result's bytes travel as a payload (envelope, head, bytes; see
 * farm_wire.h) with tag PAYLOAD between workers and RESULT to the
 * master (the envelope says PAYLOAD either way), ahead of the policy message that carries its reference on the
 * same route (PVM keeps the order of messages between two tasks), so
 * the bytes are there when the reference is handled.
 *
 * A host that relays a result, or hands it to the master, keeps the
 * received PVM buffer and sends that buffer on as it is: the bytes are
 * never unpacked or packed again on their way. */
#ifndef FARM_PAYLOAD_H
#define FARM_PAYLOAD_H

#include <stddef.h>
#include <stdint.h>
#include "farm_msg.h"

/* A new payload, packed and kept (not the active send buffer): its
 * buffer id, or a PVM error. */
int farm_payload_pack(uint32_t run, const farm_payload_head *h, const void *blob);
/* Send a kept payload to tid with tag (counted as any message), then
 * free it; PVM status. */
int farm_payload_send(int bufid, int tid, int tag);
/* Unpack the bytes of a received payload `in` (its head already read)
 * into buf[0..len-1]: 0, or a PVM error. */
int farm_payload_read(farm_in *in, void *buf, size_t len);

/* Payloads held here, by process id: a worker's store. */
typedef struct farm_store farm_store;
int farm_store_alloc(farm_store **out);
/* Frees the store and every buffer still in it. */
void farm_store_free(farm_store *s);
/* 0, or -1 if one is held for pid already (the new one is freed) or
 * memory ran out. */
int farm_store_put(farm_store *s, uint64_t pid, int bufid);
/* The buffer id, or -1 if none. */
int farm_store_take(farm_store *s, uint64_t pid);
size_t farm_store_count(const farm_store *s);
/* Copy up to cap held pids into pids; returns how many are held. */
size_t farm_store_pids(const farm_store *s, uint64_t *pids, size_t cap);

#endif
