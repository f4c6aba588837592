/* lbpvm_msg.h: the task farm's PVM transport.  Every message is an
 * envelope and a body of bytes (farm_wire.h), packed as two raw byte
 * items; this is the only file that packs or unpacks PVM buffers, but
 * for the result payloads of lbpvm_payload.h.
 *
 * A received message whose tag is not ours, whose envelope does not
 * check out (magic, version, tag, run, length), or that is not
 * authentic (farm_auth_open: MAC, receiver, sender, sequence number) is
 * logged with its sender and the reason, counted and dropped: it never
 * reaches a decoder.  PVM's own notices (task exit, host delete) carry no
 * envelope and are passed on only when they say they come from a pvmd;
 * a task can say so too, so what they claim is asked of the pvmd before
 * anything acts on it (lbpvm_xport.c's gone). */
#ifndef LBPVM_MSG_H
#define LBPVM_MSG_H

#include <stddef.h>
#include <stdint.h>
#include "farm_xport.h"

/* Send body[0..len-1] with its envelope, sealed by a; PVM status. */
int lbpvm_send(farm_auth *a, int tid, int tag, uint32_t run, const void *body, size_t len);

/* Wait (timeout_s < 0: forever, 0: poll) for a message from `tid` (-1
 * any) with `tag` (-1 any).  Returns 1 with *in filled, 0 on timeout,
 * < 0 on a PVM error; what it drops does not end the wait. */
int lbpvm_recv(farm_auth *a, uint32_t run, int tid, int tag, double timeout_s, farm_in *in);
/* Free the body and any kept buffer. */
void lbpvm_in_clear(farm_in *in);

/* Test path: send a message with no envelope check possible (`kind` 0:
 * a foreign tag; 1: one of ours with a bad magic). */
int lbpvm_send_junk(int tid, int kind);
#endif
