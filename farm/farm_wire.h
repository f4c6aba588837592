/* farm_wire.h: the bodies of the task-farm messages (after the
 * farm_msg header), shared by lbmaster and lbworker so the two cannot
 * drift apart.  "items" are 32-bit words, the unit of the header's
 * length check: an int is 1, a double or 64-bit int 2, a byte string
 * (len+3)/4. */
#ifndef FARM_WIRE_H
#define FARM_WIRE_H

#include "farm_msg.h"

enum { FARM_POLICY_NONE = 0, FARM_POLICY_RMTLB, FARM_POLICY_LOWEST, FARM_POLICY_DASUD,
       FARM_POLICY_CCHSPMD, FARM_POLICY_DIFFUSION, FARM_NPOLICIES };

/* SETUP, master -> worker:
 *   int me, nhosts, policy, kind, throttle, trace, nnbr       7
 *   i64 size, nproc, seed                                     6
 *   double speed, capacity, quantum_s, t0, hop_time, period   12
 *   int tids[nhosts], nbr[nnbr]                               nhosts + nnbr
 *   int nedges, edges[2 nedges] (the whole topology)          1 + 2 nedges */
#define FARM_SETUP_ITEMS(nhosts, nnbr, nedges) (26 + (nhosts) + (nnbr) + 2 * (nedges))

/* TASKS (master -> worker) and LMM (worker -> worker):
 *   int from_host, count, then count x (int len, byte blob[len]) */
/* RESULT (worker -> master) and DRM (worker -> worker): a result's
 * payload, body in farm_payload.h. */
/* ORDER, master -> worker: int dst_host, count */

/* REPORT, worker -> master:
 *   int me, throttle_mode, ntrace
 *   i64 counters[FARM_NCOUNTERS], policy messages sent[FARM_NLBTYPES]
 *   double busy_s, cpu_s, span_s (first quantum's start to last one's end),
 *          msg_s (receiving, handling and sending messages), idle_s
 *          (waiting with nothing to run)
 *   ntrace x (double t, int dst_host, tag, bytes) */
enum { FARM_C_MIGRATED, FARM_C_MOVED_STARTED, FARM_C_HOPS, FARM_C_INVOCATIONS, FARM_C_DROPPED,
       FARM_C_UNITS, FARM_C_FINISHED, FARM_C_FORWARDED, FARM_C_RECEIVED,
       FARM_C_SENT0 /* then FARM_NTAGS message counts */ };
#define FARM_NCOUNTERS (FARM_C_SENT0 + FARM_NTAGS)
#define FARM_NLBTYPES 13   /* LB_MSG_NTYPES, checked where lb_proc.h is seen */
#define FARM_REPORT_ITEMS(ntrace) (3 + 2 * FARM_NCOUNTERS + 2 * FARM_NLBTYPES + 10 + 5 * (ntrace))

#endif
