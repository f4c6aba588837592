/* sim_impl.h: the simulator's state, shared by its rooms (not for
 * drivers; lb_sim.h is the interface):
 *   lb_sim.c       configuration, set-up and end of a run, its totals
 *   sim_loop.c     the event loop: next event, quanta, check points
 *   sim_prefetch.c fetching the events to come into the cache
 *   sim_net.c      messages: hop times, CPU costs, the codec, parking,
 *                  and the runtime's callbacks for them
 *   sim_check.c    the invariants: where each process and its result
 *                  are, checked at every step and at the end
 *   sim_live.c     where a process's context is: in the process after
 *                  every quantum, or (leaving mode) in a live copy the
 *                  driver saves into it when it leaves, as the farm
 *   sim_faults.c   failures: a node lost, detected, its work run again
 *   sim_silent.c   silent faults (frozen, cut off) and the leases that
 *                  find them: fencing, and a fenced node that comes back
 *   sim_load.c     the workload: processes, arrivals, orders, samples
 *   sim_trace.c    the trace's state rows: busy, idle, balancing */
#ifndef SIM_IMPL_H
#define SIM_IMPL_H

#include <stdint.h>
#include "lb_sim.h"
#include "lb_rt.h"
#include "lb_trace.h"
#include "lb_sink.h"
#include "lb_lease.h"
#include "lb_codec.h"
#include "lb_rng.h"
#include "lb_mem.h"
#include "sim_queue.h"

/* Where a result's bytes are: at a node (its index), or one of these. */
#define AT_NOWHERE ((size_t)-1) /* not made yet */
#define AT_WIRE    ((size_t)-2) /* inside a message in flight */
#define AT_SINK    ((size_t)-3) /* delivered */
#define AT_LOST    ((size_t)-4) /* lost with a failed node */

typedef struct sim sim;

/* The live contexts a node keeps (leaving mode): (process, work left). */
typedef struct sim_livetab {
  struct sim_live *v;
  size_t n, cap;
} sim_livetab;

/* What the driver follows of one process, in one record: an event
 * reads several of these for one process, and a large run finds the
 * process's record out of cache. */
typedef struct simproc {
  double work0;    /* its work, to run it again */
  uint64_t bytes;  /* its result's bytes, as made where it finished: a
                           * wrong one (lb_sim_config.corrupt) differs from
                           * the right one by 1 + the node that made it */
  size_t where;    /* its result's bytes: see AT_* */
  uint32_t origin; /* nodes are fewer than 2^32 (check_config) */
  unsigned char done, home, sunk;
  unsigned char rerun; /* the sink ran it again */
} simproc;

/* The driver's state of one node, in one cache line: a large run takes
 * the nodes in no order, an event at a time.  It is also the runtime's
 * callback context. */
typedef struct simnode {
  lb_rt *rt;
  lb_node *nd; /* lb_rt_node(rt) */
  sim *S;
  double cpu_free; /* when its CPU is done with messages */
  int warm;        /* its first quantum (and host_setup) is done */
  struct parked {
    lb_msg **v;
    size_t n, cap;
  } parked;                 /* messages waiting for the quantum's end */
  unsigned char busy, dead; /* dead: it stopped (crashed, excluded, or told to stop) */
  unsigned char out;        /* failed or fenced: counted in ndead, taken for down */
  unsigned char fenced;     /* its lease ran out: what it sends is dropped */
} simnode;

/* A node's silent faults (sim_silent.c): until when it is frozen, or
 * cut off; its quanta run (its progress). */
typedef struct simsil {
  double frozen_until, cut_until;
  uint64_t quanta;
} simsil;

