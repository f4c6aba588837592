/* lb_sim.h: a deterministic discrete-event simulator driving lb_node
 * through the same runtime (lb_rt.h) the PVM worker uses.
 *
 * Messages cost hops x (latency + bytes / bandwidth) plus an optional
 * uniform jitter in [0, jitter x latency) drawn per message, which lets
 * messages overtake each other.  A node runs the head of its queue in
 * quanta of at most `quantum` time units (work / speed).  Everything
 * random comes from the seed, so a run is repeatable.
 *
 * Results travel as the farm's do: the node routes a reference, and the
 * simulator keeps each result's bytes in the store of the node that
 * holds them, moving them only with a message whose reference says so.
 * With `codec` set every message is encoded to bytes and decoded again
 * on its way (lb_codec.h), as on PVM.
 *
 * The simulator checks the invariants on every run (see
 * lb_sim_result.violations): each process finishes exactly once; its
 * result's bytes are where the protocol says, reach the sink exactly
 * once and unchanged; the protocol brings each result (or its receipt)
 * home to its origin exactly once; nothing is lost in transit; every
 * message survives the codec; and at the end no byte is left in a store
 * and every node is quiescent (lb_node_quiescent: no lock, record or
 * open transaction of its policy, RMTLB's NRT and reservations among
 * them; no result still to come back through it), and the run ends.  With failures,
 * each result still reaches the sink exactly once (a second copy of a
 * process the sink ran again is dropped there, and counted), and the
 * survivors end quiescent.  With a faulty node (corrupt > 0) some of
 * the results it makes are wrong: the sink's check rejects each where
 * it is delivered, the process runs again elsewhere, and the node is
 * excluded after LB_SINK_STRIKES of them (lb_sink.h); the same holds. */
#ifndef LB_SIM_H
#define LB_SIM_H

#include <stdio.h>
#include "lb_mem.h"
#include "lb_node.h"

typedef enum { LB_SIM_LOAD_SKEW, LB_SIM_LOAD_RANDOM, LB_SIM_LOAD_ONE, LB_SIM_LOAD_TRACE } lb_sim_load;

/* est: the work the application declares for it (0: none), which a
 * node may use (lb_proc.est); work is the truth, which only the
 * simulator knows. */
typedef struct lb_sim_arrival {
  double t;
  size_t node;
  double work;
  double est;
} lb_sim_arrival;

/* An outside order at time t: node sends `count` processes to dst. */
typedef struct lb_sim_order {
  double t;
  size_t node, dst;
  long count;
} lb_sim_order;

/* Node `node` fails at time t: its processes, its timers, the result
 * bytes it holds and every message to or from it still in flight are
 * lost.  `detect` later the survivors learn of it (LB_EV_DOWN, with the
 * repaired graph) and the sink runs its recovery (lb_sink.h). */
typedef struct lb_sim_crash {
  double t;
  size_t node;
} lb_sim_crash;

/* A silent fault: nothing tells the survivors; only the node's lease
 * with the master (lb_lease.h, node.lease) running out does, and then
 * the node is fenced: the survivors learn of it as of a failure, the
 * sink recovers its work, everything it sends from then on (messages,
 * results, heartbeats) is dropped and counted, and the master's order
 * to stop ends it when it reaches it.
 *   FREEZE: from t the node does nothing (no quantum, message, timer or
 *     heartbeat) for `dur` (INFINITY: for good), then carries on where
 *     it stopped; what was sent to it waits.
 *   PARTITION: from t for `dur` (finite) the node runs on, but nothing
 *     it sends or is sent arrives; at t + dur what was held arrives.
 * A fault that ends before the lease runs out changes no result.  With
 * silent faults the nodes renew their leases every node.lease.period
 * (a message of one hop's latency to the master) and the master checks
 * them every quarter period; without, no lease is simulated. */
typedef enum { LB_SIM_FREEZE, LB_SIM_PARTITION } lb_sim_silent_kind;
typedef struct lb_sim_silent {
  double t;
  size_t node;
  double dur;
  lb_sim_silent_kind kind;
} lb_sim_silent;

