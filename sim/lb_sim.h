/* lb_sim.h: a deterministic discrete-event simulator driving lb_node.
 *
 * Messages cost hops x (latency + bytes / bandwidth) plus an optional
 * uniform jitter in [0, jitter x latency) drawn per message, which lets
 * messages overtake each other.  A node runs the head of its queue in
 * quanta of at most `quantum` time units (work / speed).  Everything
 * random comes from the seed, so a run is repeatable.
 *
 * The simulator also checks the protocol invariants on every run (see
 * lb_sim_result.violations): each process finishes exactly once, its
 * result reaches its origin exactly once, nothing is lost in transit,
 * and at the end every node is quiescent (LEPN = LIPN = -1, NRT empty,
 * no rmtv lock). */
#ifndef LB_SIM_H
#define LB_SIM_H

#include <stdio.h>
#include "lb_node.h"

typedef enum { LB_SIM_LOAD_SKEW, LB_SIM_LOAD_RANDOM, LB_SIM_LOAD_ONE, LB_SIM_LOAD_TRACE } lb_sim_load;

typedef struct lb_sim_arrival { double t; size_t node; double work; } lb_sim_arrival;

typedef struct lb_sim_config {
  lb_policy policy;
  const lb_topo *topo;          /* borrowed */
  lb_node_params node;          /* every node's parameters (speed, C, ...) */
  const double *speeds;         /* optional per-node speeds (override) */
  double latency;               /* per hop, time units */
  double bandwidth;             /* bytes per time unit; <= 0: infinite */
  double jitter;                /* fraction of latency added at random */
  double quantum;               /* longest compute slice, time units */
  lb_sim_load load;
  size_t nproc;                 /* processes (0: C x nodes x 2) */
  double work;                  /* mean work per process (uniform 0.5..1.5 x) */
  const lb_sim_arrival *trace;  /* LB_SIM_LOAD_TRACE */
  size_t ntrace;
  unsigned long seed;
  double sample_dt;             /* load CSV sampling interval (0: none) */
  FILE *load_csv;               /* time,queued,max,min,heavy,light */
  FILE *msg_trace;              /* one line per message sent */
  FILE *violation_log;          /* every violation, one per line */
  unsigned long max_events;     /* 0: 200 million */
  double snapshot_at;           /* when > 0, copy every queue length into */
  long *snapshot;               /* snapshot[0..n-1] at that time and stop there
                                 * (no end-of-run checks: res->stopped = 1) */
} lb_sim_config;

/* latency 1, bandwidth 0 (infinite), jitter 0, quantum 1, skew, work 10,
 * sample_dt 0, default node parameters. */
void lb_sim_config_default(lb_sim_config *c);

typedef struct lb_sim_result {
  double makespan;              /* last result home */
  double ideal;                 /* sum(work) / sum(speed) */
  double total_work;
  size_t nproc;
  unsigned long sent[LB_MSG_NTYPES];
  unsigned long messages, bytes, migrated, invocations, episodes;
  unsigned long hops;           /* process-hops: processes x links crossed */
  unsigned long events;
  int stopped;                  /* ended at snapshot_at */
  unsigned long violations;     /* invariant violations (0 in a correct run) */
  char first_violation[256];
} lb_sim_result;

/* Runs one simulation.  Returns LB_SUCCESS when the run completed (check
 * res->violations), an error status when the configuration is invalid or
 * a node reported a protocol error. */
int lb_sim_run(const lb_sim_config *c, lb_sim_result *res);

/* Reads "time node work" lines (node from 0, '#' comments). */
int lb_sim_read_trace(const char *path, size_t nnodes, lb_sim_arrival **out, size_t *n);

#endif