struct sim {
  const lb_sim_config *c;
  size_t n;
  simnode *node;         /* n, aligned to cache lines */
  unsigned char *ctxbuf; /* a context being written (the larger length) */
  sim_queue h;
  lb_out out; /* every node's step's outputs (lb_rt_use_out) */
  /* Events made at the start are read in order rather than kept in the
   * heap: the arrivals (process k has insertion number k; a trace's in
   * order of time, by arr_order) and every node's first check point. */
  size_t next_arr, next_tick;
  size_t *arr_order; /* trace loads: the processes by (time, id) */
  uint64_t tick_seq; /* insertion number of node 0's first check point */
  lb_rng *rng;       /* message jitter */
  lb_rng *crng;      /* which results the faulty node gets wrong */
  lb_codec_limits lim;
  unsigned char *wire; /* a message's bytes on their way through the codec */
  size_t wirecap;
  uint32_t *lens; /* context lengths, kept while a message crosses thin */
  size_t nlens;
  unsigned long big_msgs; /* messages with more than SIM_CODEC_THIN bytes of context */
  size_t np;
  simproc *pr; /* np, on large pages */
  size_t ndone, nhome, nsunk;
  size_t ndead;        /* nodes failed, excluded or fenced (out) */
  size_t crash_events; /* scheduled failures that came */
  lb_sink *sink;
  unsigned char *known; /* per node: failed, and the survivors know it */
  const lb_topo *topo;  /* the graph in use (repaired after failures) */
  lb_topo **repaired;   /* every repaired graph made (owned) */
  size_t nrepaired;
  long inflight; /* processes inside messages in flight */
  size_t msgs_inflight;
  double last_sunk;
  int failed;                       /* a node reported a protocol error */
  size_t busy_at;                   /* where sim_all_quiet last found a busy node */
  sim_livetab *live;                /* per node, in leaving mode (else NULL) */
  struct sim_tnode *tr;             /* per node, with the trace (else NULL) */
  double tr_last;                   /* ... and the time of the event being handled */
  simsil *sil;                      /* per node, with silent faults (else NULL) */
  lb_lease *lease;                  /* the master's leases, with silent faults */
  lb_rng *brng;                     /* the heartbeats' jitter (its own stream: the messages' stays as without) */
  uint64_t epoch;                   /* the sink's open inventory round */
  size_t silent_begun, silent_open; /* silent faults begun; frozen or cut, not fenced */
  unsigned long lease_ticks;
  double last_real; /* the last event that was not a lease check */
  lb_sim_result *r;
  lb_node_params params; /* every node's, borrowed by them */
  double sum_speed;
  lb_mem caller; /* the thread's allocator before the run */
  lb_mem arena_mem;
  struct sim_arena *arena;
  int mem_set;  /* the run's allocator is installed */
  int prefetch; /* look ahead and prefetch (sim_prefetch.c): large runs only */
};

/* From this many nodes a run looks ahead in its events and prefetches
 * what they will touch; a smaller one finds its records in cache, and
 * the look-ahead only costs: paired runs (AMD EPYC, Zen 5) took 10 %
 * more CPU with it at 1 024 nodes, 15-30 % more on the tournament's
 * torus:32x32 and 20 % more on torus:8x8, and 5-15 % less at 2 025,
 * 25 % less at 4 096, half at 16 384. */
#ifndef SIM_PREFETCH_NODES
#define SIM_PREFETCH_NODES 2048
#endif

/* Messages carrying more context bytes than SIM_CODEC_THIN cross the
 * codec whole one time in SIM_CODEC_WHOLE (unless the configuration's
 * codec_whole says otherwise), without their contexts' bytes the other
 * times (sim_net.c).  Only speed depends on these. */
#ifndef SIM_CODEC_THIN
#define SIM_CODEC_THIN 4096
#endif
#ifndef SIM_CODEC_WHOLE
#define SIM_CODEC_WHOLE 16
#endif

/* A quantum a node starts: process pid runs `work` until `end`. */
typedef struct sim_quantum {
  int go;
  uint64_t pid;
  double work, end;
} sim_quantum;

/* The result a process returns: a checksum of its id, so a result that
 * reaches the wrong process or is corrupted on the way is caught. */
static inline uint64_t sim_result_of(uint64_t pid) { return pid * 0x9E3779B97F4A7C15ull ^ 0x5bd1e995ull; }
/* What a result claims on the wire; the store keeps its checksum. */
static inline size_t sim_result_len(const sim *S) { return S->c->result_len ? S->c->result_len : sizeof(uint64_t); }
/* A context: the work left, then padding to the configured size. */
static inline size_t sim_ctx_len(const sim *S) { return lb_sim_ctx_size(S->c, 0); }
/* ... of a process that has run */
static inline size_t sim_ctx_started_len(const sim *S) { return lb_sim_ctx_size(S->c, 1); }
/* The rate at which node i computes: its received rate where one is
 * given (lb_sim_config.rates), else the speed its policy knows. */
