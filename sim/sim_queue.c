/* sim_queue.c: see sim_queue.h.
 *
 * Invariants: the events of `run` (from `next`) and `cur` are in
 * buckets numbered <= at; those of the ring in buckets numbered in
 * (at, at + nring); those of `far` in buckets numbered >= at + nring.
 * Bucket numbers grow with time (equal times, equal buckets), so the
 * earlier of run[next] and cur's top, when there is one, is the
 * earliest event of all. */
#include <stdlib.h>
#include <string.h>
#include "sim_queue.h"
#include "lb_errno.h"

#define FAR_BUCKET ((uint64_t)1 << 62)
#define SPENT_KEEP 256 /* events */

int sim_queue_init(sim_queue *q, double w, size_t nbuckets)
{
  memset(q, 0, sizeof *q);
  if (!nbuckets) return LB_SUCCESS;
  if (!(w > 0)) return lb_error(LB_EINVAL, "event queue: bucket width %g", w);
  size_t nr = 1;
  while (nr < nbuckets) nr *= 2;
  q->ring = calloc(nr, sizeof *q->ring);
  q->full = calloc((nr + 63) / 64, sizeof *q->full);
  if (!q->ring || !q->full) {
    free(q->ring);
    free(q->full);
    memset(q, 0, sizeof *q);
    return lb_error(LB_ENOMEM, "event queue of %zu buckets", nr);
  }
  q->nring = nr;
  q->scale = 1 / w;
  return LB_SUCCESS;
}

static uint64_t bucket_of(const sim_queue *q, double t)
{
  double x = t * q->scale;
  return x >= (double)FAR_BUCKET ? FAR_BUCKET : x > 0 ? (uint64_t)x : 0;
}

static void mark(sim_queue *q, uint64_t b, int full)
{
  size_t i = b & (q->nring - 1);
  uint64_t bit = (uint64_t)1 << (i % 64);
  if (full) q->full[i / 64] |= bit;
  else q->full[i / 64] &= ~bit;
}

/* The first bucket in [b, end) that holds events, or end. */
static uint64_t next_full(const sim_queue *q, uint64_t b, uint64_t end)
{
  if (q->nring < 64) { /* a ring shorter than a word: bucket by bucket */
    while (b < end && !(q->full[0] >> (b & (q->nring - 1)) & 1)) b++;
    return b;
  }
  while (b < end) {
    size_t i = b & (q->nring - 1);
    uint64_t w = q->full[i / 64] >> (i % 64);
    if (w) {
      b += (uint64_t)__builtin_ctzll(w);
      return b < end ? b : end;
    }
    b += 64 - i % 64;
  }
  return end;
}

/* A large array spent: kept if it is the largest. */
static void keep_spare(sim_queue *q, sim_bucket spent)
{
  if (spent.cap <= q->spare.cap) {
    free(spent.v);
    return;
  }
  free(q->spare.v);
  q->spare = (sim_bucket){spent.v, 0, spent.cap};
}

