/* sim_queue.c: see sim_queue.h.
 *
 * Invariants: every event in `cur` is in a bucket numbered <= at; every
 * event in the ring is in a bucket numbered in (at, at + nring); every
 * event in `far` in a bucket numbered >= at + nring.  Bucket numbers
 * grow with time (an equal time, an equal bucket), so the earliest event
 * of `cur`, when there is one, is the earliest of all. */
#include <stdlib.h>
#include <string.h>
#include "sim_queue.h"
#include "lb_errno.h"

#define FAR_BUCKET ((uint64_t)1 << 62)

int sim_queue_init(sim_queue *q, double w, size_t nbuckets)
{
  memset(q, 0, sizeof *q);
  if (!nbuckets) return LB_SUCCESS;
  if (!(w > 0)) return lb_error(LB_EINVAL, "event queue: bucket width %g", w);
  size_t nr = 1;
  while (nr < nbuckets) nr *= 2;
  if (!(q->ring = calloc(nr, sizeof *q->ring))) return lb_error(LB_ENOMEM, "event queue of %zu buckets", nr);
  q->nring = nr;
  q->scale = 1 / w;
  return LB_SUCCESS;
}

static uint64_t bucket_of(const sim_queue *q, double t)
{
  double x = t * q->scale;
  return x >= (double)FAR_BUCKET ? FAR_BUCKET : x > 0 ? (uint64_t)x : 0;
}

static int ring_add(sim_queue *q, uint64_t b, const sim_ev *e)
{
  sim_bucket *k = &q->ring[b & (q->nring - 1)];
  if (k->n == k->cap) {
    uint32_t c = k->cap ? 2 * k->cap : 16;
    sim_ev *v = c > k->cap ? realloc(k->v, (size_t)c * sizeof *v) : NULL;
    if (!v) return lb_error(LB_ENOMEM, "event bucket of %u events", c);
    k->v = v;
    k->cap = c;
  }
  k->v[k->n++] = *e;
  q->inring++;
  return LB_SUCCESS;
}

/* Where an event of bucket b goes now. */
static int place(sim_queue *q, uint64_t b, const sim_ev *e)
{
  if (b <= q->at) return sim_heap_insert(&q->cur, e);
  if (b - q->at < q->nring) return ring_add(q, b, e);
  return sim_heap_insert(&q->far, e);
}

int sim_queue_push(sim_queue *q, sim_ev e)
{
  e.seq = q->seq++;
  if (!q->nring) return sim_heap_insert(&q->far, &e);
  return place(q, bucket_of(q, e.t), &e);
}

/* Far events whose bucket the ring now reaches move into it. */
static int take_far(sim_queue *q)
{
  int rc = LB_SUCCESS;
  while (!rc && q->far.n) {
    uint64_t b = bucket_of(q, q->far.v[0].t);
    if (b > q->at && b - q->at >= q->nring) break;
    sim_ev e;
    sim_heap_pop(&q->far, &e);
    rc = place(q, b, &e);
  }
  return rc;
}

/* Turn the ring until `cur` holds the earliest events, or all is empty. */
static int load(sim_queue *q)
{
  while (!q->cur.n && (q->inring || q->far.n)) {
    if (!q->inring) {
      /* Nothing in the ring: jump to the bucket of the earliest far
       * event.  Times past the last bucket number share it, so from
       * there on `cur` is one heap of everything. */
      q->at = bucket_of(q, q->far.v[0].t);
    } else q->at++;
    int rc = take_far(q);
    if (rc) return rc;
    sim_bucket *k = &q->ring[q->at & (q->nring - 1)];
    if (!k->n) continue;
    q->inring -= k->n;
    if (!q->cur.n) {
      /* The bucket's array becomes the heap's, and the heap's empty
       * array the bucket's: nothing is copied or allocated. */
      sim_ev *v = q->cur.v;
      uint32_t cap = q->cur.cap < UINT32_MAX ? (uint32_t)q->cur.cap : UINT32_MAX;
      q->cur = (sim_heap){ k->v, k->n, k->cap };
      *k = (sim_bucket){ v, 0, v ? cap : 0 };
    } else {
      if ((rc = sim_heap_reserve(&q->cur, q->cur.n + k->n))) return rc;
      memcpy(q->cur.v + q->cur.n, k->v, (size_t)k->n * sizeof *k->v);
      q->cur.n += k->n;
      k->n = 0;
    }
    sim_heap_build(&q->cur);
  }
  return LB_SUCCESS;
}

int sim_queue_top(sim_queue *q, const sim_ev **top)
{
  *top = NULL;
  if (!q->nring) {
    if (q->far.n) *top = &q->far.v[0];
    return LB_SUCCESS;
  }
  int rc = load(q);
  if (!rc && q->cur.n) *top = &q->cur.v[0];
  return rc;
}

int sim_queue_pop(sim_queue *q, sim_ev *e, int *have)
{
  const sim_ev *top;
  int rc = sim_queue_top(q, &top);
  *have = 0;
  if (rc || !top) return rc;
  *have = sim_heap_pop(q->nring ? &q->cur : &q->far, e);
  return LB_SUCCESS;
}

void sim_queue_free(sim_queue *q)
{
  sim_heap_free(&q->cur);
  sim_heap_free(&q->far);
  for (size_t k = 0; q->ring && k < q->nring; k++) {
    for (uint32_t j = 0; j < q->ring[k].n; j++) sim_ev_free(&q->ring[k].v[j]);
    free(q->ring[k].v);
  }
  free(q->ring);
  memset(q, 0, sizeof *q);
}
