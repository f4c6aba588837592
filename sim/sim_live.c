/* sim_live.c: where a process's context is.  By default the simulator
 * hands the node the context after every quantum (LB_EV_RAN), so the
 * process always carries its current state.  In the farm's way
 * (lb_sim_config.leaving) the driver keeps a live copy of every process
 * that ran here, as the worker keeps the application's task, tells the
 * node nothing of it, and writes it into the process only when the
 * process leaves in a message (lb_rt_ops.leaving).  A process that
 * never ran here carries its context as it came.
 *
 * A live copy belongs to the process record the node holds, not to its
 * id: after a failure the sink may run a process again while its first
 * copy is still on its way, and the two can meet at one node, each with
 * its own progress.  (The farm's worker keys its live tasks by id, so
 * there two such copies share one; the results stay right, since a
 * task's result depends on its id only, but work is done twice.) */
#include <stdlib.h>
#include <string.h>
#include "sim_impl.h"
#include "lb_errno.h"

struct sim_live {
  const lb_proc *p;
  double left;
};

static struct sim_live *find(const sim_livetab *t, const lb_proc *p)
{
  for (size_t k = 0; k < t->n; k++)
    if (t->v[k].p == p) return &t->v[k];
  return NULL;
}

static void drop(sim_livetab *t, struct sim_live *l) { *l = t->v[--t->n]; }

int sim_context(sim *S, size_t i, const lb_proc *p, double *left)
{
  const struct sim_live *l = S->live ? find(&S->live[i], p) : NULL;
  if (l) {
    *left = l->left;
    return 1;
  }
  if (p->ctx_len != sim_ctx_len(S) && p->ctx_len != sim_ctx_started_len(S)) return 0;
  memcpy(left, p->ctx, sizeof *left);
  return 1;
}

int sim_context_keep(sim *S, size_t i, const lb_proc *p, double left, int fin, lb_event *ran)
{
  if (!S->live) {
    memcpy(S->ctxbuf, &left, sizeof left);
    ran->ctx = S->ctxbuf;
    ran->ctx_len = sim_ctx_started_len(S);
    /* Only the work left changes: a context of the full size gets its
     * first bytes, not all of them again (16 KB a quantum for matmul's:
     * the padding after them is zeros wherever the context came from). */
    if (p->ctx_len == ran->ctx_len) {
      ran->ctx_len = sizeof left;
      ran->ctx_head = 1;
    }
    return LB_SUCCESS;
  }
  sim_livetab *t = &S->live[i];
  struct sim_live *l = find(t, p);
  if (fin) {
    if (l) drop(t, l);
    return LB_SUCCESS;
  }
  if (!l) {
    if (t->n == t->cap) {
      size_t c = t->cap ? 2 * t->cap : 4;
      struct sim_live *v = realloc(t->v, c * sizeof *v);
      if (!v) return lb_error(LB_ENOMEM, "live contexts of node %zu", i);
      t->v = v;
      t->cap = c;
    }
    l = &t->v[t->n++];
    l->p = p;
  }
  l->left = left;
  return LB_SUCCESS;
}

int sim_leaving(void *ctx, lb_proc *p)
{
  simnode *x = ctx;
  sim *S = x->S;
  sim_livetab *t = &S->live[sim_node_of(S, x)];
  struct sim_live *l = find(t, p);
  if (!l) return LB_SUCCESS; /* never ran here: its context is current */
  memcpy(S->ctxbuf, &l->left, sizeof l->left);
  drop(t, l);
  S->r->saved++;
  return lb_proc_set_ctx(p, S->ctxbuf, sim_ctx_started_len(S));
}

int sim_live_alloc(sim *S)
{
  if (!S->c->leaving) return LB_SUCCESS;
  S->live = calloc(S->n, sizeof *S->live);
  return S->live ? LB_SUCCESS : lb_error(LB_ENOMEM, "live contexts of %zu nodes", S->n);
}

void sim_live_drop(sim *S, size_t i)
{
  if (S->live) S->live[i].n = 0;
}

void sim_live_free(sim *S)
{
  for (size_t i = 0; S->live && i < S->n; i++) free(S->live[i].v);
  free(S->live);
  S->live = NULL;
}
