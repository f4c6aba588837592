/* farm_msg.h: the task farm's PVM transport.  Every message is an
 * envelope and a body of bytes (farm_wire.h), packed as two raw byte
 * items; this is the only file that packs or unpacks PVM buffers, but
 * for the result payloads of farm_payload.h.
 *
 * A received message whose tag is not ours, or whose envelope does not
 * check out (magic, version, tag, run, length), is logged with its
 * sender and the reason, counted and dropped: it never reaches a
 * decoder.  PVM's own notices (task exit, host delete) carry no
 * envelope and are passed on only from a pvmd. */
#ifndef FARM_MSG_H
#define FARM_MSG_H

#include <stddef.h>
#include <stdint.h>
#include "farm_wire.h"
#include "farm_count.h"

/* Send body[0..len-1] with its envelope; PVM status. */
int farm_send(int tid, int tag, uint32_t run, const void *body, size_t len);

/* A received, envelope-checked message.  For PAYLOAD and RESULT only
 * the payload head is read (body holds its FARM_PAYLOAD_HEAD bytes) and
 * the PVM buffer is kept in `bufid` for farm_payload.h; otherwise body
 * is the whole body (malloc'd) and bufid 0.  For EXITED and HOSTDEL,
 * `notice` is the task id or host the pvmd reported. */
typedef struct farm_in {
  int tag;
  int src;             /* sender tid */
  unsigned char *body;
  size_t len;
  int bufid;
  int notice;
  void *raw;           /* a transport's own copy of a payload (MPI), else NULL */
  size_t raw_len;
} farm_in;

/* Wait (timeout_s < 0: forever, 0: poll) for a message from `tid` (-1
 * any) with `tag` (-1 any).  Returns 1 with *in filled, 0 on timeout,
 * < 0 on a PVM error; what it drops does not end the wait. */
int farm_recv(uint32_t run, int tid, int tag, double timeout_s, farm_in *in);
/* Free the body and any kept buffer. */
void farm_in_clear(farm_in *in);

/* Test path: send a message with no envelope check possible (`kind` 0:
 * a foreign tag; 1: one of ours with a bad magic). */
int farm_msg_send_junk(int tid, int kind);
#endif
