/* farm_payload.h: results in transit, each a PVM message of its own.
 *
 * A result travels as a payload message whose body (after the farm_msg
 * header) is
 *   int origin, exec; i64 pid; int len; byte blob[len]
 * with tag FARM_DRM between workers and FARM_RESULT to the master.  A
 * protocol message that carries a result (an RMTLB DRM, a RESULT of the
 * other policies) is sent right after its payload, on the same route,
 * so the payload is already here when the protocol message is handled
 * (PVM keeps the order of messages between two tasks).
 *
 * A host that relays a result, or hands it to the master, keeps the
 * received PVM buffer and sends that buffer on as it is: the blob is
 * never unpacked or packed again on its way (a relayed byte cost the
 * origin four copies in the worker before; docs/PERFORMANCE.md). */
#ifndef FARM_PAYLOAD_H
#define FARM_PAYLOAD_H

#include <stddef.h>
#include <stdint.h>
#include "farm_msg.h"

#define FARM_PAYLOAD_ITEMS(len) (5 + farm_msg_words(len))

/* A new payload, packed and kept (not the active send buffer): its
 * buffer id, or a PVM error. */
int farm_payload_pack(int run, int origin, int exec, uint64_t pid, const void *blob, int len);
/* Unpack the head of the received payload `in` (header already checked)
 * and check its length; 0, or -1 if malformed. */
int farm_payload_head(const farm_in *in, int *origin, int *exec, uint64_t *pid, int *len);
/* Keep the current receive buffer (PVM would free it at the next
 * receive); its id. */
int farm_payload_keep_received(void);
/* Send a kept payload to tid with tag (counted and traced as any
 * message), then free it; PVM status. */
int farm_payload_send(int bufid, int tid, int tag);
/* Payloads waiting here for their protocol message, by process id.
 * hold: 0, or -1 if one is already held for pid (the new one is
 * dropped) or memory ran out.  take: the buffer id, or -1 if none. */
int farm_payload_hold(uint64_t pid, int bufid);
int farm_payload_take(uint64_t pid);

#endif
