/* master_trace.h: the farm's trace (--trace; lb_trace.h), written by the
 * master from the rows each worker sends in its REPORT, on one clock:
 * the master's, in seconds since its start (SETUP's start time).
 *
 * Before the processes are handed out the master exchanges a few CLOCK
 * messages with each worker (farm_wire.h).  A worker on the master's
 * machine (the same kernel boot id) reads the same CLOCK_MONOTONIC, so
 * its offset is known exactly from its reading; on another machine it
 * is estimated by Cristian's method: the worker's time at the round
 * trip of least duration, against the midpoint of the master's send and
 * receipt, within half that round trip.  Each host's rows are moved by
 * its offset, and the trace's head says which way each was found. */
#ifndef MASTER_TRACE_H
#define MASTER_TRACE_H

#include <stddef.h>
#include "farm_xport.h"

#define MASTER_TRACE_ROUNDS 8   /* clock exchanges per worker */
#define MASTER_TRACE_WAIT_S 0.5 /* the longest wait for one answer */

typedef struct master_trace master_trace;

/* A trace for `hosts` hosts to `path` (NULL: none, *out NULL), written
 * under a temporary name beside it (cli_out_try) and renamed at
 * master_trace_close: 0, or -1 with a message on stderr. */
int master_trace_open(const char *path, int hosts, master_trace **out);
/* The clock exchange with each worker (tids, hosts of them; one not
 * answering within MASTER_TRACE_WAIT_S keeps its own times, and the head
 * says so).  t0 is SETUP's start time (cli_epoch's clock).  Stops early
 * when *stop is set (an interrupt). */
void master_trace_sync(master_trace *tr, const farm_xport *xp, const int *tids, double t0, volatile const int *stop);
/* Host h's rows (its REPORT's): each checked (a row that does not parse,
 * or that another host wrote, is dropped and counted) and put on the
 * master's clock. */
void master_trace_add(master_trace *tr, int h, const char *rows, size_t len);
/* ok: the file is complete and renamed into place (0, or -1 with a
 * message: a write that failed); else it is removed.  Frees tr. */
int master_trace_close(master_trace *tr, int ok);

#endif
