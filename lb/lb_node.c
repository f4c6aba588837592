/* lb_node.c: the policy-independent half of a node: run queue, events,
 * output list, counters.  Policies plug in through lb_policy_ops. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lb_node_impl.h"
#include "lb_load.h"
#include "lb_errno.h"

static const char *const pol_names[LB_POLICY_COUNT] = {
  "none", "rmtlb", "lowest", "dasud", "cchspmd", "diffusion", "diffusion2"
};

const char *lb_policy_name(lb_policy p)
{
  return (unsigned)p < LB_POLICY_COUNT ? pol_names[p] : "?";
}

int lb_policy_from_name(const char *name, lb_policy *out)
{
  for (int k = 0; k < LB_POLICY_COUNT; k++)
    if (!strcmp(name, pol_names[k])) { *out = (lb_policy)k; return LB_SUCCESS; }
  return lb_error(LB_EINVAL, "unknown policy '%s' (none, rmtlb, lowest, dasud, "
                  "cchspmd, diffusion, diffusion2)", name);
}

void lb_node_params_default(lb_node_params *p)
{
  memset(p, 0, sizeof *p);
  p->capacity = 4;
  p->threshold = -1;
  p->speed = 1;
  p->hop_time = 1;
  p->backoff_max = 5;
  p->probes = 3;
  p->period = 1;
  p->controller = 0;
  p->alpha = 0;
  p->beta = 0;
}

/* ---- output list ---- */
int lb_out_alloc(lb_out **out)
{
  *out = calloc(1, sizeof **out);
  return *out ? LB_SUCCESS : lb_error(LB_ENOMEM, "output list");
}

void lb_out_clear(lb_out *o)
{
  for (size_t k = 0; k < o->n; k++) {
    lb_msg_free(o->v[k].msg);
    free(o->v[k].result);
    free(o->v[k].text);
  }
  o->n = 0;
}

void lb_out_free(lb_out *o)
{
  if (!o) return;
  lb_out_clear(o);
  free(o->v);
  free(o);
}

lb_msg *lb_out_take_msg(lb_out *o, size_t k)
{
  if (k >= o->n) return NULL;
  lb_msg *m = o->v[k].msg;
  o->v[k].msg = NULL;
  return m;
}

static lb_out_item *out_push(lb_out *o, lb_out_type type)
{
  if (o->n == o->cap) {
    size_t c = o->cap ? 2 * o->cap : 16;
    lb_out_item *v = realloc(o->v, c * sizeof *v);
    if (!v) return NULL;
    o->v = v;
    o->cap = c;
  }
  lb_out_item *it = &o->v[o->n++];
  memset(it, 0, sizeof *it);
  it->type = type;
  it->dst = LB_NO_NODE;
  return it;
}

