/* lb_node.h: one processor of a balancing policy as a sans-I/O state
 * machine.
 *
 * A driver feeds each node one event at a time with lb_node_step and
 * carries out what the node asks for in the output list: send a
 * message, set a timer, report a result home, deliver a result's bytes.
 * The node never reads a clock, a socket or a file, so the same code
 * runs under simulation and on PVM.  lb_rt.h is the runtime both
 * drivers use around it (timers, dispatch, traces).
 *
 * The node owns its run queue.  The driver runs lb_node_current (the
 * queue's head) for a quantum and reports it with LB_EV_RAN.  Under the
 * default round-robin schedule the head then goes to the back of the
 * queue, as a Unix host time-shares its tasks, so the processes that
 * migrate have usually started; the head is never migrated while its
 * quantum runs.
 *
 * Results move by reference (lb_result_ref): the node routes the
 * reference, and the driver keeps the bytes and moves them with the
 * messages that say so. */
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
  LB_POLICY_DIFFUSION,  /* first order */
  LB_POLICY_DIFFUSION2, /* second order */
  LB_POLICY_STEAL,      /* random work stealing */
  LB_POLICY_POOL,       /* master-worker self-scheduling */
  LB_POLICY_DASUD_RING, /* seed 000's DASUD: expanding-ring search */
  LB_POLICY_COUNT       /* the library's own; a program's policies
                          * (lb_policy.h) are numbered from here */
} lb_policy;

/* Every policy is a registered descriptor (lb_policy.h); these read the
 * registry.  "none", "rmtlb", "lowest", "dasud", "cchspmd", "diffusion",
 * "diffusion2", "steal", "pool", "dasud-ring", then a program's own. */
const char *lb_policy_name(lb_policy p);
int lb_policy_from_name(const char *name, lb_policy *out);
/* "none, rmtlb, ..., dasud-ring", for help texts and messages. */
const char *lb_policy_list(void);

/* Where a result's bytes go.  ORIGIN (the paper's path): with the
 * protocol's result message, back to the process's origin, which
 * delivers them.  DIRECT: delivered at once where the process finished;
 * the protocol's result message still retraces the path, carrying a
 * receipt, so every lock and table evolves as with ORIGIN. */
typedef enum { LB_RESULTS_ORIGIN = 0, LB_RESULTS_DIRECT } lb_results;
const char *lb_results_name(lb_results r);
int lb_results_from_name(const char *name, lb_results *out);

/* RR: the head goes to the back after each quantum; FIFO: a process
 * runs to completion before the next starts. */
typedef enum { LB_SCHED_RR = 0, LB_SCHED_FIFO } lb_sched;

/* HOPS: a message for a node that is not a neighbour goes through the
 * graph, a neighbour at a time (each relay charged like any message),
 * so no policy takes a shortcut the graph does not give.  DIRECT: it
 * goes straight there (the transport's own route). */
typedef enum { LB_ROUTE_HOPS = 0, LB_ROUTE_DIRECT } lb_route;

/* How RMTLB-drain estimates the work left in its queue.  MEAN: each
 * process counts as the mean process less the work it has run (at least
 * one more quantum); DECLARED: the work its application declared for it
 * (lb_proc.est) less what it has run, MEAN where none was declared;
 * ORACLE: the true work left (lb_proc.work in the simulator), which no
 * host knows: an upper bound, not a policy. */
typedef enum { LB_EST_MEAN = 0, LB_EST_DECLARED, LB_EST_ORACLE } lb_rmtlb_estimate;

typedef struct lb_rmtlb_params {
  double tmax;                /* answer window; <= 0: 2 x hop_time x eccentricity */
  unsigned backoff_max;       /* 0: a round with no answer floods again at once
                          * (the paper); k > 0: it first waits Tmax x 2^j,
                          * j = 0, 1, ... up to k */
  double drain;               /* 0: C fixed, the load index Q (the paper).
                          * > 0: the variant RMTLB-drain: the index is the
                          * work left in mean processes, and C starts at
                          * `capacity` and falls by one for each mean
                          * process's work the node runs, down to `drain` */
  double work_mean;           /* RMTLB-drain: work of a mean process, declared by
                          * the application (<= 0: the running mean of the
                          * processes finished here) */
  lb_rmtlb_estimate estimate; /* RMTLB-drain: the work left, estimated how */
} lb_rmtlb_params;