static inline double sim_speed(const sim *S, size_t i)
{
  return S->c->rates ? S->c->rates[i] : S->c->speeds ? S->c->speeds[i] : S->c->node.speed;
}
/* Node of the j-th arrival. */
static inline size_t sim_arr_node(const sim *S, size_t j)
{
  size_t k = S->arr_order ? S->arr_order[j] : j;
  return S->c->load == LB_SIM_LOAD_TRACE ? S->c->trace[k].node : S->pr[k].origin;
}
static inline size_t sim_node_of(const sim *S, const simnode *x) { return (size_t)(x - S->node); }

/* lb_sim.c: a run from its start to its end, for any driver.  sim_open
 * checks the configuration, installs the run's allocator, makes the
 * nodes with the runtime callbacks `ops` (NULL: this simulator's; their
 * context is the node's simnode) and draws the workload; sim_end
 * writes the makespan, the ideal and the totals into the result and
 * makes the final checks; sim_close frees everything sim_open made,
 * however far it got, and gives the thread its allocator back. */
int sim_open(sim *S, const lb_sim_config *c, lb_sim_result *res, const lb_rt_ops *ops);
void sim_end(sim *S);
void sim_close(sim *S);

/* sim_loop.c */
int sim_run(sim *S);
/* Node i, neither busy nor failed, gets its check point at `now`; then,
 * if it has work, it starts a quantum of its head (after the CPU time
 * its messages take): q->go, and what runs until when.  Nothing
 * happens to a busy or failed node. */
int sim_start(sim *S, size_t i, double now, sim_quantum *q);
/* Node i's quantum of process pid ended at t having done `work`: the
 * node hears of it, then takes the messages that came meanwhile and,
 * polling, its due timers; *kick: it may start its next quantum. */
int sim_quantum_done(sim *S, size_t i, uint64_t pid, double work, double t, int *kick);
/* Is the run over at t?  Every result home and at the sink, nothing in
 * flight, and every node idle; or so long after the work was done
 * (*done_at, -1 at first) that a lock must be stuck. */
int sim_over(sim *S, double t, double *done_at);
/* The load CSV's header. */
void sim_sample_header(const sim *S);
/* Node i takes event ev at `now` (an error names the time and node). */
int sim_step(sim *S, size_t i, const lb_event *ev, double now);
/* After any event: an idle node gets a check point, then starts its
 * next quantum if it has work. */
int sim_kick(sim *S, size_t i, double now);

/* sim_prefetch.c */
void sim_prefetch_arrivals(const sim *S);
void sim_prefetch(const sim *S);

/* sim_net.c */
/* The runtime's callbacks: [1] with the message trace, [2] contexts
 * leaving through `leaving`, [3] both. */
extern const lb_rt_ops sim_ops[4];
/* A message reaches its link's end (e->node). */
int sim_deliver(sim *S, const sim_ev *e);
/* Message m reaches node i at t: lost if either end failed, waits for
 * the quantum's end if the node polls and is busy, else the node takes
 * it (*kick: then it may start a quantum). */
int sim_arrive(sim *S, size_t i, lb_msg *m, double t, int *kick);
/* What every driver does as node i sends m at `now`: the node's CPU is
 * charged, a result's bytes leave, m counts as in flight; returns the
 * links its route crosses (more than one with --route direct). */
double sim_sending(sim *S, size_t i, const lb_msg *m, double now);
/* m as the codec's bytes in S->wire (grown as needed), *len of them. */
int sim_encode(sim *S, const lb_msg *m, size_t *len);
/* The runtime's trace callback: the row to the message trace. */
void sim_trace(void *ctx, const char *row);
/* Node i takes the messages that came during its quantum, in order. */
int sim_unpark(sim *S, size_t i, double t);

