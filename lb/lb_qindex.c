/* lb_qindex.c: the index of a long run queue by known work left (lb_qindex.h). */
#include <string.h>
#include "lb_qindex.h"
#include "lb_errno.h"
#include "lb_mem.h"

/* Room for the heap: every process in the queue once, and as many
 * entries again of processes gone before it is rebuilt. */
static size_t heap_cap(size_t cap) { return 2 * cap + 64; }

/* a above b: a larger key, or the same and later in the queue */
static int above(const lb_qindex_ent *a, const lb_qindex_ent *b)
{
  return a->key > b->key || (a->key == b->key && a->seq > b->seq);
}

static void sift_up(lb_qindex_ent *h, size_t i)
{
  lb_qindex_ent e = h[i];
  while (i > 0) {
    size_t up = (i - 1) / 2;
    if (!above(&e, &h[up])) break;
    h[i] = h[up];
    i = up;
  }
  h[i] = e;
}

static void sift_down(lb_qindex_ent *h, size_t n, size_t i)
{
  lb_qindex_ent e = h[i];
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && above(&h[c + 1], &h[c])) c++;
    if (!above(&h[c], &e)) break;
    h[i] = h[c];
    i = c;
  }
  h[i] = e;
}

/* The heap again from the queue: one entry per movable process. */
static void rebuild(lb_qindex *x, size_t off, lb_proc *const *q, size_t nq)
{
  const uint64_t *s = x->seq + off;
  x->nh = 0;
  for (size_t k = 1; k < nq; k++)
    if (q[k]) x->h[x->nh++] = (lb_qindex_ent){lb_qindex_key(q[k]), s[k]};
  for (size_t i = x->nh / 2; i-- > 0;) sift_down(x->h, x->nh, i);
}

int lb_qindex_alloc(size_t cap, size_t off, lb_proc *const *q, size_t nq, lb_qindex **out)
{
  *out = NULL;
  lb_qindex *x = lb_mem_calloc(sizeof *x);
  uint64_t *s = lb_mem_alloc(cap * sizeof *s);
  lb_qindex_ent *h = lb_mem_alloc(heap_cap(cap) * sizeof *h);
  if (!x || !s || !h) {
    lb_mem_free(x, sizeof *x);
    lb_mem_free(s, cap * sizeof *s);
    lb_mem_free(h, heap_cap(cap) * sizeof *h);
    return lb_error(LB_ENOMEM, "run queue index of %zu slots", cap);
  }
  *x = (lb_qindex){.seq = s, .h = h, .cap = cap, .hcap = heap_cap(cap)};
  for (size_t k = 0; k < nq; k++) s[off + k] = x->next++;
  rebuild(x, off, q, nq);
  *out = x;
  return LB_SUCCESS;
}

void lb_qindex_free(lb_qindex *x)
{
  if (!x) return;
  lb_mem_free(x->seq, x->cap * sizeof *x->seq);
  lb_mem_free(x->h, x->hcap * sizeof *x->h);
  lb_mem_free(x, sizeof *x);
}

int lb_qindex_grow(lb_qindex *x, size_t cap, size_t off, size_t nq)
{
  uint64_t *s = lb_mem_alloc(cap * sizeof *s);
  lb_qindex_ent *h = lb_mem_alloc(heap_cap(cap) * sizeof *h);
  if (!s || !h) {
    lb_mem_free(s, cap * sizeof *s);
    lb_mem_free(h, heap_cap(cap) * sizeof *h);
    return lb_error(LB_ENOMEM, "run queue index of %zu slots", cap);
  }
  memcpy(s, x->seq + off, nq * sizeof *s);
  memcpy(h, x->h, x->nh * sizeof *h);
  lb_mem_free(x->seq, x->cap * sizeof *x->seq);
  lb_mem_free(x->h, x->hcap * sizeof *x->h);
  x->seq = s;
  x->h = h;
  x->cap = cap;
  x->hcap = heap_cap(cap);
  return LB_SUCCESS;
}

static void push(lb_qindex *x, size_t off, lb_proc *const *q, size_t nq, size_t k)
{
  /* Full of entries of processes gone: rebuilt, it holds at most
   * cap - 1, so there is room. */
  if (x->nh == x->hcap) rebuild(x, off, q, nq);
  else {
    x->h[x->nh] = (lb_qindex_ent){lb_qindex_key(q[k]), x->seq[off + k]};
    sift_up(x->h, x->nh++);
  }
}

void lb_qindex_joined(lb_qindex *x, size_t off, lb_proc *const *q, size_t nq)
{
  x->seq[off + nq - 1] = x->next++;
  if (nq > 1) push(x, off, q, nq, nq - 1);
}

void lb_qindex_changed(lb_qindex *x, size_t off, lb_proc *const *q, size_t nq, size_t k) { push(x, off, q, nq, k); }

/* Where number s is among q[1..nq-1] (their numbers rise), or 0. */
static size_t find(const uint64_t *s, size_t nq, uint64_t v)
{
  size_t lo = 1, hi = nq;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (s[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo < nq && s[lo] == v ? lo : 0;
}

static void pop(lb_qindex *x)
{
  x->h[0] = x->h[--x->nh];
  if (x->nh) sift_down(x->h, x->nh, 0);
}

size_t lb_qindex_take(lb_qindex *x, size_t off, lb_proc *const *q, size_t nq)
{
  const uint64_t *s = x->seq + off;
  for (;;) {
    /* Every process in q[1..nq-1] has an entry with its key, so one is
     * found before the heap runs out; if not, the queue rebuilds it. */
    if (!x->nh) rebuild(x, off, q, nq);
    size_t k = find(s, nq, x->h[0].seq);
    if (k && !q[k]) k = 0; /* taken in this batch (lb_node_take_movable_n) */
    double key = k ? lb_qindex_key(q[k]) : 0;
    /* a NaN key matches itself, so a rebuilt heap's top always does */
    int ok = k && (key == x->h[0].key || (key != key && x->h[0].key != x->h[0].key));
    pop(x);
    if (ok) return k;
  }
}
