/* lb_rt.h: the driver runtime around one node, shared by the simulator
 * and the PVM worker so that both carry out a node's outputs the same
 * way.
 *
 * It holds the node, its output list and its timers (a heap ordered by
 * time, then by the order they were set, so equal times fire in a
 * reproducible order and none is ever dropped), and it calls the
 * driver's callbacks for what only the driver can do: move a message,
 * save a leaving process's live context, deliver or count a result.  It
 * also writes the trace's message rows (lb_trace.h), so both drivers
 * write the same rows: one per message sent, numbered, and one per
 * message taken in, under its sender's number. */
#ifndef LB_RT_H
#define LB_RT_H

#include "lb_node.h"

typedef struct lb_rt_ops {
  /* SEND: carry m to node m->hop_dst (this link; m->dst is where it
   * ends); the callee owns m.  Before this,
   * `leaving` was called for each process m carries. */
  int (*send)(void *ctx, lb_msg *m, double now);
  /* A process is about to leave in a message: write the driver's live
   * context into p (NULL: the node's copy is current). */
  int (*leaving)(void *ctx, lb_proc *p);
  /* HOME: the protocol brought r to this node, its origin (NULL: ignore). */
  int (*home)(void *ctx, const lb_result_ref *r, double now);
  /* DELIVER: hand the bytes of r, which this driver holds, to the sink. */
  int (*deliver)(void *ctx, const lb_result_ref *r, double now);
  /* A timer is due at `at` (NULL: the driver polls lb_rt_next_timer). */
  void (*wake)(void *ctx, double at);
  /* One row of the trace (lb_trace.h), without a newline (NULL: none). */
  void (*trace)(void *ctx, const char *row);
  /* The number the driver's next send will carry to the receiver, which
   * gives it back as the message's trace_id (NULL: the runtime numbers
   * this node's sends 1, 2, ... and the driver carries m->trace_id). */
  uint32_t (*msg_id)(void *ctx);
} lb_rt_ops;

typedef struct lb_rt lb_rt;

/* The node is made here (lb_node_alloc); ops and ctx are borrowed. */
int lb_rt_alloc(lb_policy pol, size_t id, const lb_topo *t, const lb_node_params *p, const lb_rt_ops *ops, void *ctx,
                lb_rt **out);
/* The same with lb_node_alloc_shared: p is borrowed, speed the node's. */
int lb_rt_alloc_shared(lb_policy pol, size_t id, const lb_topo *t, const lb_node_params *p, double speed,
                       const lb_rt_ops *ops, void *ctx, lb_rt **out);
void lb_rt_free(lb_rt *rt);
/* Carry every step's outputs through `shared` (the driver's, emptied
 * after each step but kept), not a list of the runtime's own that a
 * step makes and gives back: for a driver whose steps never nest (no
 * callback steps a node) and that steps many nodes, one at a time.  A
 * step that finds `shared` not empty fails with LB_ESTATE. */
void lb_rt_use_out(lb_rt *rt, lb_out *shared);

/* Step the node with ev at `now` and carry out every output (a message
 * taken in is traced first, under its trace_id).  Returns
 * the node's status, or else the first callback's error; every output
 * is carried out either way. */
int lb_rt_step(lb_rt *rt, const lb_event *ev, double now);
/* Fire every timer due at or before `now`, in order. */
int lb_rt_fire(lb_rt *rt, double now);
/* The earliest pending timer: 1 and *at, or 0 when none is pending. */
int lb_rt_next_timer(const lb_rt *rt, double *at);
size_t lb_rt_timers(const lb_rt *rt);

lb_node *lb_rt_node(lb_rt *rt);
const lb_node *lb_rt_node_const(const lb_rt *rt);

/* The trace's column line: lb_trace_columns(). */
const char *lb_rt_trace_header(void);

#endif
