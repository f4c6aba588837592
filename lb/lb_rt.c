/* lb_rt.c: see lb_rt.h. */
#include <stdio.h>
#include "lb_rt.h"
#include "lb_errno.h"
#include "lb_mem.h"
#include "lb_trace.h"

typedef struct tmr {
  double at;
  uint64_t seq, id;
} tmr;

struct lb_rt {
  lb_node *nd;
  lb_out out;     /* its vector lives only while a step's outputs are carried out */
  lb_out *shared; /* or the driver's (lb_rt_use_out) */
  const lb_rt_ops *ops;
  void *ctx;
  tmr *h;
  size_t nh, caph;
  uint64_t seq;
  uint32_t nsent; /* messages numbered for the trace */
};

static int before(const tmr *a, const tmr *b) { return a->at < b->at || (a->at == b->at && a->seq < b->seq); }

static int heap_push(lb_rt *rt, double at, uint64_t id)
{
  tmr *v = lb_mem_grow(rt->h, &rt->caph, rt->nh, sizeof *v, 4);
  if (!v) return lb_error(LB_ENOMEM, "timer heap");
  rt->h = v;
  size_t i = rt->nh++;
  rt->h[i] = (tmr){at, rt->seq++, id};
  while (i > 0 && before(&rt->h[i], &rt->h[(i - 1) / 2])) {
    tmr t = rt->h[i];
    rt->h[i] = rt->h[(i - 1) / 2];
    rt->h[(i - 1) / 2] = t;
    i = (i - 1) / 2;
  }
  return LB_SUCCESS;
}

static tmr heap_pop(lb_rt *rt)
{
  tmr top = rt->h[0];
  rt->h[0] = rt->h[--rt->nh];
  for (size_t i = 0;;) {
    size_t l = 2 * i + 1, r = l + 1, m = i;
    if (l < rt->nh && before(&rt->h[l], &rt->h[m])) m = l;
    if (r < rt->nh && before(&rt->h[r], &rt->h[m])) m = r;
    if (m == i) break;
    tmr t = rt->h[i];
    rt->h[i] = rt->h[m];
    rt->h[m] = t;
    i = m;
  }
  return top;
}

static int rt_make(lb_policy pol, size_t id, const lb_topo *t, const lb_node_params *p, int shared, double speed,
                   const lb_rt_ops *ops, void *ctx, lb_rt **out)
{
  *out = NULL;
  if (!ops || !ops->send || !ops->deliver) return lb_error(LB_EINVAL, "runtime: send and deliver are required");
  lb_rt *rt = lb_mem_calloc(sizeof *rt);
  if (!rt) return lb_error(LB_ENOMEM, "runtime");
  int rc = shared ? lb_node_alloc_shared(pol, id, t, p, speed, &rt->nd) : lb_node_alloc(pol, id, t, p, &rt->nd);
  if (rc) {
    lb_rt_free(rt);
    return rc;
  }
  rt->ops = ops;
  rt->ctx = ctx;
  *out = rt;
  return LB_SUCCESS;
}

int lb_rt_alloc(lb_policy pol, size_t id, const lb_topo *t, const lb_node_params *p, const lb_rt_ops *ops, void *ctx,
                lb_rt **out)
{
  return rt_make(pol, id, t, p, 0, 0, ops, ctx, out);
}

int lb_rt_alloc_shared(lb_policy pol, size_t id, const lb_topo *t, const lb_node_params *p, double speed,
                       const lb_rt_ops *ops, void *ctx, lb_rt **out)
{
  return rt_make(pol, id, t, p, 1, speed, ops, ctx, out);
}

void lb_rt_free(lb_rt *rt)
{
  if (!rt) return;
  lb_node_free(rt->nd);
  lb_out_release(&rt->out);
  lb_mem_free(rt->h, rt->caph * sizeof *rt->h);
  lb_mem_free(rt, sizeof *rt);
}

const char *lb_rt_trace_header(void) { return lb_trace_columns(); }

