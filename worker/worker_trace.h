/* worker_trace.h: a host's part of the farm's trace (lb_trace.h),
 * kept in memory and sent to the master in its REPORT: the message rows
 * the runtime writes, the result payloads' rows, and the host's states,
 * which the host core marks at a few clear points of its loop:
 *   busy       a quantum of a process runs (throttling included);
 *   idle       nothing to run: waiting for a message or a timer;
 *   balancing  everything else: taking messages in, the node's steps
 *              and the sends they make (contexts packed and unpacked).
 * Times are the host's node time (worker_host.c), which the master
 * puts on its own clock (master/master_trace.c). */
#ifndef WORKER_TRACE_H
#define WORKER_TRACE_H

#include <stddef.h>
#include "farm_wire.h"
#include "lb_trace.h"

#define WORKER_TRACE_MAX ((size_t)32 << 20) /* bytes of rows kept */

typedef struct worker_trace {
  int on;
  size_t host;
  char *rows; /* '\n'-ended */
  size_t n, cap;
  unsigned long dropped; /* rows past WORKER_TRACE_MAX */
  lb_trace_states st;
} worker_trace;

/* Tracing (on) from time t, balancing. */
void worker_trace_start(worker_trace *tr, int on, size_t host, double t);
/* One formatted row, without its newline. */
void worker_trace_row(worker_trace *tr, const char *row);
void worker_trace_put(worker_trace *tr, const lb_trace_row *r);
/* The host is in state s from t on. */
void worker_trace_state(worker_trace *tr, lb_host_state s, double t);
/* The last interval ends at t; a note of the rows dropped, if any.  The
 * rows are then complete (tr->rows, tr->n). */
void worker_trace_end(worker_trace *tr, double t);
void worker_trace_free(worker_trace *tr);

/* The reply to the master's CLOCK request `req`, read at node time
 * `node` and CLOCK_MONOTONIC `mono`, into buf (FARM_CLOCK_MAX bytes). */
int worker_trace_clock(const farm_clock *req, double node, double mono, unsigned char *buf, size_t *len);

#endif