typedef struct lb_lowest_params {
  size_t probes;        /* nodes probed per attempt */
  double timeout;       /* <= 0: 4 x hop_time x eccentricity */
  unsigned backoff_max; /* a round with no light node waits timeout x 2^j,
                          * j = 0, 1, ... up to this (0: no doubling, the
                          * paper describes none) */
} lb_lowest_params;

typedef struct lb_dasud_params {
  double period;
} lb_dasud_params;

typedef struct lb_cchspmd_params {
  double period;
  size_t controller;
  int plan; /* 0 greedy, 1 transport problem (fewest hops) */
} lb_cchspmd_params;

typedef struct lb_diffusion_params {
  double period;
  double alpha; /* uniform coefficient; <= 0: Boillat's per edge */
  double beta;  /* second order, in (0, 2); lb_policy_prepare sets beta_opt */
} lb_diffusion_params;

/* Random work stealing: a node holding fewer than `below` processes
 * asks a random node for work; the victim sends one process or half
 * its movable ones, or refuses; after `tries` refusals in a row (0:
 * every other node's) the thief waits until a victim that refused it
 * has work again. */
typedef struct lb_steal_params {
  int amount; /* 0 one (Blumofe-Leiserson), 1 half */
  int below;
  double retry; /* between a refusal and the next request (0: none) */
  size_t tries; /* 0: once every other node has refused */
} lb_steal_params;

/* Master-worker self-scheduling from a pool kept at node `node`. */
typedef struct lb_pool_params {
  size_t node;
  int chunk; /* 0 factoring, 1 guided (GSS), 2 one at a time */
  int below; /* a node holding fewer asks the pool */
} lb_pool_params;

/* Seed 000's DASUD: a heavy node searches ring after ring. */
typedef struct lb_ring_params {
  double timeout;  /* per ring d; <= 0: 4 x hop_time x d */
  size_t max_ring; /* 0: the node's eccentricity */
} lb_ring_params;

/* Room for the parameters of a program's policies (lb_policy.h). */
#define LB_PARAM_EXT 16

/* The hosts' leases with the master (lb_lease.h), which the drivers
 * keep: no node reads them.  A host renews every `period`; the master
 * fences one whose last renewal is `duration` old. */
typedef struct lb_lease_params {
  double period;
  double duration;
} lb_lease_params;

typedef struct lb_node_params {
  int capacity;       /* C_i, processes */
  double threshold;   /* A_i; < 0: 10 % of C (rounded up with threshold_ceil) */
  int threshold_ceil; /* round the default A up to a whole process */
  double speed;       /* s_i, work units per unit time, > 0 */
  double hop_time;    /* expected one-hop time of a small message, > 0 */
  unsigned long seed; /* random streams (LOWEST probes) */
  lb_results results;
  lb_sched sched;
  lb_route route;
  lb_lease_params lease;
  lb_rmtlb_params rmtlb;
  lb_lowest_params lowest;
  lb_dasud_params dasud;
  lb_cchspmd_params cchspmd;
  lb_diffusion_params diffusion;
  lb_steal_params steal;
  lb_pool_params pool;
  lb_ring_params ring;
  double ext[LB_PARAM_EXT]; /* a program's policies' parameters */
} lb_node_params;

/* Defaults (the rows of lb_param.c): C = 4, A = 10 % of C, speed 1,
 * hop_time 1, results at the origin, round robin; RMTLB Tmax from the
 * eccentricity, no back-off; LOWEST 3 probes, no back-off; periods 1;
 * CCHSPMD controller 0, greedy plan; diffusion alpha and beta 0 (chosen
 * by lb_policy_prepare). */
void lb_node_params_default(lb_node_params *p);