static void trace_msg(lb_rt *rt, lb_trace_ev ev, const lb_msg *m, double now)
{
  lb_trace_row r;
  char row[LB_TRACE_ROW_MAX];
  size_t n;
  lb_trace_msg(&r, ev, now, lb_node_id(rt->nd), m);
  if (!lb_trace_format(&r, row, sizeof row, &n)) rt->ops->trace(rt->ctx, row);
}

static int keep(int rc, int more) { return rc ? rc : more; }

void lb_rt_use_out(lb_rt *rt, lb_out *shared) { rt->shared = shared; }

static int carry_out(lb_rt *rt, lb_out *o, double now)
{
  int rc = LB_SUCCESS;
  for (size_t k = 0; k < o->n; k++) {
    lb_out_item *it = &o->v[k];
    switch (it->type) {
    case LB_OUT_SEND: {
      lb_msg *m = lb_out_take_msg(o, k);
      if (rt->ops->leaving && m->nproc) {
        /* the node counted the contexts as it knew them */
        size_t before = 0, after = 0;
        for (size_t j = 0; j < m->nproc; j++) {
          before += m->procs[j]->ctx_len;
          rc = keep(rc, rt->ops->leaving(rt->ctx, m->procs[j]));
          after += m->procs[j]->ctx_len;
        }
        if (after != before) lb_node_count_ctx_change(rt->nd, before, after);
      }
      if (rt->ops->trace) {
        m->trace_id = rt->ops->msg_id ? rt->ops->msg_id(rt->ctx) : ++rt->nsent;
        trace_msg(rt, LB_TRACE_SEND, m, now);
      }
      rc = keep(rc, rt->ops->send(rt->ctx, m, now));
      break;
    }
    case LB_OUT_TIMER:
      rc = keep(rc, heap_push(rt, it->at, it->timer));
      if (rt->ops->wake) rt->ops->wake(rt->ctx, it->at);
      break;
    case LB_OUT_HOME:
      if (rt->ops->home) rc = keep(rc, rt->ops->home(rt->ctx, &it->res, now));
      break;
    case LB_OUT_DELIVER: rc = keep(rc, rt->ops->deliver(rt->ctx, &it->res, now)); break;
    }
  }
  /* A million idle nodes need no output lists: the next step makes a
   * new one (from the allocator's free blocks of its usual size). */
  if (o == rt->shared) lb_out_clear(o);
  else lb_out_release(o);
  return rc;
}

int lb_rt_step(lb_rt *rt, const lb_event *ev, double now)
{
  if (ev->type == LB_EV_MSG && ev->msg && rt->ops->trace) trace_msg(rt, LB_TRACE_RECV, ev->msg, now);
  lb_out *o = rt->shared ? rt->shared : &rt->out;
  if (o->n) {
    if (ev->type == LB_EV_MSG) lb_msg_free(ev->msg);
    if (ev->type == LB_EV_ARRIVE) lb_proc_free(ev->proc);
    return lb_error(LB_ESTATE, "node %zu: a step within a step", lb_node_id(rt->nd));
  }
  int rc = lb_node_step(rt->nd, ev, now, o);
  return keep(rc, carry_out(rt, o, now));
}

int lb_rt_fire(lb_rt *rt, double now)
{
  int rc = LB_SUCCESS;
  while (rt->nh && rt->h[0].at <= now) {
    tmr t = heap_pop(rt);
    lb_event ev = {.type = LB_EV_TIMER, .timer = t.id};
    rc = keep(rc, lb_rt_step(rt, &ev, now));
  }
  return rc;
}

int lb_rt_next_timer(const lb_rt *rt, double *at)
{
  if (!rt->nh) return 0;
  *at = rt->h[0].at;
  return 1;
}

size_t lb_rt_timers(const lb_rt *rt) { return rt->nh; }
lb_node *lb_rt_node(lb_rt *rt) { return rt->nd; }
const lb_node *lb_rt_node_const(const lb_rt *rt) { return rt->nd; }
