/* lb_policy.h: how to write a balancing policy, and how to add one.
 *
 * A policy is a registered descriptor (lb_policy_desc): its name (what
 * --policy takes and the CSV's policy column shows), a line saying what
 * it does, its parameters (rows of the one parameter registry,
 * lb_param.h, so that every driver's options, --help, the farm's SETUP
 * message and the run CSV carry them with no code of their own), and
 * its vtable (lb_policy_ops).  The library registers its own policies
 * itself; a program adds one with lb_policy_register before its first
 * run, and then names it like any other (lb_policy_from_name,
 * lb_sim_config.policy).  examples/policy.c is a whole one.
 *
 * A policy is a sans-I/O state machine like the rest of the node
 * (lb_node.h): each hook gets the node, the time and the output list,
 * changes its own state and appends outputs through the helpers below.
 * It reads no clock, socket or file, so the simulator's invariants hold
 * for it as for the library's own.  What it owns:
 *  - its state, made in init and freed in fini (lb_node_policy_state);
 *  - its messages: LB_MSG_POLICY with a kind of its own (u.pol.kind
 *    below LB_MSG_POLICY_KINDS), a tag and two counts, which the codec
 *    carries and checks like any other; processes move in TRANSFER
 *    messages (lb_node_transfer), which the node queues by itself;
 *  - its timers: ids of its own, through lb_node_timer;
 *  - which processes move, how many and where (lb_node_take_movable
 *    picks which one: never the head, which may be running).
 * What the node does for it: the run queue, quanta, result routing
 * (lb_node_result_direct unless on_result says otherwise), relaying a
 * message through the graph, outside orders, and keeping a message for
 * a failed node from leaving (its processes stay, its result is
 * delivered here).
 *
 * Failures: on_down tells the policy that a node failed; it must free
 * every lock, record and wait tied to it, since the answer it waits for
 * will never come.  A policy is quiescent (lb_node_quiescent) when it
 * holds nothing open: the simulator checks that every node ends so.
 *
 * Registration is not thread-safe: register before any run starts (and
 * before a driver builds its options or CSV header).  The registry
 * keeps the descriptor's pointer: it must outlive the program's runs. */
#ifndef LB_POLICY_H
#define LB_POLICY_H

#include <stddef.h>
#include <stdint.h>
#include "lb_node.h"
#include "lb_param.h"
#include "lb_topo.h"

typedef struct lb_policy_ops {
  /* Make the policy's state (lb_node_set_policy_state); NULL: none. */
  int (*init)(lb_node *nd);
  void (*fini)(lb_node *nd);
  /* A message for this node (its type is not RESULT or TRANSFER, which
   * the node handles for every policy).  The policy owns m from here on
   * and must free it (lb_msg_free). */
  int (*on_msg)(lb_node *nd, lb_msg *m, double now, lb_out *out);
  /* A timer it set fired. */
  int (*on_timer)(lb_node *nd, uint64_t id, double now, lb_out *out);
  /* A check point: after each quantum the node runs. */
  int (*on_tick)(lb_node *nd, double now, lb_out *out);
  /* A result reference is ready here (the process ran here, or its
   * result came back here).  NULL: lb_node_result_direct. */
  int (*on_result)(lb_node *nd, const lb_result_ref *r, double now, lb_out *out);
  /* Process p ran here for a quantum that did `work` (p->ran counts it
   * already); `finished`: it is done, and freed after this. */
  void (*on_ran)(lb_node *nd, const lb_proc *p, double work, int finished);
  /* A TRANSFER came in; its processes are queued already (m->nproc is
   * 0 here), and m is freed after this. */
  int (*on_transfer)(lb_node *nd, const lb_msg *m, double now, lb_out *out);
  /* Node `dead` failed; the node's graph is already the repaired one.
   * Free every lock, record and count tied to it. */
  int (*on_down)(lb_node *nd, size_t dead, double now, lb_out *out);
  /* Nothing open (NULL: always quiescent). */
  int (*quiescent)(const lb_node *nd);
  /* Results still to come back through here (NULL: none). */
  size_t (*pending)(const lb_node *nd);
  /* What is open, one line for a report (NULL: nothing to say). */
  int (*describe)(const lb_node *nd, char *buf, size_t cap);
  /* Non-zero: on_tick decides nothing by the clock and, called again
   * with no event between, does nothing; so a step that only passed a
   * message on needs no check point after it (lb_node_tick_due). */
  int steady_tick;
} lb_policy_ops;

typedef struct lb_policy_desc {
  const char *name;    /* lower case, digits and '-': "steal" */
  const char *summary; /* one line, for --help */
  const lb_policy_ops *ops;
  /* Its own parameters (a program's policy; the library's are rows of
   * lb_param.c's table).  Each name is "NAME.something"; type, range,
   * default, arg and help as in lb_param.h.  The registry copies the
   * rows and keeps each value in lb_node_params.ext as a double, so
   * `policy`, `offset` and `ctype` are its own; read a value with
   * lb_node_param.  At most LB_PARAM_EXT over all registered policies. */
  const lb_param *params;
  size_t nparams;
  /* Graph-wide checks or set-up, once before the nodes are made
   * (lb_policy_prepare); NULL: none. */
  int (*prepare)(const lb_topo *t, lb_node_params *p);
} lb_policy_desc;

