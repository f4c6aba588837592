/* worker_host.h: one logical host of the task farm (the node and its
 * runtime callbacks, the live processes, quanta, message handling,
 * inventories), written once over the transport interface of
 * farm_xport.h: lbworker runs it over PVM, lbmpi over MPI. */
#ifndef WORKER_HOST_H
#define WORKER_HOST_H

#include "farm_xport.h"

/* Serve the master `parent` from before SETUP to STOP (report) or QUIT:
 * 0, or 1 when SETUP was refused.  The caller has set up the process
 * (one BLAS thread, app_mem_setup) and the transport. */
int worker_host_run(const farm_xport *xp, int parent);

#endif
