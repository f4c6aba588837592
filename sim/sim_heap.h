/* sim_heap.h: the simulator's event queue, a binary min-heap ordered by
 * (time, insertion number) so equal times keep a reproducible order. */
#ifndef SIM_HEAP_H
#define SIM_HEAP_H

#include <stddef.h>
#include <stdint.h>
#include "lb_proc.h"

typedef enum { SIM_EV_DELIVER, SIM_EV_TIMER, SIM_EV_ARRIVE, SIM_EV_QEND, SIM_EV_SAMPLE, SIM_EV_TICK, SIM_EV_ORDER, SIM_EV_CRASH, SIM_EV_DETECT } sim_ev_kind;

/* 40 bytes: the heap of a million-node run holds millions. */
typedef struct sim_ev {
  double t;
  uint64_t seq : 56;  /* insertion number, set by sim_heap_push */
  uint64_t kind : 8;  /* sim_ev_kind */
  size_t node;
  union {
    lb_msg *msg;      /* DELIVER (owned) */
    lb_proc *proc;    /* ARRIVE (owned) */
    uint64_t id;      /* QEND process id, ORDER destination */
  };
  double work;        /* QEND work done, ORDER count */
} sim_ev;

typedef struct sim_heap {
  sim_ev *v;
  size_t n, cap;
  uint64_t seq;       /* the next insertion number */
} sim_heap;

int sim_heap_push(sim_heap *h, sim_ev e);
/* Pops the earliest event into *e; 0 when empty. */
int sim_heap_pop(sim_heap *h, sim_ev *e);
/* The earliest event, or NULL when empty. */
const sim_ev *sim_heap_top(const sim_heap *h);
/* Does (t, seq) come before event b? */
int sim_ev_before(double t, uint64_t seq, const sim_ev *b);
/* Frees what e owns (a DELIVER's message, an ARRIVE's process). */
void sim_ev_free(sim_ev *e);
/* Frees owned messages and processes still queued. */
void sim_heap_free(sim_heap *h);

#endif
