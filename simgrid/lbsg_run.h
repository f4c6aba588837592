/* lbsg_run.h: the C side of the SimGrid driver.  A run is lbsim's
 * (sim/): the same nodes, runtimes, workload, costs, codec and
 * invariant checks, set up by sim_open; only time and messages are
 * SimGrid's.  Each node is an actor (lbsg_actor.cpp) that calls the
 * functions below for what happens to it: its start, a message that
 * came, the end of a quantum it ran, or a deadline it waited for (an
 * arrival, a message's extra delay, a timer).  Each returns the end of
 * the quantum the node starts, if it starts one, which the actor runs
 * as an execution on its host.  Messages leave through `post`, which
 * the actors implement with a SimGrid mailbox.
 *
 * All of it runs on one thread: SimGrid runs one actor at a time, and
 * lb/'s records come from the thread's allocator (lb_mem.h), so the
 * driver refuses SimGrid's thread contexts. */
#ifndef LBSG_RUN_H
#define LBSG_RUN_H

#include <stddef.h>
#include <stdint.h>
#include "lb_sim.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct lbsg_run lbsg_run;
/* A message on its way: the codec's bytes (or, with the codec off, the
 * message itself).  The receiver hands it to lbsg_message, which frees
 * it; lbsg_close frees those still on their way. */
typedef struct lbsg_msg lbsg_msg;

typedef struct lbsg_net {
  /* Carry m from node src's host to node dst's, `bytes` long on the
   * wire (what lbsim's bandwidth cost counts). */
  void (*post)(void *ctx, size_t src, size_t dst, lbsg_msg *m, double bytes);
  void *ctx;
  double hop_min; /* the least latency of a link (0 if unknown) */
} lbsg_net;

/* Set up the run (sim_open with this driver's callbacks).  The driver
 * simulates no failures, wrong results, outside orders or snapshots:
 * LB_EINVAL. */
int lbsg_open(const lb_sim_config *c, lb_sim_result *res, const lbsg_net *net, lbsg_run **out);
/* Makespan, ideal, totals and the final checks (sim_end). */
void lbsg_end(lbsg_run *R);
void lbsg_close(lbsg_run *R);

size_t lbsg_nodes(const lbsg_run *R);
/* Events on node i.  `end`: -1, or the end of the quantum the node
 * starts, which the actor must run until then and report with
 * lbsg_quantum_end.  A non-zero status stops the run (lbsg_over). */
int lbsg_begin(lbsg_run *R, size_t i, double now, double *end);
int lbsg_message(lbsg_run *R, size_t i, lbsg_msg *m, double now, double *end);
int lbsg_quantum_end(lbsg_run *R, size_t i, double now, double *end);
int lbsg_due(lbsg_run *R, size_t i, double now, double *end);
/* When node i next has something due (INFINITY: nothing before a
 * message comes): an arrival, a held message, a timer (not while it
 * computes, if it polls). */
double lbsg_deadline(const lbsg_run *R, size_t i);
/* Is `t` at or past `deadline`, allowing for SimGrid's rounding of
 * times (precision/timing)? */
int lbsg_reached(double t, double deadline);
/* Can a message reach node i at `now`: one on its way that can have
 * crossed its route's least latency by then?  (Then a deadline at now
 * waits for SimGrid to settle the date: messages before timers.) */
int lbsg_may_arrive(const lbsg_run *R, size_t i, double now);
/* Has every node begun (or the run stopped)? */
int lbsg_started(const lbsg_run *R);
/* Is the run over: done, stuck past its bound, out of events, or
 * failed? */
int lbsg_over(lbsg_run *R, double now);
/* The first error that stopped the run, or 0. */
int lbsg_status(const lbsg_run *R);

/* The load CSV (lb_sim_config.load_csv): its header; one sample at t;
 * whether sampling goes on (results still to come home, the run not
 * over). */
void lbsg_sample_header(lbsg_run *R);
int lbsg_sample(lbsg_run *R, double t);

#ifdef __cplusplus
}
#endif

#endif
