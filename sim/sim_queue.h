/* sim_queue.h: the simulator's event queue.  Events come out by (time,
 * seq) (timers last at one time: sim_heap.h), exactly the order one heap
 * of them gives, but are kept in buckets of time.
 *
 * Nearly every event of a run is due within a few time units (a
 * quantum's end, a message one hop away), and on the default whole-unit
 * quanta and latencies most share their time with thousands of others.
 * An event goes to a ring of fine buckets of width w, appended in the
 * order made; when the ring reaches a bucket its events are sorted by
 * time (stable: insertion order is array order, and a bucket of one
 * time is sorted already) and read in order, and an event made for a
 * time already reached waits in a small heap beside them.  Events beyond
 * the ring wait in a heap of their own and move into the ring as it
 * turns.  One heap of the millions of events of a million-node run
 * misses the cache at several levels on every push and pop. */
#ifndef SIM_QUEUE_H
#define SIM_QUEUE_H

#include "sim_heap.h"

typedef struct sim_bucket {
  sim_ev *v;
  size_t n, cap;
} sim_bucket;

typedef struct sim_queue {
  sim_bucket run; /* the current bucket, sorted; read from `next` */
  size_t next;
  sim_heap cur;     /* events made for buckets already reached */
  sim_heap far;     /* events beyond the ring */
  sim_bucket *ring; /* nring buckets (a power of two), or NULL: all in `far` */
  uint64_t *full;   /* a bit per bucket of the ring: it holds events */
  sim_bucket spare; /* the largest spent array, for the next bucket that grows large */
  sim_ev *tmp;      /* room for sorting a bucket, tmpcap events */
  size_t tmpcap;
  size_t *cnt; /* a large bucket's slot counts, cntcap of them */
  size_t cntcap;
  size_t nring;
  double scale;  /* 1 / w */
  uint64_t at;   /* absolute number of the current bucket */
  size_t inring; /* events in the ring */
  uint64_t seq;  /* the next insertion number */
} sim_queue;

/* An empty queue of nbuckets buckets (rounded up to a power of two) of
 * width w > 0; nbuckets 0: one heap.  Any w gives the same order. */
int sim_queue_init(sim_queue *q, double w, size_t nbuckets);
/* Adds e and gives it its seq: the next insertion number, marked on a
 * timer. */
int sim_queue_push(sim_queue *q, sim_ev e);
/* The earliest event in *top (NULL when empty); it stays queued. */
int sim_queue_top(sim_queue *q, const sim_ev **top);
/* For looking ahead, never for the order: e[j] gets an event likely to
 * come k[j] pops from now, or NULL (k ascending, m of them).  Past the
 * current bucket it looks into the next few as they lie, not yet
 * sorted: late in a run a bucket may hold a few events or none. */
void sim_queue_ahead(const sim_queue *q, const size_t *k, const sim_ev **e, size_t m);
/* A hint that an event for time t will likely be pushed soon: brings
 * the end of its bucket into the cache.  Changes nothing. */
void sim_queue_prefetch_push(const sim_queue *q, double t);
/* Pops into *e the event sim_queue_top just gave (nothing pushed or
 * popped since). */
void sim_queue_take(sim_queue *q, const sim_ev *top, sim_ev *e);
/* Pops the earliest event into *e; *have = 0 when empty. */
int sim_queue_pop(sim_queue *q, sim_ev *e, int *have);
/* Frees the queue and what its events own. */
void sim_queue_free(sim_queue *q);

#endif
