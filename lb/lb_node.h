/* lb_node.h: one processor of a balancing policy as a sans-I/O state
 * machine.
 *
 * A driver (the simulator in sim/, the PVM worker) feeds each node one
 * event at a time with lb_node_step and carries out what the node asks
 * for in the output list: send a message, set a timer, hand a finished
 * result to the application.  The node never reads a clock, a socket or
 * a file, so the same code runs under simulation and on PVM.
 *
 * The node owns its run queue.  The driver runs lb_node_current (the
 * queue's head) for a quantum and reports it with LB_EV_RAN; the head is
 * never migrated, so a process is never moved while it runs. */
#ifndef LB_NODE_H
#define LB_NODE_H

#include <stddef.h>
#include <stdint.h>
#include "lb_proc.h"
#include "lb_topo.h"

typedef enum {
  LB_POLICY_NONE = 0,
  LB_POLICY_RMTLB,
  LB_POLICY_LOWEST,
  LB_POLICY_DASUD,
  LB_POLICY_CCHSPMD,
  LB_POLICY_DIFFUSION,   /* first order */
  LB_POLICY_DIFFUSION2,  /* second order */
  LB_POLICY_COUNT
} lb_policy;

/* "none", "rmtlb", "lowest", "dasud", "cchspmd", "diffusion", "diffusion2". */
const char *lb_policy_name(lb_policy p);
int lb_policy_from_name(const char *name, lb_policy *out);

typedef struct lb_node_params {
  int capacity;         /* C_i, processes */
  int threshold;        /* A_i; < 0 means lb_load_threshold(C, 10) */
  double speed;         /* s_i, work units per unit time, > 0 */
  double hop_time;      /* expected one-hop message time (RMTLB Tmax) */
  double tmax;          /* RMTLB Tmax; <= 0: 2 x hop_time x eccentricity */
  unsigned backoff_max; /* RMTLB: empty rounds double the wait up to 2^this */
  size_t probes;        /* LOWEST: nodes probed per attempt */
  double period;        /* DASUD / diffusion / CCHSPMD exchange period */
  size_t controller;    /* CCHSPMD controller node */
  int plan;             /* CCHSPMD plan: 0 greedy, 1 transport problem (fewest hops) */
  double alpha, beta;   /* diffusion: uniform alpha (<= 0: Boillat's); 2nd-order beta in (0, 2) */
  unsigned long seed;   /* this node's random stream (LOWEST probes) */
} lb_node_params;

/* Defaults: C = 4, A from lb_load, speed 1, hop_time 1, backoff_max 5,
 * 3 probes, period 1, controller 0, alpha 0, beta 0 (second-order
 * diffusion then refuses to start: its driver must choose beta). */
void lb_node_params_default(lb_node_params *p);

/* ---- events in ---- */
typedef enum {
  LB_EV_MSG,     /* msg from another node (the node takes ownership) */
  LB_EV_TIMER,   /* a timer this node set fired */
  LB_EV_ARRIVE,  /* a new process created here (the node takes ownership) */
  LB_EV_RAN,     /* the driver ran process `pid` for a quantum */
  LB_EV_TICK     /* a policy check point */
} lb_event_type;

typedef struct lb_event {
  lb_event_type type;
  lb_msg *msg;                 /* MSG */
  uint64_t timer;              /* TIMER */
  lb_proc *proc;               /* ARRIVE */
  uint64_t pid;                /* RAN: which process */
  double work_done;            /* RAN: work units done in the quantum */
  const void *ctx;             /* RAN: updated context (copied), or NULL to keep */
  size_t ctx_len;
  int finished;                /* RAN: the process completed */
  const void *result;          /* RAN: its result blob (copied) */
  size_t result_len;
} lb_event;

/* ---- outputs ---- */
typedef enum {
  LB_OUT_SEND,   /* deliver msg to node dst (take it with lb_out_take_msg) */
  LB_OUT_TIMER,  /* fire timer `timer` at absolute time `at` */
  LB_OUT_HOME,   /* result of process pid reached its origin: hand it over */
  LB_OUT_TRACE   /* a line for the per-message trace */
} lb_out_type;

typedef struct lb_out_item {
  lb_out_type type;
  size_t dst;
  lb_msg *msg;
  uint64_t timer;
  double at;
  uint64_t pid;
  unsigned char *result;
  size_t result_len;
  char *text;
} lb_out_item;

typedef struct lb_out {
  size_t n, cap;
  lb_out_item *v;
  int trace;           /* set to 1 to receive TRACE items */
} lb_out;

int lb_out_alloc(lb_out **out);
void lb_out_free(lb_out *o);
/* Free everything still in the list and empty it. */
void lb_out_clear(lb_out *o);
/* Take ownership of item k's message (the list forgets it). */
lb_msg *lb_out_take_msg(lb_out *o, size_t k);

/* ---- the node ---- */
typedef struct lb_node lb_node;

/* `t` is borrowed and must outlive the node. */
int lb_node_alloc(lb_policy pol, size_t id, const lb_topo *t,
                  const lb_node_params *p, lb_node **out);
void lb_node_free(lb_node *node);

/* Handle one event at time `now`, appending to `out`.  On an error the
 * event's owned parts are still consumed and the message says why. */
int lb_node_step(lb_node *node, const lb_event *ev, double now, lb_out *out);

/* Head of the run queue (what to run next), or NULL when idle. */
const lb_proc *lb_node_current(const lb_node *node);

/* ---- inspectors ---- */
typedef struct lb_node_stats {
  unsigned long sent[LB_MSG_NTYPES];  /* messages sent, by type */
  unsigned long bytes;                /* bytes sent */
  unsigned long migrated;             /* processes this node sent away */
  unsigned long hops;                 /* process-hops (each hop of each process) */
  unsigned long invocations;          /* policy runs (RMTLB: RM floods) */
  unsigned long episodes;             /* heavy episodes started */
  unsigned long executed;             /* processes finished here */
  unsigned long homed;                /* results delivered here (HOME) */
} lb_node_stats;

size_t lb_node_id(const lb_node *node);
lb_policy lb_node_policy(const lb_node *node);
size_t lb_node_queue_len(const lb_node *node);   /* Q */
int lb_node_state(const lb_node *node);          /* lb_state of Q */
long lb_node_lepn(const lb_node *node);          /* -1 when idle */
long lb_node_lipn(const lb_node *node);          /* -1 when idle */
size_t lb_node_rmtv(const lb_node *node);        /* LB_NO_NODE when unlocked */
size_t lb_node_nrt_size(const lb_node *node);
/* Results of processes that passed through here and are not back yet. */
size_t lb_node_pending_results(const lb_node *node);
/* No transaction open: nothing locked, reserved or awaited. */
int lb_node_quiescent(const lb_node *node);
const lb_node_stats *lb_node_stats_get(const lb_node *node);
/* Copy the ids of the queued processes into ids[0..cap-1]; returns Q. */
size_t lb_node_queue_ids(const lb_node *node, uint64_t *ids, size_t cap);

#endif
