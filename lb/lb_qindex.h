/* lb_qindex.h: a long run queue's index of its movable processes by
 * the work a host knows to be left of them (lb_qindex_key), so that a
 * migration finds the one to send in O(log n) rather than by a scan of
 * the queue (lb_node.c; not installed).
 *
 * The queue stays what it is, a window q[0..nq-1] sliding in its
 * buffer.  Beside the buffer the index keeps, slot by slot, the
 * sequence number each process got when it joined the queue's end, so
 * the window's numbers rise from head to tail; lb_node.c moves them
 * with the same memmove as the pointers.  A max-heap orders
 * (key, number) pairs: its top is the process with the most work
 * left, the latest in the queue on ties, exactly the one a scan from
 * the tail would pick.  Processes that leave are not taken out of the
 * heap: an entry is checked when it reaches the top (its number still
 * in q[1..nq-1], by binary search, with that key) and dropped if not;
 * the heap is rebuilt from the queue when it fills. */
#ifndef LB_QINDEX_H
#define LB_QINDEX_H

#include <stddef.h>
#include <stdint.h>
#include "lb_proc.h"

/* The key: the work a host knows to be left of p, its declared work
 * less the work run of it (lb_node_take_movable's rule).  It changes
 * only when p runs. */
static inline double lb_qindex_key(const lb_proc *p) { return (double)p->est - (double)p->ran; }

typedef struct lb_qindex_ent {
  double key; /* lb_qindex_key when the entry was made */
  uint64_t seq;
} lb_qindex_ent;

typedef struct lb_qindex {
  uint64_t *seq;    /* seq[slot]: the number of the process in that slot of the buffer */
  lb_qindex_ent *h; /* the heap, with room for hcap entries */
  size_t cap, hcap, nh;
  uint64_t next; /* the number the next process to join gets */
} lb_qindex;

/* An index for a buffer of cap slots holding the window q[0..nq-1] at
 * slot off: numbers given to the window, the heap built. */
int lb_qindex_alloc(size_t cap, size_t off, lb_proc *const *q, size_t nq, lb_qindex **out);
void lb_qindex_free(lb_qindex *x);
/* The buffer grew to cap slots, the window now at slot 0 (it was at
 * slot off).  Out of memory: as it was. */
int lb_qindex_grow(lb_qindex *x, size_t cap, size_t off, size_t nq);
/* q[nq-1] (the window at slot off) has just joined the end: its number,
 * and an entry unless it is the head.  Never fails. */
void lb_qindex_joined(lb_qindex *x, size_t off, lb_proc *const *q, size_t nq);
/* q[k], k >= 1, stays where it is with a new key (it ran): a new entry. */
void lb_qindex_changed(lb_qindex *x, size_t off, lb_proc *const *q, size_t nq, size_t k);
/* The index k >= 1 of the process with the largest key among
 * q[1..nq-1], the latest on ties; its entry goes.  A NULL slot (a
 * process taken, the queue not closed up yet) is skipped; at least one
 * slot of q[1..nq-1] holds a process. */
size_t lb_qindex_take(lb_qindex *x, size_t off, lb_proc *const *q, size_t nq);

#endif
