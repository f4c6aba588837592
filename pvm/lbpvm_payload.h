/* lbpvm_payload.h: results in transit, each a PVM message of its own.
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
#ifndef LBPVM_PAYLOAD_H
#define LBPVM_PAYLOAD_H

#include <stddef.h>
#include <stdint.h>
#include "lbpvm_msg.h"

/* A new payload, sealed by its maker (farm_auth_seal_payload), packed
 * and kept (not the active send buffer): its buffer id, or a PVM error. */
int lbpvm_payload_pack(const farm_auth *a, uint32_t run, const farm_payload_head *h, const void *blob);
/* Send a kept payload to tid with tag (counted as any message), then
 * free it; PVM status. */
int lbpvm_payload_send(int bufid, int tid, int tag);
/* Unpack the bytes of a received payload `in` (its head already read)
 * into buf[0..len-1]: 0, or a PVM error. */
int lbpvm_payload_read(farm_in *in, void *buf, size_t len);

#endif
