/* farm_xport.h: what the host core (worker/worker_host.h) and the master
 * (master/master_run.h) need from a message transport, so that one farm
 * runs over PVM (lbpvm_xport.c) or MPI (mpi/mpi_xport.c) with the same
 * logic.
 *
 * Peers are named by the transport's ids: PVM task ids, MPI ranks.
 * Bodies are farm_wire bytes; the transport puts the sealed envelope in
 * front (farm_auth_seal) and, on receipt, drops with a log line what
 * farm_wire_accept or farm_auth_open refuses (lbpvm_msg.h's rules), so
 * what it returns is authentic: a message from its sender `src`, or a
 * payload its maker sealed.  A result's bytes travel as a payload that
 * each host holds by process id and forwards as it came, never decoded
 * on its way. */
#ifndef FARM_XPORT_H
#define FARM_XPORT_H

#include <stddef.h>
#include <stdint.h>
#include "farm_wire.h"
#include "farm_auth.h"
#include "farm_count.h"

/* A received, authenticated message.  For PAYLOAD and RESULT only
 * the payload head is read (body holds its FARM_PAYLOAD_HEAD bytes) and
 * the PVM buffer is kept in `bufid` (pvm/lbpvm_payload.h); otherwise body
 * is the whole body (malloc'd) and bufid 0.  For EXITED and HOSTDEL,
 * `notice` is the task id or host that the notice names: not yet
 * confirmed (gone() asks the pvmd). */
typedef struct farm_in {
  int tag;
  int src; /* sender tid: checked, but for a payload (which a relay forwards) */
  unsigned char *body;
  size_t len;
  int bufid;
  int notice;
  uint64_t seq; /* the envelope's sequence number (0: a payload's) */
  void *raw;    /* a transport's own copy of a payload (MPI), else NULL */
  size_t raw_len;
} farm_in;

typedef struct farm_xport {
  void *ctx;
  uint32_t run;
  farm_auth *auth; /* this task's key and sequence numbers (borrowed) */
  /* body[0..len-1] with `tag` to peer `id`: 0, or < 0. */
  int (*send)(void *ctx, int id, int tag, const void *body, size_t len);
  /* lbpvm_recv's contract: from `id` (-1 any) with `tag` (-1 any), wait
   * timeout_s (< 0 forever, 0 poll); 1, 0 on timeout, < 0 on an error. */
  int (*recv)(void *ctx, int id, int tag, double timeout_s, farm_in *in);
  /* Free a received message and whatever it still holds. */
  void (*clear)(void *ctx, farm_in *in);

  /* ---- result payloads ---- */
  /* A new payload (head and bytes), held here: 0, or -1 (one is held
   * for that process already, or no memory). */
  int (*hold)(void *ctx, const farm_payload_head *h, const void *blob);
  /* Hold the payload of the received PAYLOAD `in` (it is taken from in). */
  int (*keep)(void *ctx, uint64_t pid, farm_in *in);
  /* Send the payload held for pid to `id` with `tag` (PAYLOAD to a host,
   * RESULT to the master) as it is, and forget it: its bytes, -1 if none
   * is held, -2 if the send failed. */
  long (*forward)(void *ctx, uint64_t pid, int id, int tag);
  /* Copy up to cap held pids; returns how many are held. */
  size_t (*held)(void *ctx, uint64_t *pids, size_t cap);
  /* Forget the payload held for pid: 0, or -1 if none is held. */
  int (*drop)(void *ctx, uint64_t pid);
  /* The bytes of a received payload `in` after its head: 0 or < 0. */
  int (*read)(void *ctx, farm_in *in, void *buf, size_t len);
  /* An ECHO to this task itself through the transport's own daemon
   * (PVM: the local pvmd), which comes back as a message if the daemon
   * works: 0, or < 0.  NULL where messages pass no daemon (MPI). */
  int (*echo)(void *ctx);

  /* ---- the master's (NULL where the transport has none) ---- */
  /* Does the notice `in` (EXITED, HOSTDEL) say that peer `id` is gone?
   * A notice carries no MAC, so the pvmd is asked (bounded): 1 it is
   * gone, 0 the notice is not about id, -1 it is but the pvmd says id
   * (or its host) is still there: a forged notice. */
  int (*gone)(void *ctx, const farm_in *in, int id);
  /* End peer `id` and what it leaves behind. */
  void (*kill)(void *ctx, int id);
  /* Peer `id` was fenced (its lease ran out: its host may be dead or cut
   * off): take that host out of the transport where the transport keeps
   * traffic for it that holds up the others' (PVM: lbpvm_cut.h, where
   * this task's pvmd is the master pvmd), unless this task or a live
   * peer (live[0..nlive-1]) runs there.  1 done, with
   * the host's name in name[0..cap-1]; 0 nothing to do; < 0 refused. */
  int (*cut)(void *ctx, int id, const int *live, int nlive, char *name, size_t cap);
  /* Test path: a message the receiver must drop (kind 0: a foreign tag;
   * 1: one of ours with a bad magic). */
  int (*junk)(void *ctx, int id, int kind);
} farm_xport;

#endif