/* Graph-wide set-up that every driver calls once before allocating the
 * nodes: second-order diffusion's beta_opt when beta is unset, a check
 * of the parameters the policy needs, and a registered policy's own
 * prepare (lb_policy.h). */
int lb_policy_prepare(lb_policy pol, const lb_topo *t, lb_node_params *p);

/* ---- events in ---- */
typedef enum {
  LB_EV_MSG,    /* msg from another node (the node takes ownership) */
  LB_EV_TIMER,  /* a timer this node set fired */
  LB_EV_ARRIVE, /* a new process created here (the node takes ownership) */
  LB_EV_RAN,    /* the driver ran process `pid` for a quantum */
  LB_EV_TICK,   /* a policy check point */
  LB_EV_ORDER,  /* send `count` processes to node `dst` now (an outside
                  * order, whatever the policy: tests and scripted runs) */
  LB_EV_DOWN,   /* node `dst` failed; `topo` is the graph the survivors
                  * use from now on (lb_topo_repair; borrowed, it must
                  * outlive the node).  Down is for good: a message that
                  * `dst` hands this node later (it was cut off or frozen
                  * and came back) is dropped and counted (from_down) */
  LB_EV_DISCARD /* forget process `pid`: the driver cannot run it (its
                  * context is damaged); the sink runs it elsewhere */
} lb_event_type;

typedef struct lb_event {
  lb_event_type type;
  lb_msg *msg;      /* MSG */
  uint64_t timer;   /* TIMER */
  lb_proc *proc;    /* ARRIVE */
  uint64_t pid;     /* RAN: which process */
  double work_done; /* RAN: work units done in the quantum */
  const void *ctx;  /* RAN: updated context (copied), or NULL to keep */
  size_t ctx_len;
  int ctx_head;        /* RAN: ctx holds only the context's first ctx_len
                        * bytes, the rest and the length stay as they are
                        * (a state that changes at its start only); a
                        * context shorter than that becomes ctx */
  int finished;        /* RAN: the process completed */
  uint64_t result_len; /* RAN: bytes of its result, which the driver holds */
  size_t dst;          /* ORDER, DOWN */
  long count;          /* ORDER */
  const lb_topo *topo; /* DOWN */
} lb_event;

/* ---- outputs ---- */
typedef enum {
  LB_OUT_SEND,   /* deliver msg to node dst (take it with lb_out_take_msg) */
  LB_OUT_TIMER,  /* fire timer `timer` at absolute time `at` */
  LB_OUT_HOME,   /* the protocol brought `res` to its origin (this node) */
  LB_OUT_DELIVER /* hand the bytes of `res`, held here, to the results' sink */
} lb_out_type;

typedef struct lb_out_item {
  lb_out_type type;
  size_t dst;
  lb_msg *msg;
  uint64_t timer;
  double at;
  lb_result_ref res;
} lb_out_item;

typedef struct lb_out {
  size_t n, cap;
  lb_out_item *v;
} lb_out;

int lb_out_alloc(lb_out **out);
void lb_out_free(lb_out *o);
/* Free everything still in the list and empty it. */
void lb_out_clear(lb_out *o);
/* The same, and give back the list's own block (of an lb_out that is
 * not lb_out_alloc's, such as a member of a larger record). */
void lb_out_release(lb_out *o);
/* Take ownership of item k's message (the list forgets it). */
lb_msg *lb_out_take_msg(lb_out *o, size_t k);

/* ---- the node ---- */
typedef struct lb_node lb_node;

/* `t` is borrowed and must outlive the node; call lb_policy_prepare on
 * the parameters first. */
int lb_node_alloc(lb_policy pol, size_t id, const lb_topo *t, const lb_node_params *p, lb_node **out);
/* The same, but p is borrowed: one set of parameters shared by many
 * nodes (a simulator's), which must outlive them; p->speed is ignored
 * and `speed` is this node's. */
int lb_node_alloc_shared(lb_policy pol, size_t id, const lb_topo *t, const lb_node_params *p, double speed,
                         lb_node **out);
