/* sim_heap.c: binary min-heap of simulator events. */
#include <stdlib.h>
#include "sim_heap.h"
#include "lb_errno.h"

static int before(const sim_ev *a, const sim_ev *b) { return sim_ev_before(a->t, a->seq, b); }

int sim_heap_reserve(sim_heap *h, size_t n)
{
  if (n <= h->cap) return LB_SUCCESS;
  size_t c = h->cap ? 2 * h->cap : 1024;
  if (c < n) c = n;
  sim_ev *v = realloc(h->v, c * sizeof *v);
  if (!v) return lb_error(LB_ENOMEM, "event queue of %zu events", c);
  h->v = v;
  h->cap = c;
  return LB_SUCCESS;
}

int sim_heap_insert(sim_heap *h, const sim_ev *e)
{
  int rc = sim_heap_reserve(h, h->n + 1);
  if (rc) return rc;
  size_t i = h->n++;
  while (i > 0) {
    size_t p = (i - 1) / 2;
    if (!before(e, &h->v[p])) break;
    h->v[i] = h->v[p];
    i = p;
  }
  h->v[i] = *e;
  return LB_SUCCESS;
}

/* x sinks from position i into the heap of the first n events. */
static void sift_down(sim_heap *h, size_t i, sim_ev x)
{
  size_t n = h->n;
  for (;;) {
    size_t l = 2 * i + 1, m = i;
    const sim_ev *best = &x;
    if (l < n && before(&h->v[l], best)) {
      m = l;
      best = &h->v[l];
    }
    if (l + 1 < n && before(&h->v[l + 1], best)) m = l + 1;
    if (m == i) break;
    h->v[i] = h->v[m];
    i = m;
  }
  h->v[i] = x;
}

int sim_heap_pop(sim_heap *h, sim_ev *e)
{
  if (!h->n) return 0;
  *e = h->v[0];
  if (--h->n) sift_down(h, 0, h->v[h->n]);
  return 1;
}

void sim_heap_build(sim_heap *h)
{
  for (size_t i = h->n / 2; i-- > 0;) sift_down(h, i, h->v[i]);
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