int lb_node_tracef(lb_out *out, const char *fmt, ...)
{
  if (!out->trace) return LB_SUCCESS;
  char buf[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  lb_out_item *it = out_push(out, LB_OUT_TRACE);
  if (!it || !(it->text = strdup(buf))) return lb_error(LB_ENOMEM, "trace line");
  return LB_SUCCESS;
}

int lb_node_send(lb_node *nd, lb_out *out, size_t dst, lb_msg *m)
{
  if (dst >= nd->topo->n) {
    lb_msg_free(m);
    return lb_error(LB_ESTATE, "node %zu: %s to node %zu of %zu", nd->id,
                    lb_msg_type_name(m->type), dst, nd->topo->n);
  }
  m->src = nd->id;
  m->dst = dst;
  lb_out_item *it = out_push(out, LB_OUT_SEND);
  if (!it) { lb_msg_free(m); return lb_error(LB_ENOMEM, "output list"); }
  it->dst = dst;
  it->msg = m;
  nd->st.sent[m->type]++;
  nd->st.bytes += lb_msg_size(m);
  nd->st.hops += m->nproc;
  return LB_SUCCESS;
}

int lb_node_timer(lb_out *out, uint64_t id, double at)
{
  lb_out_item *it = out_push(out, LB_OUT_TIMER);
  if (!it) return lb_error(LB_ENOMEM, "output list");
  it->timer = id;
  it->at = at;
  return LB_SUCCESS;
}

int lb_node_home(lb_node *nd, lb_out *out, uint64_t pid, unsigned char **r, size_t len)
{
  lb_out_item *it = out_push(out, LB_OUT_HOME);
  if (!it) return lb_error(LB_ENOMEM, "output list");
  it->pid = pid;
  it->result = *r;
  it->result_len = *r ? len : 0;
  *r = NULL;
  nd->st.homed++;
  return LB_SUCCESS;
}

int lb_node_result_direct(lb_node *nd, uint64_t pid, size_t origin,
                          unsigned char **r, size_t len, lb_out *out)
{
  if (origin == nd->id) return lb_node_home(nd, out, pid, r, len);
  lb_msg *m;
  int rc = lb_msg_alloc(LB_MSG_RESULT, nd->id, origin, &m);
  if (rc) return rc;
  lb_msg_take_result(m, pid, origin, r, len);
  return lb_node_send(nd, out, origin, m);
}

/* ---- run queue ---- */
int lb_node_enqueue(lb_node *nd, lb_proc *p)
{
  if (nd->nq == nd->capq) {
    size_t c = nd->capq ? 2 * nd->capq : 16;
    lb_proc **v = realloc(nd->q, c * sizeof *v);
    if (!v) return lb_error(LB_ENOMEM, "run queue of node %zu", nd->id);
    nd->q = v;
    nd->capq = c;
  }
  nd->q[nd->nq++] = p;
  return LB_SUCCESS;
}

size_t lb_node_movable(const lb_node *nd)
{
  return nd->nq > 1 ? nd->nq - 1 : 0;
}

lb_proc *lb_node_dequeue_tail(lb_node *nd)
{
  if (nd->nq < 2) return NULL;
  return nd->q[--nd->nq];
}

int lb_node_accept_transfer(lb_node *nd, lb_msg *m)
{
  int rc = LB_SUCCESS;
  for (size_t k = 0; k < m->nproc; k++) {
    if (!rc && !(rc = lb_node_enqueue(nd, m->procs[k]))) m->procs[k] = NULL;
  }
  if (!rc) m->nproc = 0;
  lb_msg_free(m);
  return rc;
}

int lb_node_transfer(lb_node *nd, lb_out *out, size_t dst, size_t k, size_t *sent)
{
  *sent = 0;
  if (!k || !lb_node_movable(nd)) return LB_SUCCESS;
  lb_msg *m;
  int rc = lb_msg_alloc(LB_MSG_TRANSFER, nd->id, dst, &m);
  if (rc) return rc;
  while (*sent < k && lb_node_movable(nd)) {
    lb_proc *p = lb_node_dequeue_tail(nd);
    if ((rc = lb_msg_add_proc(m, p))) { lb_node_enqueue(nd, p); break; }
    (*sent)++;
  }
  m->n = (long)*sent;
  nd->st.migrated += *sent;
  if (rc) { lb_msg_free(m); return rc; }
  return lb_node_send(nd, out, dst, m);
}

int lb_node_track_heavy(lb_node *nd)
{
  int h = lb_load_state((int)nd->nq, nd->C, nd->A) == LB_HEAVY;
  if (h && !nd->was_heavy) nd->st.episodes++;
  nd->was_heavy = h;
  return h;
}

size_t lb_node_nbr_index(const lb_node *nd, size_t j)
{
  const size_t *nb = lb_topo_neighbours(nd->topo, nd->id);
  size_t lo = 0, hi = lb_topo_degree(nd->topo, nd->id);
  while (lo < hi) {   /* neighbour lists are sorted */
    size_t mid = (lo + hi) / 2;
    if (nb[mid] == j) return mid;
    if (nb[mid] < j) lo = mid + 1;
    else hi = mid;
  }
  return (size_t)-1;
}

/* ---- life cycle ---- */
static const lb_policy_ops *ops_of(lb_policy p)
{
  switch (p) {
  case LB_POLICY_NONE: return &lb_policy_none_ops;
  case LB_POLICY_RMTLB: return &lb_policy_rmtlb_ops;
  case LB_POLICY_LOWEST: return &lb_policy_lowest_ops;
  case LB_POLICY_DASUD: return &lb_policy_dasud_ops;
  case LB_POLICY_CCHSPMD: return &lb_policy_cchspmd_ops;
  case LB_POLICY_DIFFUSION:
  case LB_POLICY_DIFFUSION2: return &lb_policy_diffusion_ops;
  default: return NULL;
  }
}

int lb_node_alloc(lb_policy pol, size_t id, const lb_topo *t,
                  const lb_node_params *p, lb_node **out)
{
  *out = NULL;
  const lb_policy_ops *ops = ops_of(pol);
  if (!ops) return lb_error(LB_EINVAL, "policy %d is not available", (int)pol);
  if (!t || id >= t->n) return lb_error(LB_EINVAL, "node id %zu outside the topology", id);
  if (p->capacity < 0) return lb_error(LB_EINVAL, "capacity %d < 0 at node %zu", p->capacity, id);
  if (!(p->speed > 0)) return lb_error(LB_EINVAL, "speed %g <= 0 at node %zu", p->speed, id);
  if (!(p->hop_time > 0)) return lb_error(LB_EINVAL, "hop time %g <= 0", p->hop_time);
  if (!(p->period > 0)) return lb_error(LB_EINVAL, "period %g <= 0", p->period);
  lb_node *nd = calloc(1, sizeof *nd);
  if (!nd) return lb_error(LB_ENOMEM, "node %zu", id);
  nd->pol = pol;
  nd->ops = ops;
  nd->id = id;
  nd->topo = t;
  nd->par = *p;
  nd->C = p->capacity;
  nd->A = p->threshold >= 0 ? p->threshold : lb_load_threshold(p->capacity, LB_LOAD_DEFAULT_PCT);
  int rc = lb_rng_alloc_stream(p->seed, id, &nd->rng);
  if (!rc && ops->init) rc = ops->init(nd);
  if (rc) {
    lb_rng_free(nd->rng);
    free(nd);
    return lb_error_wrap(rc, "node %zu (%s)", id, lb_policy_name(pol));
  }
  *out = nd;
  return LB_SUCCESS;
}

void lb_node_free(lb_node *nd)
{
  if (!nd) return;
  if (nd->ops->fini) nd->ops->fini(nd);
  for (size_t k = 0; k < nd->nq; k++) lb_proc_free(nd->q[k]);
  free(nd->q);
  lb_rng_free(nd->rng);
  free(nd);
}

static int on_ran(lb_node *nd, const lb_event *ev, double now, lb_out *out)
{
  size_t k = 0;
  while (k < nd->nq && nd->q[k]->id != ev->pid) k++;
  if (k == nd->nq)
    return lb_error(LB_ESTATE, "node %zu ran process %llu, which it does not hold",
                    nd->id, (unsigned long long)ev->pid);
  lb_proc *p = nd->q[k];
  p->work -= ev->work_done;
  if (p->work < 0) p->work = 0;
  if (ev->ctx) {
    int rc = lb_proc_set_ctx(p, ev->ctx, ev->ctx_len);
    if (rc) return rc;
  }
  if (!ev->finished) return LB_SUCCESS;
  memmove(nd->q + k, nd->q + k + 1, (nd->nq - k - 1) * sizeof *nd->q);
  nd->nq--;
  nd->st.executed++;
  uint64_t pid = p->id;
  size_t origin = p->origin;
  lb_proc_free(p);
  /* The one copy of a result the node makes: from here it is moved. */
  unsigned char *res = NULL;
  if (ev->result_len) {
    if (!ev->result) return lb_error(LB_EINVAL, "node %zu: NULL result of %zu bytes", nd->id, ev->result_len);
    if (!(res = malloc(ev->result_len))) return lb_error(LB_ENOMEM, "result of %zu bytes", ev->result_len);
    memcpy(res, ev->result, ev->result_len);
  }
  int rc = nd->ops->on_result ? nd->ops->on_result(nd, pid, origin, &res, ev->result_len, now, out)
                              : lb_node_result_direct(nd, pid, origin, &res, ev->result_len, out);
  free(res);
  return rc;
}

int lb_node_step(lb_node *nd, const lb_event *ev, double now, lb_out *out)
{
  switch (ev->type) {
  case LB_EV_MSG:
    if (!ev->msg) return lb_error(LB_EINVAL, "node %zu: message event without a message", nd->id);
    if (ev->msg->type == LB_MSG_RESULT) {
      lb_msg *m = ev->msg;
      int rc = m->rorigin == nd->id
        ? lb_node_home(nd, out, m->rid, &m->result, m->result_len)
        : lb_error(LB_ESTATE, "node %zu got the result of process %llu, whose origin is %zu",
                   nd->id, (unsigned long long)m->rid, m->rorigin);
      lb_msg_free(m);
      return rc;
    }
    return nd->ops->on_msg(nd, ev->msg, now, out);
  case LB_EV_TIMER:
    return nd->ops->on_timer ? nd->ops->on_timer(nd, ev->timer, now, out) : LB_SUCCESS;
  case LB_EV_ARRIVE:
    if (!ev->proc) return lb_error(LB_EINVAL, "node %zu: arrival without a process", nd->id);
    return lb_node_enqueue(nd, ev->proc);
  case LB_EV_RAN:
    return on_ran(nd, ev, now, out);
  case LB_EV_TICK:
    return nd->ops->on_tick ? nd->ops->on_tick(nd, now, out) : LB_SUCCESS;
  }
  return lb_error(LB_EINVAL, "node %zu: event type %d", nd->id, (int)ev->type);
}

const lb_proc *lb_node_current(const lb_node *nd)
{
  return nd->nq ? nd->q[0] : NULL;
}

size_t lb_node_id(const lb_node *nd) { return nd->id; }
lb_policy lb_node_policy(const lb_node *nd) { return nd->pol; }
size_t lb_node_queue_len(const lb_node *nd) { return nd->nq; }
int lb_node_state(const lb_node *nd) { return lb_load_state((int)nd->nq, nd->C, nd->A); }
long lb_node_lepn(const lb_node *nd) { return nd->ops->lepn ? nd->ops->lepn(nd) : -1; }
long lb_node_lipn(const lb_node *nd) { return nd->ops->lipn ? nd->ops->lipn(nd) : -1; }
size_t lb_node_rmtv(const lb_node *nd) { return nd->ops->rmtv ? nd->ops->rmtv(nd) : LB_NO_NODE; }
size_t lb_node_nrt_size(const lb_node *nd) { return nd->ops->nrt_size ? nd->ops->nrt_size(nd) : 0; }
size_t lb_node_pending_results(const lb_node *nd) { return nd->ops->pending ? nd->ops->pending(nd) : 0; }
int lb_node_quiescent(const lb_node *nd) { return nd->ops->quiescent ? nd->ops->quiescent(nd) : 1; }
const lb_node_stats *lb_node_stats_get(const lb_node *nd) { return &nd->st; }

size_t lb_node_queue_ids(const lb_node *nd, uint64_t *ids, size_t cap)
{
  for (size_t k = 0; k < nd->nq && k < cap; k++) ids[k] = nd->q[k]->id;
  return nd->nq;
}