void lb_node_free(lb_node *node);

/* Handle one event at time `now`, appending to `out`.  On an error the
 * event's owned parts are still consumed and the message says why. */
int lb_node_step(lb_node *node, const lb_event *ev, double now, lb_out *out);

/* Head of the run queue (what to run next), or NULL when idle. */
const lb_proc *lb_node_current(const lb_node *node);
/* Whether a check point (LB_EV_TICK) after the step just taken can do
 * anything: 0 only when that step passed a message on for another node
 * and the policy's tick is steady (lb_policy_ops.steady_tick).  Such a
 * step changes no queue, so no quantum can start either. */
int lb_node_tick_due(const lb_node *node);

/* A hint for a driver that knows it will step this node soon (a
 * simulator reading its event queue ahead): start bringing into the
 * cache, at stage 0, the node's fields that every event reads; at stage
 * 1, a little later, the policy's state and the run queue (their
 * addresses are in those fields); at stage 2 the queue's head and the
 * process after it.  It changes nothing; a large simulated run spends
 * most of its time waiting for these. */
void lb_node_prefetch(const lb_node *node, int stage);

/* ---- inspectors ---- */
typedef struct lb_node_stats {
  unsigned long sent[LB_MSG_NTYPES]; /* messages sent, by type */
  unsigned long bytes;               /* bytes sent */
  unsigned long migrated;            /* processes this node sent away */
  unsigned long migrated_started;    /* ... of which had run a quantum */
  unsigned long ctx_bytes;           /* context bytes this node sent away */
  unsigned long hops;                /* process-hops (each hop of each process) */
  unsigned long invocations;         /* policy runs (RMTLB: RM floods) */
  unsigned long episodes;            /* heavy episodes started */
  unsigned long executed;            /* processes finished here */
  unsigned long homed;               /* results home here (HOME) */
  unsigned long delivered;           /* results delivered from here (DELIVER) */
  unsigned long orphans;             /* results delivered here because their way home failed */
  unsigned long relayed;             /* messages passed on for other nodes */
  unsigned long from_down;           /* messages from a neighbour known down, dropped */
  /* RMTLB's claim, per heavy episode: placed[k] episodes whose whole
   * excess was placed by k floods (k = 1..7, 7 also counts more);
   * dissolved: episodes that ended because the node ran down its excess
   * itself before it was placed. */
  unsigned long placed[8];
  unsigned long dissolved;
} lb_node_stats;

size_t lb_node_id(const lb_node *node);
lb_policy lb_node_policy(const lb_node *node);
size_t lb_node_queue_len(const lb_node *node); /* Q */
int lb_node_state(const lb_node *node);        /* lb_state of Q */
const lb_node_stats *lb_node_stats_get(const lb_node *node);

/* A driver that keeps the live contexts (lb_rt_ops.leaving) wrote them
 * into a message this node sends after the node counted it: its
 * processes' contexts came to `after` bytes where the node knew
 * `before`.  Counted in bytes and ctx_bytes. */
void lb_node_count_ctx_change(lb_node *node, size_t before, size_t after);
/* sum += st, count by count: a driver's totals over its nodes. */
void lb_node_stats_add(lb_node_stats *sum, const lb_node_stats *st);
/* Copy the ids of the queued processes into ids[0..cap-1]; returns Q. */
size_t lb_node_queue_ids(const lb_node *node, uint64_t *ids, size_t cap);
/* No transaction open: nothing locked, reserved or awaited. */
int lb_node_quiescent(const lb_node *node);
/* Has node j failed, as far as this node knows? */
int lb_node_is_down(const lb_node *node, size_t j);
/* Results of processes that passed through here and are not back yet. */
size_t lb_node_pending_results(const lb_node *node);
/* What the node holds open (a policy's locks, records, awaited
 * answers), as one line for a report in buf[0..cap-1], "" when the
 * policy has nothing to say; returns the length the whole line needs,
 * as snprintf. */
int lb_node_describe(const lb_node *node, char *buf, size_t cap);

#endif
