/* sim_heap.h: the simulator's event queue, a binary min-heap ordered by
 * (time, insertion number) so equal times keep a reproducible order. */
#ifndef SIM_HEAP_H
#define SIM_HEAP_H

#include <stddef.h>
#include <stdint.h>
#include "lb_proc.h"

typedef enum { SIM_EV_DELIVER, SIM_EV_TIMER, SIM_EV_ARRIVE, SIM_EV_QEND, SIM_EV_SAMPLE, SIM_EV_TICK, SIM_EV_ORDER, SIM_EV_CRASH, SIM_EV_DETECT } sim_ev_kind;

typedef struct sim_ev {
  double t;
  uint64_t seq;
  sim_ev_kind kind;
  size_t node;
  lb_msg *msg;      /* DELIVER (owned) */
  lb_proc *proc;    /* ARRIVE (owned) */
  uint64_t id;      /* QEND process id, ORDER destination */
  double work;      /* QEND work done, ORDER count */
} sim_ev;

typedef struct sim_heap {
  sim_ev *v;
  size_t n, cap;
  uint64_t seq;
} sim_heap;

int sim_heap_push(sim_heap *h, sim_ev e);
/* Pops the earliest event into *e; 0 when empty. */
int sim_heap_pop(sim_heap *h, sim_ev *e);
/* Frees owned messages and processes still queued. */
void sim_heap_free(sim_heap *h);

#endif