typedef struct lb_sim_config {
  lb_policy policy;
  const lb_topo *topo;  /* borrowed */
  lb_node_params node;  /* every node's parameters (speed, C, ...);
                                 * hop_time <= 0: derived from latency, jitter
                                 * and bandwidth (the worst one-hop time) */
  const double *speeds; /* optional per-node speeds (override) */
  const double *rates;  /* optional: the CPU each node actually gets per
                         * unit of time, where it differs from the speed
                         * its policy knows and plans with (speeds): a
                         * replay of a farm run, whose hosts received
                         * other shares than their nominal --speeds;
                         * NULL: the speeds */
  double latency;       /* per hop, time units */
  double bandwidth;     /* bytes per time unit; <= 0: infinite */
  double jitter;        /* fraction of latency added at random */
  double quantum;       /* longest compute slice, time units */
  lb_sim_load load;
  size_t nproc;                /* processes (0: C x nodes x 2) */
  double work;                 /* mean work per process (uniform 0.5..1.5 x) */
  const lb_sim_arrival *trace; /* LB_SIM_LOAD_TRACE */
  size_t ntrace;
  unsigned long seed;
  int codec;                  /* round-trip every message through lb_codec */
  unsigned codec_whole;       /* of the messages carrying more than 4 KB of
                                 * context, one in this many crosses it with
                                 * the contexts' bytes, the others without
                                 * (sim_net.c; the run is the same); 0: 16,
                                 * 1: every one */
  int leaving;                /* contexts as on the farm: the driver keeps
                                 * a live copy of each process that ran at a
                                 * node, and saves it into the process only
                                 * when it leaves (lb_rt_ops.leaving); 0: the
                                 * node gets the context after every quantum */
  double cost_msg;            /* CPU time a node spends on each message it
                                 * sends, relays or takes */
  double cost_byte;           /* ... and on each byte of it */
  double host_setup;          /* CPU time a node spends once, before its
                                 * first quantum (a workload's per-host
                                 * set-up: matmul builds its B there) */
  int poll;                   /* a node takes messages between quanta only,
                                 * as the farm's worker does */
  size_t result_len;          /* bytes of each result on the wire (0: 8) */
  size_t ctx_len;             /* bytes of each process's context (0: 8) */
  size_t ctx_started_len;     /* ... once it has run a quantum (0: ctx_len):
                               * matmul's grows from its descriptor to its
                               * block's partial sums */
  const lb_sim_order *orders; /* scripted outside orders */
  size_t norders;
  const lb_sim_crash *crashes; /* node failures */
  size_t ncrashes;
  double detect;               /* failure to detection (0: 2 x latency + 1) */
  const lb_sim_silent *silent; /* silent faults, found by leases */
  size_t nsilent;
  double corrupt;           /* a fraction of the results made at node */
  size_t corrupt_node;      /* corrupt_node are wrong (drawn per result);
                                 * when the sink has rejected LB_SINK_STRIKES
                                 * of them the node is excluded: it stops at
                                 * once, and its failure is known at once */
  double sample_dt;         /* load CSV sampling interval (0: none) */
  FILE *load_csv;           /* time,queued,max,min,heavy,light */
  FILE *msg_trace;          /* the trace's rows (lb_trace.h): each message
                                 * sent and taken in, each node's busy, idle
                                 * and balancing intervals; the caller writes
                                 * its head */
  FILE *violation_log;      /* every violation, one per line */
  int optimum;              /* compute res->hops_optimal (default 1) */
  unsigned long max_events; /* 0: 200 million */
  double snapshot_at;       /* when > 0, copy every queue length into */
  long *snapshot;           /* snapshot[0..n-1] at that time and stop there
                                 * (no end-of-run checks: res->stopped = 1) */
  const lb_mem *mem;        /* where lb/'s records of the run come from
                                 * (NULL: the simulator's arena); the calling
                                 * thread's allocator is the caller's again
                                 * when lb_sim_run returns */
} lb_sim_config;

/* Bytes of a context as the run gives them: ctx_len (at least 8, the
 * work left), or once its process has run, ctx_started_len where that
 * is set. */
static inline size_t lb_sim_ctx_size(const lb_sim_config *c, int started)
{
  size_t n = c->ctx_len > sizeof(double) ? c->ctx_len : sizeof(double);
  return started && c->ctx_started_len > sizeof(double) ? c->ctx_started_len : n;
}

/* latency 1, bandwidth 0 (infinite), jitter 0, quantum 1, skew, work 10,
 * sample_dt 0, codec on, optimum on, no CPU cost for messages, messages taken at
 * once, default node parameters with hop_time 0. */
void lb_sim_config_default(lb_sim_config *c);

/* The farm's costs, in units of its quantum (10 ms of CPU): a hop's
 * latency 0.01 (100 us) with jitter 0.5, 2 MB per unit (200 MB/s), 0.005
 * (50 us) of CPU per message and 1e-8 per byte (0.1 ns: 10 GB/s of
 * packing; experiments/calibrate fits 0.19 ms and 0.95 ns on a loaded
 * machine and passes those explicitly),
 * messages taken between quanta, exchange periods 5 (50 ms), processes
 * of 10 units (100 ms) on average.  docs/SIMULATOR.md says where each
 * comes from. */
void lb_sim_config_farm(lb_sim_config *c);

typedef struct lb_sim_result {
  double makespan; /* last result delivered to the sink */
  double ideal;    /* sum(work) / sum(speed) */
  double total_work;
  size_t nproc;
  unsigned long sent[LB_MSG_NTYPES];
  unsigned long messages, bytes, migrated, migrated_started, ctx_bytes, invocations, episodes;
  unsigned long hops; /* process-hops: processes x links crossed */
  long hops_optimal;  /* fewest that balance the processes' origins
                                 * (lb_optimum_hops), -1 if not computed */
  unsigned long events;
  int stopped;                  /* ended at snapshot_at */
  unsigned long placed[8];      /* RMTLB episodes placed in k floods (lb_node_stats) */
  unsigned long dissolved;      /* ... and ended before being placed */
  unsigned long crashed;        /* nodes failed */
  unsigned long lost;           /* processes lost with them (run again) */
  unsigned long reruns;         /* processes the sink ran again */
  unsigned long duplicates;     /* results the sink dropped as second copies */
  unsigned long saved;          /* live contexts saved into leaving processes
                                 * (leaving) */
  unsigned long rejected;       /* wrong results the sink's check rejected */
  unsigned long excluded;       /* nodes excluded for them */
  unsigned long orphans;        /* results delivered off their way home */
  unsigned long fenced;         /* nodes fenced when their lease ran out */
  unsigned long fenced_dropped; /* messages, results and heartbeats a fenced
                                 * node sent, dropped where they arrived */
  unsigned long beats;          /* heartbeats sent */
  unsigned long violations;     /* invariant violations (0 in a correct run) */
  char first_violation[256];
} lb_sim_result;

/* Runs one simulation.  Returns LB_SUCCESS when the run completed (check
 * res->violations), an error status when the configuration is invalid or
 * a node reported a protocol error. */
int lb_sim_run(const lb_sim_config *c, lb_sim_result *res);

/* Reads "time node work [estimate]" lines (node from 0, '#' comments;
 * the estimate, the work the application declares, >= 0, 0 or absent:
 * none). */
int lb_sim_read_trace(const char *path, size_t nnodes, lb_sim_arrival **out, size_t *n);

#endif