/* sim_check.c */
void sim_violation(sim *S, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* pid names a process of the run (else a violation). */
int sim_known_pid(sim *S, size_t i, uint64_t pid, const char *what);
/* The runtime's HOME and DELIVER: the result came home, reached the sink. */
int sim_home(void *ctx, const lb_result_ref *r, double now);
int sim_to_sink(void *ctx, const lb_result_ref *r, double now);
/* The sink takes pid's result (len bytes) from node i at `now`: once,
 * checked; never from a fenced node. */
int sim_sink_take(sim *S, size_t i, uint64_t pid, uint64_t len, double now);
/* Node i sent, or took in, a message carrying the bytes of a result. */
void sim_result_sent(sim *S, size_t i, uint64_t pid);
void sim_result_arrived(sim *S, size_t i, uint64_t pid);
/* Process p ends a quantum at node i having done `work`: its context
 * must say what the node says is left; *fin: it finished (its result is
 * made here).  Returns the work left. */
double sim_ran(sim *S, size_t i, const lb_proc *p, double work, int *fin);
void sim_finish_checks(sim *S);
/* Every live node idle: no open transaction, nothing queued. */
int sim_all_quiet(sim *S);

/* sim_live.c */
/* What p's context says is left at node i: its live copy there, else
 * the context it carries; 0 when it carries none of the right size. */
int sim_context(sim *S, size_t i, const lb_proc *p, double *left);
/* After a quantum of p at node i, `left` to go (fin: none): into the
 * RAN event's context, or into p's live copy there. */
int sim_context_keep(sim *S, size_t i, const lb_proc *p, double left, int fin, lb_event *ran);
/* The runtime's `leaving` (leaving mode). */
int sim_leaving(void *ctx, lb_proc *p);
int sim_live_alloc(sim *S);
/* Node i failed: its live copies are lost with it. */
void sim_live_drop(sim *S, size_t i);
void sim_live_free(sim *S);

/* sim_faults.c */
/* A message to or from a failed node is lost, with what it carries. */
void sim_lose(sim *S, lb_msg *m);
/* Node d fails (excluded: the sink stopped it for its wrong results). */
int sim_crash(sim *S, size_t d, int excluded);
int sim_detect(sim *S, size_t d, double now);
/* What nobody holds after a round, run again (sim_rerun), or one
 * process (sim_rerun_one) from the start at `host`. */
int sim_rerun(sim *S, double now);
int sim_rerun_one(sim *S, uint64_t pid, size_t host, double now);
/* The sink rejected a wrong result of pid that node `exec` made: it
 * runs again elsewhere, and a node with too many strikes is excluded
 * (stopped at once, its failure known at once). */
int sim_reject(sim *S, uint64_t pid, size_t exec, double now);
/* Failures scheduled or not yet detected keep the run going. */
int sim_pending_failures(const sim *S);

/* sim_trace.c: a node's CPU time as the trace's state rows (with
 * lb_sim_config.msg_trace only: S->tr is NULL otherwise). */
int sim_trace_alloc(sim *S);
/* Node i's CPU is in state s (busy, balancing) over [start, end); idle
 * before, since the end of its last work.  Callers check S->tr. */
void sim_trace_cpu(sim *S, size_t i, lb_host_state s, double start, double end);
/* Node i failed now (S->tr_last). */
void sim_trace_down(sim *S, size_t i);
/* Every live node's lane to the end of the run. */
void sim_trace_end(sim *S);
void sim_trace_free(sim *S);
/* sim_silent.c */
int sim_silent_alloc(sim *S);
void sim_silent_free(sim *S);
/* Is node i frozen, or cut off, at t?  When does it end (INFINITY: never)? */
int sim_frozen(const sim *S, size_t i, double t);
int sim_cut(const sim *S, size_t i, double t);
double sim_silent_end(const sim *S, size_t i, double t);
/* An event for node e->node while it is frozen: it waits for the thaw
 * (or, frozen for good, is lost). */
int sim_defer(sim *S, sim_ev *e);
/* The earliest a message sent at `now` with delay d from src to dst can
 * arrive; INFINITY: never (a node frozen for good). */
double sim_arrival(const sim *S, size_t src, size_t dst, double now, double d);
/* The silent faults' and leases' events. */
int sim_silent_event(sim *S, sim_ev *e);
/* Node i answers the open inventory round (a frozen or cut-off node
 * answers when it resumes). */
int sim_answer(sim *S, size_t i, double now);
/* Silent faults still to begin or resolve keep the run going. */
int sim_silent_pending(const sim *S);

/* sim_load.c */
/* Process pid as it starts, at node: its context the work it has. */
int sim_new_proc(sim *S, uint64_t pid, size_t node, lb_proc **out);
/* Each process's origin and work, the orders and failures as events. */
int sim_setup_load(sim *S, lb_sim_result *res);
/* res->hops_optimal for the processes at their origins. */
void sim_optimum(sim *S, lb_sim_result *res);
/* One row of the load CSV. */
void sim_sample(sim *S, double t);

#endif
