/* farm_lbmsg.h: a policy message (lb_msg, from lb/) on the wire, packed
 * field by field with pvm_pk* through farm_msg, processes and results
 * with their context blobs included.  Tag FARM_LBMSG. */
#ifndef FARM_LBMSG_H
#define FARM_LBMSG_H

#include "lb_proc.h"
#include "farm_msg.h"

/* Send m to tid (header, run id and length included); PVM status. */
int farm_lbmsg_send(int run, int tid, const lb_msg *m);
/* Decode the current receive buffer (already header-checked, `items`
 * announced); 0 and a new message, or -1 if malformed. */
int farm_lbmsg_recv(const farm_in *in, lb_msg **out);

#endif
