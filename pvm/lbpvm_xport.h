/* lbpvm_xport.h: the farm transport (farm_xport.h) over PVM: lbpvm_msg.c's
 * messages, and payloads kept as the received PVM buffers and sent on
 * unopened (lbpvm_payload.h). */
#ifndef LBPVM_XPORT_H
#define LBPVM_XPORT_H

#include "farm_xport.h"

/* Messages sealed and checked with auth (borrowed: it outlives x).  0,
 * or -1 when out of memory. */
int lbpvm_xport_init(farm_xport *x, uint32_t run, farm_auth *auth);
void lbpvm_xport_free(farm_xport *x);
/* The master: remember the process ids of the workers tids[0..n-1]
 * (PVM knows them on this host), so that kill also removes the cgroup
 * and sockets of a worker that cannot remove them itself. */
void lbpvm_xport_learn_pids(farm_xport *x, const int *tids, int n);
/* The master: while it waits for messages, ask the pvmd every `every_s`
 * seconds whether it is alive (a bounded pvm_config): one that does not
 * answer ends the run through lbpvm_guard. */
void lbpvm_xport_heartbeat(farm_xport *x, double every_s);

#endif
