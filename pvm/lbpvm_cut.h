/* lbpvm_cut.h: which PVM host to delete from the virtual machine when a
 * worker is fenced (farm_xport.h's cut).  A pvmd sends every new packet,
 * to any host, only once its next retry to a host that stopped answering
 * is due: queued behind those retries, which back off to 9-18 s apart,
 * for the 3-8 minutes before PVM gives that host up.  Deleting the host
 * makes every other pvmd drop its queue for it at once. */
#ifndef LBPVM_CUT_H
#define LBPVM_CUT_H

/* Hosts are pvmd tids (pvm_tidtohost).  The fenced worker's `host`,
 * unless this task's own host (`self`) or the host of a live worker
 * (live[0..nlive-1]) is the same: deleting it would end them too.  0
 * when there is nothing to delete. */
int lbpvm_cut_host(int host, int self, const int *live, int nlive);

#endif
