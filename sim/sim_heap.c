/* sim_heap.c: binary min-heap of simulator events. */
#include <stdlib.h>
#include "sim_heap.h"
#include "lb_errno.h"

int sim_ev_before(double t, uint64_t seq, const sim_ev *b)
{
  return t < b->t || (t == b->t && seq < b->seq);
}

static int before(const sim_ev *a, const sim_ev *b) { return sim_ev_before(a->t, a->seq, b); }

const sim_ev *sim_heap_top(const sim_heap *h) { return h->n ? &h->v[0] : NULL; }

int sim_heap_push(sim_heap *h, sim_ev e)
{
  if (h->n == h->cap) {
    size_t c = h->cap ? 2 * h->cap : 1024;
    sim_ev *v = realloc(h->v, c * sizeof *v);
    if (!v) return lb_error(LB_ENOMEM, "event queue of %zu events", c);
    h->v = v;
    h->cap = c;
  }
  e.seq = h->seq++;
  size_t i = h->n++;
  while (i > 0) {
    size_t p = (i - 1) / 2;
    if (!before(&e, &h->v[p])) break;
    h->v[i] = h->v[p];
    i = p;
  }
  h->v[i] = e;
  return LB_SUCCESS;
}

int sim_heap_pop(sim_heap *h, sim_ev *e)
{
  if (!h->n) return 0;
  *e = h->v[0];
  sim_ev last = h->v[--h->n];
  size_t i = 0;
  for (;;) {
    size_t l = 2 * i + 1, r = l + 1, m = i;
    const sim_ev *best = &last;
    if (l < h->n && before(&h->v[l], best)) { m = l; best = &h->v[l]; }
    if (r < h->n && before(&h->v[r], best)) m = r;
    if (m == i) break;
    h->v[i] = h->v[m];
    i = m;
  }
  if (h->n) h->v[i] = last;
  return 1;
}

void sim_ev_free(sim_ev *e)
{
  if (e->kind == SIM_EV_DELIVER) lb_msg_free(e->msg);
  if (e->kind == SIM_EV_ARRIVE) lb_proc_free(e->proc);
  e->msg = NULL;
}

void sim_heap_free(sim_heap *h)
{
  for (size_t k = 0; k < h->n; k++) sim_ev_free(&h->v[k]);
  free(h->v);
  h->v = NULL;
  h->n = h->cap = 0;
}
