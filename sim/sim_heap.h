/* sim_heap.h: simulator events and a binary min-heap of them ordered by
 * (time, seq), so equal times keep a reproducible order.  seq is the
 * insertion number, with SIM_SEQ_TIMER set on timers: at one instant a
 * node takes its messages, and ends its quantum, before it fires its
 * timers, as the worker does (an answer that arrives exactly at the end
 * of its window counts).  sim_queue.h builds the simulator's event
 * queue from it. */
#ifndef SIM_HEAP_H
#define SIM_HEAP_H

#include <stddef.h>
#include <stdint.h>
#include "lb_proc.h"

typedef enum {
  SIM_EV_DELIVER,
  SIM_EV_TIMER,
  SIM_EV_ARRIVE,
  SIM_EV_QEND,
  SIM_EV_SAMPLE,
  SIM_EV_TICK,
  SIM_EV_ORDER,
  SIM_EV_CRASH,
  SIM_EV_DETECT,
  SIM_EV_REJECT,
  /* silent faults and leases (sim_silent.c) */
  SIM_EV_SILENT, /* silent fault `id` begins */
  SIM_EV_RESUME, /* node `node`'s freeze or partition ends */
  SIM_EV_LEASE,  /* the master's lease check; every fourth, the heartbeats */
  SIM_EV_RENEW,  /* node `node`'s heartbeat reaches the master */
  SIM_EV_QUIT,   /* the master's order to stop reaches fenced node `node` */
  SIM_EV_SINK    /* node `node` hands in the result of process `id` (held by a partition) */
} sim_ev_kind;

/* 40 bytes: a million-node run holds millions.  Node ids fit 32 bits
 * everywhere (the codec's limit). */
typedef struct sim_ev {
  double t;
  uint64_t seq; /* order at equal times (above) */
  uint32_t node;
  uint32_t kind; /* sim_ev_kind */
  union {
    lb_msg *msg;   /* DELIVER (owned) */
    lb_proc *proc; /* ARRIVE (owned) */
    uint64_t id;   /* QEND, REJECT, SINK process id, ORDER destination, SILENT fault */
  };
  double work; /* QEND work done, ORDER count, SINK result length */
} sim_ev;

#define SIM_SEQ_TIMER ((uint64_t)1 << 63)

/* Does (t, seq) come before event b? */
static inline int sim_ev_before(double t, uint64_t seq, const sim_ev *b)
{
  return t < b->t || (t == b->t && seq < b->seq);
}

/* Frees what e owns (a DELIVER's message, an ARRIVE's process). */
void sim_ev_free(sim_ev *e);

typedef struct sim_heap {
  sim_ev *v;
  size_t n, cap;
} sim_heap;

/* Adds e, with the seq it has. */
int sim_heap_insert(sim_heap *h, const sim_ev *e);
/* Pops the earliest event into *e; 0 when empty. */
int sim_heap_pop(sim_heap *h, sim_ev *e);
/* Makes a heap of v[0..n-1] put there in any order. */
void sim_heap_build(sim_heap *h);
/* Room for at least n events. */
int sim_heap_reserve(sim_heap *h, size_t n);
/* Frees owned messages and processes still queued. */
void sim_heap_free(sim_heap *h);

#endif
