/* farm_xpvm.h: the farm transport (farm_xport.h) over PVM: farm_msg.c's
 * messages, and payloads kept as the received PVM buffers and sent on
 * unopened (farm_payload.h). */
#ifndef FARM_XPVM_H
#define FARM_XPVM_H

#include "farm_xport.h"

/* 0, or -1 when out of memory. */
int farm_xpvm_init(farm_xport *x, uint32_t run);
void farm_xpvm_free(farm_xport *x);
/* The master: remember the process ids of the workers tids[0..n-1]
 * (PVM knows them on this host), so that kill also removes the cgroup
 * and sockets of a worker that cannot remove them itself. */
void farm_xpvm_learn_pids(farm_xport *x, const int *tids, int n);

#endif