static int bucket_add(sim_queue *q, uint64_t b, const sim_ev *e)
{
  sim_bucket *k = &q->ring[b & (q->nring - 1)];
  if (!k->n) mark(q, b, 1);
  /* A bucket growing large (on whole-unit times, one time's events: a
   * node's worth of them) takes the spare rather than growing into
   * fresh pages, which the system must zero, every time unit. */
  if (k->n == k->cap && k->cap >= SPENT_KEEP && q->spare.cap > k->cap) {
    memcpy(q->spare.v, k->v, k->n * sizeof *k->v);
    sim_ev *v = k->v;
    k->v = q->spare.v;
    k->cap = q->spare.cap;
    q->spare = (sim_bucket){v, 0, k->n}; /* full: as large as it got */
  }
  if (k->n == k->cap) {
    size_t c = k->cap ? 2 * k->cap : 16;
    sim_ev *v = realloc(k->v, c * sizeof *v);
    if (!v) return lb_error(LB_ENOMEM, "event bucket of %zu events", c);
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
  if (b - q->at < q->nring) return bucket_add(q, b, e);
  return sim_heap_insert(&q->far, e);
}

int sim_queue_push(sim_queue *q, sim_ev e)
{
  e.seq = q->seq++ | (e.kind == SIM_EV_TIMER ? SIM_SEQ_TIMER : 0);
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

static int by_time(const void *a, const void *b)
{
  const sim_ev *x = a, *y = b;
  return sim_ev_before(x->t, x->seq, y) ? -1 : sim_ev_before(y->t, y->seq, x);
}

static int before(const sim_ev *a, const sim_ev *b) { return sim_ev_before(a->t, a->seq, b); }

/* Insertion sort of v[0..n-1]: short runs, mostly in order. */
static void insertion(sim_ev *v, size_t n)
{
  for (size_t i = 1; i < n; i++) {
    sim_ev x = v[i];
    size_t j = i;
    for (; j > 0 && before(&x, &v[j - 1]); j--) v[j] = v[j - 1];
    v[j] = x;
  }
}

/* Merge sort of v[0..n-1] with room for n / 2 in tmp.  (time, seq) is a
 * total order (no two events share a seq), so this is qsort's order;
 * but the comparisons are inlined, halves already in order are not
 * merged, and tmp is the queue's, kept from bucket to bucket (qsort's
 * own, for a bucket of one time unit's events, is fresh pages that
 * the system zeroes every time). */
static void merge_sort(sim_ev *v, sim_ev *tmp, size_t n)
{
  if (n <= 16) {
    insertion(v, n);
    return;
  }
  size_t h = n / 2;
  merge_sort(v, tmp, h);
  merge_sort(v + h, tmp, n - h);
  if (!before(&v[h], &v[h - 1])) return;
  memcpy(tmp, v, h * sizeof *v);
  size_t i = 0, j = h, k = 0; /* k <= j: the right half is read before it is written over */
  while (i < h && j < n) v[k++] = before(&v[j], &tmp[i]) ? v[j++] : tmp[i++];
  while (i < h) v[k++] = tmp[i++];
}

/* Room for n events in tmp and m + 1 counts; 0 when out of memory. */
static int room(sim_queue *q, size_t n, size_t m)
{
  if (n > q->tmpcap) {
    sim_ev *t = realloc(q->tmp, n * sizeof *t);
    if (!t) return 0;
    q->tmp = t;
    q->tmpcap = n;
  }
  if (m + 1 > q->cntcap) {
    size_t *c = realloc(q->cnt, (m + 1) * sizeof *c);
    if (!c) return 0;
    q->cnt = c;
    q->cntcap = m + 1;
  }
  return 1;
}

/* A large bucket's events lie spread over its width (a run of many
 * messages at jittered latencies gives hundreds a bucket): dealt by
 * time into some n / SPREAD slots, in array order, then each slot
 * sorted.  The slot of a time never decreases with it, so the slots in
 * turn are the whole order; O(n) where times spread, where merge_sort
 * compared each event log n times.  Equal times share a slot. */
#define SPREAD 4
static int spread_sort(sim_queue *q, sim_bucket *k)
{
  size_t n = k->n, m = n / SPREAD;
  double lo = k->v[0].t, hi = lo;
  for (size_t i = 1; i < n; i++) {
    if (k->v[i].t < lo) lo = k->v[i].t;
    if (k->v[i].t > hi) hi = k->v[i].t;
  }
  if (!(hi > lo) || !room(q, n, m)) return 0;
  double scale = (double)m / (hi - lo);
  size_t *cnt = q->cnt;
  for (size_t j = 0; j <= m; j++) cnt[j] = 0;
  for (size_t i = 0; i < n; i++) {
    size_t j = (size_t)((k->v[i].t - lo) * scale);
    cnt[(j < m ? j : m - 1) + 1]++;
  }
  for (size_t j = 1; j <= m; j++) cnt[j] += cnt[j - 1];
  for (size_t i = 0; i < n; i++) {
    size_t j = (size_t)((k->v[i].t - lo) * scale);
    q->tmp[cnt[j < m ? j : m - 1]++] = k->v[i];
  }
  /* cnt[j] is now where slot j + 1 begins */
  size_t from = 0;
  for (size_t j = 0; j < m; j++) {
    size_t len = cnt[j] - from;
    if (len > 64) merge_sort(q->tmp + from, k->v, len); /* bunched: k->v is free room now */
    else insertion(q->tmp + from, len);
    from = cnt[j];
  }
  /* the sorted events go back as the bucket's array */
  sim_ev *v = k->v;
  size_t cap = k->cap;
  k->v = q->tmp;
  k->cap = q->tmpcap;
  q->tmp = v;
  q->tmpcap = cap;
  return 1;
}

/* Events are appended in the order made, so a bucket is usually in
 * order already (always, when all its events share one time). */
static void sort_bucket(sim_queue *q, sim_bucket *k)
{
  for (size_t i = 1; i < k->n; i++)
    if (before(&k->v[i], &k->v[i - 1])) {
      if (k->n >= 16 * SPREAD && spread_sort(q, k)) return;
      size_t need = k->n / 2 + 1;
      if (!room(q, need, 0)) {
        qsort(k->v, k->n, sizeof *k->v, by_time); /* it needs no room of ours */
        return;
      }
      merge_sort(k->v, q->tmp, k->n);
      return;
    }
}

/* Turn the ring until run or cur holds the earliest events, or all is
 * empty. */
static int load(sim_queue *q)
{
  while (q->next == q->run.n && !q->cur.n && (q->inring || q->far.n)) {
    /* With the ring empty, jump to the earliest far event's bucket
     * (times past the last bucket number share it; from there on cur is
     * one heap of everything). */
    q->at = q->inring ? q->at + 1 : bucket_of(q, q->far.v[0].t);
    int rc = take_far(q);
    if (rc) return rc;
    sim_bucket *k = &q->ring[q->at & (q->nring - 1)];
    if (!k->n) continue;
    /* The bucket's array becomes the run, and the run's spent array the
     * bucket's if it is small: a large one (a whole time step's events)
     * would stay with a bucket that needs little. */
    sim_bucket spent = {q->run.v, 0, q->run.cap};
    if (spent.cap > SPENT_KEEP) {
      keep_spare(q, spent);
      spent = (sim_bucket){0};
    }
    q->inring -= k->n;
    mark(q, q->at, 0);
    q->run = *k;
    q->next = 0;
    *k = spent;
    sort_bucket(q, &q->run);
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
  if (rc) return rc;
  const sim_ev *r = q->next < q->run.n ? &q->run.v[q->next] : NULL, *h = q->cur.n ? &q->cur.v[0] : NULL;
  *top = !r ? h : !h || sim_ev_before(r->t, r->seq, h) ? r : h;
  return LB_SUCCESS;
}

void sim_queue_take(sim_queue *q, const sim_ev *top, sim_ev *e)
{
  if (!q->nring) sim_heap_pop(&q->far, e);
  else if (top == &q->run.v[q->next]) {
    *e = *top;
    q->next++;
  } else sim_heap_pop(&q->cur, e);
}

int sim_queue_pop(sim_queue *q, sim_ev *e, int *have)
{
  const sim_ev *top;
  int rc = sim_queue_top(q, &top);
  *have = 0;
  if (rc || !top) return rc;
  sim_queue_take(q, top, e);
  *have = 1;
  return LB_SUCCESS;
}

/* Buckets looked into at most: AHEAD_BUCKETS in all, the empty ones
 * skipped a word of `full` at a time (late in a run, or on a sparse
 * one, most are), and AHEAD_FULL that hold events.  On a run sparse
 * enough to need more, the events it would find are few and in cache. */
#define AHEAD_BUCKETS 128
#define AHEAD_FULL    8

void sim_queue_ahead(const sim_queue *q, const size_t *k, const sim_ev **e, size_t m)
{
  size_t j = 0, skip = q->next; /* events before the bucket looked into */
  const sim_bucket *x = &q->run;
  uint64_t end = q->at + 1 + (q->nring - 1 < AHEAD_BUCKETS ? q->nring - 1 : AHEAD_BUCKETS);
  for (uint64_t b = q->at + 1, left = AHEAD_FULL; j < m; left--) {
    for (; j < m && skip + k[j] < x->n; j++) e[j] = &x->v[skip + k[j]];
    if (j == m || !q->nring || !left || (b = next_full(q, b, end)) == end) break;
    skip -= x->n; /* below zero, mod 2^64: skip + k[j] is still the index */
    x = &q->ring[b++ & (q->nring - 1)];
  }
  for (; j < m; j++) e[j] = NULL;
}

void sim_queue_prefetch_push(const sim_queue *q, double t)
{
  uint64_t b = bucket_of(q, t);
  if (b <= q->at || b - q->at >= q->nring) return;
  const sim_bucket *x = &q->ring[b & (q->nring - 1)];
  __builtin_prefetch(x->v + x->n, 1);
}

void sim_queue_free(sim_queue *q)
{
  for (size_t j = q->next; j < q->run.n; j++) sim_ev_free(&q->run.v[j]);
  free(q->run.v);
  sim_heap_free(&q->cur);
  sim_heap_free(&q->far);
  for (size_t k = 0; q->ring && k < q->nring; k++) {
    for (size_t j = 0; j < q->ring[k].n; j++) sim_ev_free(&q->ring[k].v[j]);
    free(q->ring[k].v);
  }
  free(q->ring);
  free(q->full);
  free(q->spare.v);
  free(q->tmp);
  free(q->cnt);
  memset(q, 0, sizeof *q);
}