/* Register d: *id (may be NULL) gets the policy's number, which names
 * it to lb_node_alloc and lb_sim_config.policy.  LB_EINVAL for a bad
 * name, a name taken, a bad row; LB_ENOMEM when the registry or the
 * parameter room is full. */
int lb_policy_register(const lb_policy_desc *d, lb_policy *id);
/* Every registered policy: 0 .. lb_policy_count() - 1, the library's
 * first (LB_POLICY_COUNT of them). */
size_t lb_policy_count(void);
/* Its descriptor, or NULL. */
const lb_policy_desc *lb_policy_desc_get(lb_policy p);

/* ---- what a policy reads ---- */
const lb_topo *lb_node_topo(const lb_node *nd); /* the current graph */
int lb_node_capacity(const lb_node *nd);        /* C */
double lb_node_threshold(const lb_node *nd);    /* A */
double lb_node_hop_time(const lb_node *nd);     /* the expected one-hop time */
const lb_node_params *lb_node_params_of(const lb_node *nd);
/* A parameter's value by name ("halve.share"), NaN if none. */
double lb_node_param(const lb_node *nd, const char *name);
size_t lb_node_down_count(const lb_node *nd); /* failed nodes known */
/* The policy's state. */
void *lb_node_policy_state(const lb_node *nd);
void lb_node_set_policy_state(lb_node *nd, void *state);
/* A number in [0, n), n > 0, from the node's own seeded stream. */
unsigned long lb_node_random_below(lb_node *nd, unsigned long n);

/* ---- what a policy does ---- */
/* Send m to dst (any node: it goes through the graph under the hops
 * route).  Takes m, whatever happens; a message for a failed node is
 * not sent (its processes are queued here again). */
int lb_node_send(lb_node *nd, lb_out *out, size_t dst, lb_msg *m);
/* A POLICY message of the given kind, tag and counts to dst. */
int lb_node_send_policy(lb_node *nd, lb_out *out, size_t dst, uint32_t kind, uint64_t tag, long a, long b);
/* Fire timer `id` at absolute time `at`. */
int lb_node_timer(lb_out *out, uint64_t id, double at);
/* How long to wait for dst's answer: twice the round trip over the
 * current graph at the expected hop time (4 x hop time x distance, at
 * least one hop), doubled for each of the last `late` answers that did
 * not come in time (up to 2^10), so a wait that the hop time
 * underestimates grows until the answers fit it. */
double lb_node_answer_window(const lb_node *nd, size_t dst, unsigned late);
/* Processes that may leave now: Q - 1 (the head stays), or 0. */
size_t lb_node_movable(const lb_node *nd);
/* Send up to k movable processes to dst in one TRANSFER (`ordered`
 * and `epoch` are the policy's to read in the receiver's on_transfer:
 * a count and a tag); *sent gets how many went. */
int lb_node_transfer(lb_node *nd, lb_out *out, size_t dst, size_t k, long ordered, size_t *sent);
int lb_node_transfer_epoch(lb_node *nd, lb_out *out, size_t dst, size_t k, long ordered, uint32_t epoch, size_t *sent);
/* One at a time, for a policy that packs its own messages: take a
 * process that may leave now (never the head; the node takes the one
 * with the most work left by what a host knows, lb_proc est - ran, the
 * nearest the tail on a tie), or NULL; put it back if it could not leave; count it once it left. */
lb_proc *lb_node_take_movable(lb_node *nd);
/* The same k times, or while one may leave, into v in the order taken:
 * how many.  On a long queue much cheaper than k calls. */
size_t lb_node_take_movable_n(lb_node *nd, lb_proc **v, size_t k);
void lb_node_put_back(lb_node *nd, lb_proc *p);
void lb_node_count_leaving(lb_node *nd, const lb_proc *p);
/* Queue a process that arrived in a message of the policy's own. */
int lb_node_enqueue(lb_node *nd, lb_proc *p);
/* Results: HOME for r (this node is its origin, and DELIVER too when
 * its bytes are here); the default routing (HOME here, else RESULT to
 * the origin); and a result whose way home failed, delivered here. */
int lb_node_home(lb_node *nd, lb_out *out, const lb_result_ref *r);
int lb_node_result_direct(lb_node *nd, const lb_result_ref *r, lb_out *out);
int lb_node_orphan_result(lb_node *nd, const lb_result_ref *r, lb_out *out);
/* Counters: a heavy episode when the node has just turned heavy
 * (returns whether it is heavy now); a run of the policy. */
int lb_node_track_heavy(lb_node *nd);
void lb_node_count_invocation(lb_node *nd);
/* Neighbours: j's index in the list of the node's neighbours, or
 * (size_t)-1; m's sender's index, or (size_t)-1 with m freed (*rc
 * LB_SUCCESS for a stale message from a former neighbour, else an
 * error). */
size_t lb_node_nbr_index(const lb_node *nd, size_t j);
size_t lb_node_sender(lb_node *nd, lb_msg *m, int *rc);
/* An error for a message the policy does not take; frees m. */
int lb_node_unexpected(lb_node *nd, lb_msg *m);

#endif
