/* lb_node.c: the policy-independent half of a node: run queue, events,
 * output list, counters, and what every policy shares (transfers,
 * results, outside orders).  Policies plug in through lb_policy_ops. */
#include <math.h>
#include <string.h>
#include "lb_node_impl.h"
#include "lb_load.h"
#include "lb_errno.h"
#include "lb_mem.h"
#include "lb_param.h"
#include "lb_qindex.h"

const char *lb_results_name(lb_results r) { return r == LB_RESULTS_DIRECT ? "direct" : "origin"; }

int lb_results_from_name(const char *name, lb_results *out)
{
  if (!strcmp(name, "origin")) *out = LB_RESULTS_ORIGIN;
  else if (!strcmp(name, "direct")) *out = LB_RESULTS_DIRECT;
  else return lb_error(LB_EINVAL, "unknown result mode '%s' (origin, direct)", name);
  return LB_SUCCESS;
}

/* ---- output list ---- */
int lb_out_alloc(lb_out **out)
{
  *out = lb_mem_calloc(sizeof **out);
  return *out ? LB_SUCCESS : lb_error(LB_ENOMEM, "output list");
}

void lb_out_clear(lb_out *o)
{
  for (size_t k = 0; k < o->n; k++) lb_msg_free(o->v[k].msg);
  o->n = 0;
}

void lb_out_release(lb_out *o)
{
  lb_out_clear(o);
  lb_mem_free(o->v, o->cap * sizeof *o->v);
  o->v = NULL;
  o->cap = 0;
}

void lb_out_free(lb_out *o)
{
  if (!o) return;
  lb_out_release(o);
  lb_mem_free(o, sizeof *o);
}

lb_msg *lb_out_take_msg(lb_out *o, size_t k)
{
  if (k >= o->n) return NULL;
  lb_msg *m = o->v[k].msg;
  o->v[k].msg = NULL;
  return m;
}

static int out_result(lb_out *out, lb_out_type type, const lb_result_ref *r);

static lb_out_item *out_push(lb_out *o, lb_out_type type)
{
  lb_out_item *v = lb_mem_grow(o->v, &o->cap, o->n, sizeof *v, 8);
  if (!v) return NULL;
  o->v = v;
  lb_out_item *it = &o->v[o->n++];
  memset(it, 0, sizeof *it);
  it->type = type;
  it->dst = LB_NO_NODE;
  return it;
}

int lb_node_is_down(const lb_node *nd, size_t j) { return nd->down && j < nd->topo->n && nd->down[j]; }

int lb_node_orphan_result(lb_node *nd, const lb_result_ref *r, lb_out *out)
{
  if (!r->payload) return LB_SUCCESS; /* a receipt: the bytes reached the sink already */
  nd->st.orphans++;
  nd->st.delivered++;
  return out_result(out, LB_OUT_DELIVER, r);
}

/* A message for a failed node: its processes stay here, a result it
 * carries is delivered here, the rest is dropped. */
static int send_to_down(lb_node *nd, lb_out *out, lb_msg *m)
{
  int rc = LB_SUCCESS;
  for (size_t k = 0; k < m->nproc && !rc; k++)
    if (!(rc = lb_node_enqueue(nd, m->procs[k]))) m->procs[k] = NULL;
  if (!rc && lb_msg_type_has_result(m->type)) rc = lb_node_orphan_result(nd, &m->res, out);
  lb_msg_free(m);
  return rc;
}

/* The neighbour a message for dst goes to next (lb_topo_next_hop): the
 * one nearest to dst, lowest id on a tie; dst itself if it is a
 * neighbour, or under the direct route, or when the graph has no way
 * there. */
static size_t next_hop(const lb_node *nd, size_t dst)
{
  if (nd->par->route == LB_ROUTE_DIRECT) return dst;
  return lb_topo_next_hop(nd->topo, nd->id, dst);
}

static int push_send(lb_node *nd, lb_out *out, lb_msg *m)
{
  m->hop_src = nd->id;
  m->hop_dst = next_hop(nd, m->dst);
  lb_out_item *it = out_push(out, LB_OUT_SEND);
  if (!it) {
    lb_msg_free(m);
    return lb_error(LB_ENOMEM, "output list");
  }
  it->dst = m->hop_dst;
  it->msg = m;
  for (size_t k = 0; k < m->nproc; k++) m->procs[k]->hops++;
  return LB_SUCCESS;
}

int lb_node_send(lb_node *nd, lb_out *out, size_t dst, lb_msg *m)
{
  if (lb_node_is_down(nd, dst)) return send_to_down(nd, out, m);
  if (dst >= nd->topo->n || dst == nd->id) {
    int rc =
        lb_error(LB_ESTATE, "node %zu: %s to node %zu of %zu", nd->id, lb_msg_type_name(m->type), dst, nd->topo->n);
    lb_msg_free(m);
    return rc;
  }
  m->src = nd->id;
  m->dst = dst;
  int rc = push_send(nd, out, m);
  if (rc) return rc;
  nd->st.sent[m->type]++;
  nd->st.bytes += lb_msg_size(m);
  nd->st.hops += m->nproc;
  return LB_SUCCESS;
}

/* A message for another node passes through here: on towards it, or,
 * if it failed, stranded here like any message for a failed node. */
static int relay(lb_node *nd, lb_msg *m, lb_out *out)
{
  if (m->dst >= nd->topo->n) {
    int rc =
        lb_error(LB_ESTATE, "node %zu: %s for node %zu of %zu", nd->id, lb_msg_type_name(m->type), m->dst, nd->topo->n);
    lb_msg_free(m);
    return rc;
  }
  if (lb_node_is_down(nd, m->dst)) return send_to_down(nd, out, m);
  nd->st.relayed++;
  nd->st.bytes += lb_msg_size(m);
  nd->st.hops += m->nproc;
  return push_send(nd, out, m);
}

int lb_node_send_policy(lb_node *nd, lb_out *out, size_t dst, uint32_t kind, uint64_t tag, long a, long b)
{
  lb_msg *m;
  int rc = lb_msg_alloc(LB_MSG_POLICY, nd->id, dst, &m);
  if (rc) return rc;
  m->u.pol.kind = kind;
  m->u.pol.tag = tag;
  m->u.pol.a = a;
  m->u.pol.b = b;
  return lb_node_send(nd, out, dst, m);
}

double lb_node_answer_window(const lb_node *nd, size_t dst, unsigned late)
{
  size_t d = dst < nd->topo->n ? lb_topo_distance(nd->topo, nd->id, dst) : 1;
  if (d == LB_TOPO_NO_PATH || d < 1) d = 1;
  return 4.0 * nd->par->hop_time * (double)d * (double)(1u << (late < 10 ? late : 10));
}

int lb_node_timer(lb_out *out, uint64_t id, double at)
{
  lb_out_item *it = out_push(out, LB_OUT_TIMER);
  if (!it) return lb_error(LB_ENOMEM, "output list");
  it->timer = id;
  it->at = at;
  return LB_SUCCESS;
}

static int out_result(lb_out *out, lb_out_type type, const lb_result_ref *r)
{
  lb_out_item *it = out_push(out, type);
  if (!it) return lb_error(LB_ENOMEM, "output list");
  it->res = *r;
  return LB_SUCCESS;
}

int lb_node_home(lb_node *nd, lb_out *out, const lb_result_ref *r)
{
  if (r->origin != nd->id)
    return lb_error(LB_ESTATE, "node %zu: the result of process %llu is home at %zu, not here", nd->id,
                    (unsigned long long)r->pid, r->origin);
  nd->st.homed++;
  int rc = out_result(out, LB_OUT_HOME, r);
  if (!rc && r->payload) {
    nd->st.delivered++;
    rc = out_result(out, LB_OUT_DELIVER, r);
  }
  return rc;
}

int lb_node_result_direct(lb_node *nd, const lb_result_ref *r, lb_out *out)
{
  if (r->origin == nd->id) return lb_node_home(nd, out, r);
  if (lb_node_is_down(nd, r->origin)) return lb_node_orphan_result(nd, r, out);
  lb_msg *m;
  int rc = lb_msg_alloc(LB_MSG_RESULT, nd->id, r->origin, &m);
  if (rc) return rc;
  m->res = *r;
  return lb_node_send(nd, out, r->origin, m);
}

int lb_node_unexpected(lb_node *nd, lb_msg *m)
{
  int rc = lb_error(LB_ESTATE, "node %zu (%s): unexpected %s from %zu", nd->id, lb_policy_name(nd->pol),
                    lb_msg_type_name(m->type), m->src);
  lb_msg_free(m);
  return rc;
}

size_t lb_node_sender(lb_node *nd, lb_msg *m, int *rc)
{
  size_t k = lb_node_nbr_index(nd, m->src);
  if (k != (size_t)-1) return k;
  if (nd->ndown) {
    lb_msg_free(m);
    *rc = LB_SUCCESS;
  } else *rc = lb_node_unexpected(nd, m);
  return k;
}

/* ---- run queue ---- */
/* The queue is a window q[0..nq-1] that slides along its buffer qbuf:
 * the head leaves by moving the window's start, and a process joins at
 * its end, so round robin touches two lines of a long queue, not all of
 * them.  When the window reaches the buffer's end it moves back to the
 * start (or the buffer grows if it is three quarters full), so each
 * process moves O(1) times per rotation on average.
 *
 * A buffer of LB_NODE_QX_MIN slots or more has an index by work left
 * beside it (lb_qindex.h), whose numbers move with the pointers: a
 * migration then finds its process in O(log n), not by a scan of a
 * queue that may hold tens of thousands.  Short queues, nearly all of
 * them, are scanned: it is cheaper there, and the choice is the same. */
static int qx_on(const lb_node *nd) { return nd->capq >= LB_NODE_QX_MIN; }
static size_t q_off(const lb_node *nd) { return (size_t)(nd->q - nd->qbuf); }

static int q_room(lb_node *nd, int may_grow)
{
  size_t off = q_off(nd);
  if (off + nd->nq < nd->capq) return LB_SUCCESS;
  int full = nd->nq == nd->capq || (nd->qbuf != nd->qin && 4 * nd->nq > 3 * nd->capq);
  if (!full || !may_grow) {
    memmove(nd->qbuf, nd->q, nd->nq * sizeof *nd->q);
    if (qx_on(nd)) memmove(nd->qx->seq, nd->qx->seq + off, nd->nq * sizeof *nd->qx->seq);
    nd->q = nd->qbuf;
    return LB_SUCCESS;
  }
  size_t c = 2 * nd->capq;
  lb_proc **v = lb_mem_alloc(c * sizeof *v);
  if (!v) return lb_error(LB_ENOMEM, "run queue of node %zu", nd->id);
  int rc = LB_SUCCESS;
  if (qx_on(nd)) rc = lb_qindex_grow(nd->qx, c, off, nd->nq);
  else if (c >= LB_NODE_QX_MIN) rc = lb_qindex_alloc(c, 0, nd->q, nd->nq, &nd->qx);
  if (rc) {
    lb_mem_free(v, c * sizeof *v);
    return lb_error_wrap(rc, "run queue of node %zu", nd->id);
  }
  memcpy(v, nd->q, nd->nq * sizeof *v);
  if (nd->qbuf != nd->qin) lb_mem_free(nd->qbuf, nd->capq * sizeof *v);
  nd->q = nd->qbuf = v;
  nd->capq = c;
  return LB_SUCCESS;
}

/* Take q[k] out, moving the shorter side of the window (and its
 * numbers in the index). */
static void q_remove(lb_node *nd, size_t k)
{
  uint64_t *s = qx_on(nd) ? nd->qx->seq + q_off(nd) : NULL;
  if (k < nd->nq - 1 - k) {
    memmove(nd->q + 1, nd->q, k * sizeof *nd->q);
    if (s) memmove(s + 1, s, k * sizeof *s);
    nd->q++;
  } else {
    memmove(nd->q + k, nd->q + k + 1, (nd->nq - k - 1) * sizeof *nd->q);
    if (s) memmove(s + k, s + k + 1, (nd->nq - k - 1) * sizeof *s);
  }
  nd->nq--;
}

/* p joins the end; there is room. */
static void q_join(lb_node *nd, lb_proc *p)
{
  nd->q[nd->nq++] = p;
  if (qx_on(nd)) lb_qindex_joined(nd->qx, q_off(nd), nd->q, nd->nq);
}

int lb_node_enqueue(lb_node *nd, lb_proc *p)
{
  int rc = q_room(nd, 1);
  if (rc) return rc;
  q_join(nd, p);
  return LB_SUCCESS;
}

size_t lb_node_movable(const lb_node *nd) { return nd->nq > 1 ? nd->nq - 1 : 0; }

/* The work a host knows to be left of p: its declared estimate less
 * the work run of it (on the farm that is its `work`; in the simulator
 * `work` is the true work, which no host knows).  With no estimate
 * (est 0) it is minus the work run: the least run leaves first. */
static double known_left(const lb_proc *p) { return lb_qindex_key(p); }

lb_proc *lb_node_take_movable(lb_node *nd)
{
  if (nd->nq < 2) return NULL;
  size_t best = nd->nq - 1;
  if (qx_on(nd)) best = lb_qindex_take(nd->qx, q_off(nd), nd->q, nd->nq);
  else {
    double most = known_left(nd->q[best]);
    for (size_t k = nd->nq - 1; k >= 1; k--) {
      double l = known_left(nd->q[k]);
      if (l > most) {
        best = k;
        most = l;
      }
    }
  }
  lb_proc *p = nd->q[best];
  q_remove(nd, best);
  return p;
}

size_t lb_node_take_movable_n(lb_node *nd, lb_proc **v, size_t k)
{
  size_t n = 0;
  if (!qx_on(nd) || k < 2) {
    lb_proc *p;
    while (n < k && (p = lb_node_take_movable(nd))) v[n++] = p;
    return n;
  }
  /* The same choices as k calls of lb_node_take_movable: the index
   * skips the slots taken (marked NULL), and the queue closes up once,
   * not once a process (a move of up to half of a long queue each). */
  size_t off = q_off(nd), lo = nd->nq;
  while (n < k && n + 1 < nd->nq) {
    size_t b = lb_qindex_take(nd->qx, off, nd->q, nd->nq);
    v[n++] = nd->q[b];
    nd->q[b] = NULL;
    if (b < lo) lo = b;
  }
  uint64_t *s = nd->qx->seq + off;
  size_t j = lo;
  for (size_t i = lo; i < nd->nq; i++)
    if (nd->q[i]) {
      nd->q[j] = nd->q[i];
      s[j++] = s[i];
    }
  nd->nq = j;
  return n;
}

void lb_node_put_back(lb_node *nd, lb_proc *p)
{
  (void)q_room(nd, 0); /* a slot was freed: it never grows here */
  q_join(nd, p);
}

void lb_node_count_ctx_change(lb_node *nd, size_t before, size_t after)
{
  nd->st.bytes += (unsigned long)after - (unsigned long)before; /* modulo 2^n: a shrink too */
  nd->st.ctx_bytes += (unsigned long)after - (unsigned long)before;
}

void lb_node_count_leaving(lb_node *nd, const lb_proc *p)
{
  nd->st.migrated++;
  nd->st.migrated_started += p->quanta > 0;
  nd->st.ctx_bytes += p->ctx_len;
}

int lb_node_transfer(lb_node *nd, lb_out *out, size_t dst, size_t k, long ordered, size_t *sent)
{
  return lb_node_transfer_epoch(nd, out, dst, k, ordered, 0, sent);
}

int lb_node_transfer_epoch(lb_node *nd, lb_out *out, size_t dst, size_t k, long ordered, uint32_t epoch, size_t *sent)
{
  *sent = 0;
  if (!k && ordered <= 0) return LB_SUCCESS;
  lb_msg *m;
  int rc = lb_msg_alloc(LB_MSG_TRANSFER, nd->id, dst, &m);
  if (rc) return rc;
  m->u.transfer.ordered = ordered;
  m->u.transfer.epoch = epoch;
  size_t want = lb_node_movable(nd);
  if (want > k) want = k;
  if (want > m->capproc) {
    /* Room for all first (in powers of two, as lb_msg_add_proc grows
     * it): then they are taken in one go. */
    size_t c = 1;
    while (c < want) c *= 2;
    lb_proc **v = lb_mem_realloc(m->procs, m->capproc * sizeof *v, c * sizeof *v);
    if (!v) rc = lb_error(LB_ENOMEM, "message process list");
    else {
      m->procs = v;
      m->capproc = c;
    }
  }
  if (!rc) {
    m->nproc = lb_node_take_movable_n(nd, m->procs, want);
    for (size_t j = 0; j < m->nproc; j++) lb_node_count_leaving(nd, m->procs[j]);
    *sent = m->nproc;
  }
  if (rc || (!*sent && ordered <= 0)) {
    lb_msg_free(m);
    return rc;
  }
  return lb_node_send(nd, out, dst, m);
}

int lb_node_track_heavy(lb_node *nd)
{
  int h = lb_load_state((long)nd->nq, nd->C, nd->A) == LB_HEAVY;
  if (h && !nd->was_heavy) nd->st.episodes++;
  nd->was_heavy = h;
  return h;
}

size_t lb_node_nbr_index(const lb_node *nd, size_t j)
{
  const size_t *nb = lb_topo_neighbours(nd->topo, nd->id);
  size_t lo = 0, hi = lb_topo_degree(nd->topo, nd->id);
  while (lo < hi) { /* neighbour lists are sorted */
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
  const lb_policy_desc *d = lb_policy_desc_get(p);
  return d ? d->ops : NULL;
}

/* The table's ranges (lb_param.h), and what a node needs beyond them:
 * a hop time the driver has set. */
static int check_params(const lb_node_params *p)
{
  if (!(p->speed > 0 && p->speed < 1e300)) return lb_error(LB_EINVAL, "speed %g <= 0", p->speed);
  if (!(p->hop_time > 0)) return lb_error(LB_EINVAL, "hop time %g <= 0 (the driver sets it)", p->hop_time);
  return lb_params_check(p);
}

/* A node on whole cache lines (lb_mem_alloc aligns it to one); one that
 * owns its parameters has them right after it. */
#define NODE_BYTES     ((sizeof(lb_node) + 63) / 64 * 64)
#define NODE_OWN_BYTES (NODE_BYTES + sizeof(lb_node_params))

static int node_make(lb_policy pol, size_t id, const lb_topo *t, const lb_node_params *p, const lb_node_params *shared,
                     double speed, lb_node **out)
{
  *out = NULL;
  const lb_policy_ops *ops = ops_of(pol);
  if (!ops) return lb_error(LB_EINVAL, "policy %d is not available", (int)pol);
  if (!t || id >= t->n) return lb_error(LB_EINVAL, "node id %zu outside the topology", id);
  int rc = check_params(p);
  if (!rc && !(speed > 0 && speed < 1e300)) rc = lb_error(LB_EINVAL, "speed %g <= 0", speed);
  if (rc) return lb_error_wrap(rc, "node %zu", id);
  size_t bytes = shared ? NODE_BYTES : NODE_OWN_BYTES;
  /* On cache lines: the first holds what every event reads. */
  lb_node *nd = lb_mem_alloc(bytes);
  if (!nd) return lb_error(LB_ENOMEM, "node %zu", id);
  memset(nd, 0, sizeof *nd);
  if (!shared) {
    lb_node_params *own = (lb_node_params *)((char *)nd + NODE_BYTES);
    *own = *p;
    shared = own;
  }
  nd->par = shared;
  nd->q = nd->qbuf = nd->qin;
  nd->capq = LB_NODE_QINLINE;
  if (qx_on(nd)) rc = lb_qindex_alloc(nd->capq, 0, nd->q, 0, &nd->qx);
  nd->pol = pol;
  nd->ops = ops;
  nd->id = id;
  nd->topo = t;
  nd->speed = speed;
  nd->capacity = nd->C = p->capacity;
  nd->A = p->threshold >= 0   ? p->threshold
          : p->threshold_ceil ? lb_load_threshold_ceil(p->capacity, LB_LOAD_DEFAULT_PCT)
                              : lb_load_threshold(p->capacity, LB_LOAD_DEFAULT_PCT);
  lb_rng_init_small(&nd->rng, p->seed, id);
  if (!rc && ops->init) rc = ops->init(nd);
  if (rc) {
    lb_qindex_free(nd->qx);
    lb_mem_free(nd, bytes);
    return lb_error_wrap(rc, "node %zu (%s)", id, lb_policy_name(pol));
  }
  *out = nd;
  return LB_SUCCESS;
}

int lb_node_alloc(lb_policy pol, size_t id, const lb_topo *t, const lb_node_params *p, lb_node **out)
{
  return node_make(pol, id, t, p, NULL, p->speed, out);
}

int lb_node_alloc_shared(lb_policy pol, size_t id, const lb_topo *t, const lb_node_params *p, double speed,
                         lb_node **out)
{
  return node_make(pol, id, t, p, p, speed, out);
}

static size_t node_bytes(const lb_node *nd)
{
  return (const char *)nd->par == (const char *)nd + NODE_BYTES ? NODE_OWN_BYTES : NODE_BYTES;
}

void lb_node_free(lb_node *nd)
{
  if (!nd) return;
  if (nd->ops->fini) nd->ops->fini(nd);
  lb_mem_free(nd->down, nd->topo->n);
  for (size_t k = 0; k < nd->nq; k++) lb_proc_free(nd->q[k]);
  if (nd->qbuf != nd->qin) lb_mem_free(nd->qbuf, nd->capq * sizeof *nd->q);
  lb_qindex_free(nd->qx);
  lb_mem_free(nd, node_bytes(nd));
}

static int result_ready(lb_node *nd, const lb_result_ref *r, double now, lb_out *out)
{
  return nd->ops->on_result ? nd->ops->on_result(nd, r, now, out) : lb_node_result_direct(nd, r, out);
}

static int on_ran(lb_node *nd, const lb_event *ev, double now, lb_out *out)
{
  size_t k = 0;
  while (k < nd->nq && nd->q[k]->id != ev->pid) k++;
  if (k == nd->nq)
    return lb_error(LB_ESTATE, "node %zu ran process %llu, which it does not hold", nd->id,
                    (unsigned long long)ev->pid);
  if (!(ev->work_done >= 0)) return lb_error(LB_EINVAL, "node %zu: work done %g", nd->id, ev->work_done);
  lb_proc *p = nd->q[k];
  p->work -= ev->work_done;
  if (p->work < 0) p->work = 0;
  p->quanta++;
  p->ran += (float)ev->work_done;
  if (nd->ops->on_ran) nd->ops->on_ran(nd, p, ev->work_done, ev->finished);
  if (ev->ctx && ev->ctx_head && ev->ctx_len <= p->ctx_len) memmove(p->ctx, ev->ctx, ev->ctx_len);
  else if (ev->ctx) {
    int rc = lb_proc_set_ctx(p, ev->ctx, ev->ctx_len);
    if (rc) return rc;
  }
  if (!ev->finished) {
    /* Round robin: the process that ran goes to the back. */
    if (nd->par->sched == LB_SCHED_RR && nd->nq > 1) {
      q_remove(nd, k);
      lb_node_put_back(nd, p);
    } else if (k && qx_on(nd)) lb_qindex_changed(nd->qx, q_off(nd), nd->q, nd->nq, k);
    return LB_SUCCESS;
  }
  q_remove(nd, k);
  nd->st.executed++;
  lb_result_ref r = {p->id, p->origin, ev->result_len, 1};
  lb_proc_free(p);
  int rc = LB_SUCCESS;
  if (nd->par->results == LB_RESULTS_DIRECT) {
    /* The bytes go to the sink from here; the protocol carries a receipt. */
    nd->st.delivered++;
    rc = out_result(out, LB_OUT_DELIVER, &r);
    r.payload = 0;
  }
  return rc ? rc : result_ready(nd, &r, now, out);
}

static int on_transfer(lb_node *nd, lb_msg *m, double now, lb_out *out)
{
  int rc = LB_SUCCESS;
  for (size_t k = 0; k < m->nproc; k++)
    if (!rc && !(rc = lb_node_enqueue(nd, m->procs[k]))) m->procs[k] = NULL;
  if (!rc) {
    m->nproc = 0;
    if (nd->ops->on_transfer) rc = nd->ops->on_transfer(nd, m, now, out);
  }
  lb_msg_free(m);
  return rc;
}

static int on_result_msg(lb_node *nd, lb_msg *m, double now, lb_out *out)
{
  lb_result_ref r = m->res;
  lb_msg_free(m);
  if (r.origin != nd->id)
    return lb_error(LB_ESTATE, "node %zu got the result of process %llu, whose origin is %zu", nd->id,
                    (unsigned long long)r.pid, r.origin);
  return result_ready(nd, &r, now, out);
}

static int on_down(lb_node *nd, const lb_event *ev, double now, lb_out *out)
{
  const lb_topo *t = ev->topo;
  if (!t || t->n != nd->topo->n || ev->dst >= t->n || ev->dst == nd->id)
    return lb_error(LB_EINVAL, "node %zu: failure of node %zu with a graph of %zu nodes", nd->id, ev->dst,
                    t ? t->n : 0);
  if (!nd->down && !(nd->down = lb_mem_calloc(t->n))) return lb_error(LB_ENOMEM, "failed-node table");
  if (nd->down[ev->dst]) {
    nd->topo = t;
    return LB_SUCCESS;
  }
  nd->down[ev->dst] = 1;
  nd->ndown++;
  nd->topo = t;
  return nd->ops->on_down ? nd->ops->on_down(nd, ev->dst, now, out) : LB_SUCCESS;
}

static int on_discard(lb_node *nd, uint64_t pid)
{
  for (size_t k = 0; k < nd->nq; k++) {
    if (nd->q[k]->id != pid) continue;
    lb_proc_free(nd->q[k]);
    q_remove(nd, k);
    return LB_SUCCESS;
  }
  return lb_error(LB_ESTATE, "node %zu: discard of process %llu, which it does not hold", nd->id,
                  (unsigned long long)pid);
}

static int on_order(lb_node *nd, const lb_event *ev, lb_out *out)
{
  if (ev->dst >= nd->topo->n || ev->dst == nd->id || ev->count < 0)
    return lb_error(LB_EINVAL, "node %zu: order to send %ld processes to node %zu", nd->id, ev->count, ev->dst);
  size_t sent;
  return lb_node_transfer(nd, out, ev->dst, (size_t)ev->count, 0, &sent);
}

int lb_node_tick_due(const lb_node *nd) { return !(nd->passed_on && nd->ops->steady_tick); }

int lb_node_step(lb_node *nd, const lb_event *ev, double now, lb_out *out)
{
  nd->passed_on = 0;
  switch (ev->type) {
  case LB_EV_MSG: {
    lb_msg *m = ev->msg;
    if (!m) return lb_error(LB_EINVAL, "node %zu: message event without a message", nd->id);
    if (m->hop_dst != nd->id || m->src >= nd->topo->n) {
      int rc = lb_error(LB_ESTATE, "node %zu: %s addressed %zu -> %zu", nd->id, lb_msg_type_name(m->type), m->hop_src,
                        m->hop_dst);
      lb_msg_free(m);
      return rc;
    }
    if (lb_node_is_down(nd, m->hop_src)) {
      /* A fenced neighbour that came back: what it sends is not taken. */
      nd->st.from_down++;
      lb_msg_free(m);
      return LB_SUCCESS;
    }
    if (m->dst != nd->id) {
      nd->passed_on = 1;
      return relay(nd, m, out);
    }
    if (m->type == LB_MSG_RESULT) return on_result_msg(nd, m, now, out);
    if (m->type == LB_MSG_TRANSFER) return on_transfer(nd, m, now, out);
    return nd->ops->on_msg ? nd->ops->on_msg(nd, m, now, out) : lb_node_unexpected(nd, m);
  }
  case LB_EV_TIMER: return nd->ops->on_timer ? nd->ops->on_timer(nd, ev->timer, now, out) : LB_SUCCESS;
  case LB_EV_ARRIVE: {
    if (!ev->proc) return lb_error(LB_EINVAL, "node %zu: arrival without a process", nd->id);
    int rc = lb_node_enqueue(nd, ev->proc);
    if (rc) lb_proc_free(ev->proc); /* consumed either way */
    return rc;
  }
  case LB_EV_RAN: return on_ran(nd, ev, now, out);
  case LB_EV_TICK: return nd->ops->on_tick ? nd->ops->on_tick(nd, now, out) : LB_SUCCESS;
  case LB_EV_ORDER: return on_order(nd, ev, out);
  case LB_EV_DOWN: return on_down(nd, ev, now, out);
  case LB_EV_DISCARD: return on_discard(nd, ev->pid);
  }
  return lb_error(LB_EINVAL, "node %zu: event type %d", nd->id, (int)ev->type);
}

const lb_proc *lb_node_current(const lb_node *nd) { return nd->nq ? nd->q[0] : NULL; }

void lb_node_prefetch(const lb_node *nd, int stage)
{
  /* Prefetches never fault: a stale pointer costs nothing but the hint. */
  if (!stage) {
    /* The hot fields, the inline queue and the shared parameters
     * pointer, the first counters: the first three lines (a fourth was
     * no gain once the parameters were shared). */
    for (int k = 0; k < 3; k++) __builtin_prefetch((const char *)nd + 64 * k);
    return;
  }
  if (stage == 1) {
    __builtin_prefetch(nd->ps);
    __builtin_prefetch((const char *)nd->ps + 64);
    __builtin_prefetch(nd->q);          /* its own line once it outgrows qin */
    __builtin_prefetch(nd->q + nd->nq); /* where round robin puts the head */
    return;
  }
  if (nd->nq) __builtin_prefetch(nd->q[0]);
  if (nd->nq > 1) __builtin_prefetch(nd->q[1]);
}

size_t lb_node_id(const lb_node *nd) { return nd->id; }
lb_policy lb_node_policy(const lb_node *nd) { return nd->pol; }
size_t lb_node_queue_len(const lb_node *nd) { return nd->nq; }
int lb_node_state(const lb_node *nd) { return lb_load_state((long)nd->nq, nd->C, nd->A); }
size_t lb_node_pending_results(const lb_node *nd) { return nd->ops->pending ? nd->ops->pending(nd) : 0; }
int lb_node_quiescent(const lb_node *nd) { return nd->ops->quiescent ? nd->ops->quiescent(nd) : 1; }

int lb_node_describe(const lb_node *nd, char *buf, size_t cap)
{
  if (nd->ops->describe) return nd->ops->describe(nd, buf, cap);
  if (cap) buf[0] = '\0';
  return 0;
}
const lb_node_stats *lb_node_stats_get(const lb_node *nd) { return &nd->st; }

/* ---- lb_policy.h's readers ---- */
const lb_topo *lb_node_topo(const lb_node *nd) { return nd->topo; }
int lb_node_capacity(const lb_node *nd) { return nd->C; }
double lb_node_threshold(const lb_node *nd) { return nd->A; }
double lb_node_hop_time(const lb_node *nd) { return nd->par->hop_time; }
const lb_node_params *lb_node_params_of(const lb_node *nd) { return nd->par; }
size_t lb_node_down_count(const lb_node *nd) { return nd->ndown; }
void *lb_node_policy_state(const lb_node *nd) { return nd->ps; }
void lb_node_set_policy_state(lb_node *nd, void *state) { nd->ps = state; }
unsigned long lb_node_random_below(lb_node *nd, unsigned long n) { return n ? lb_rng_below(&nd->rng, n) : 0; }
void lb_node_count_invocation(lb_node *nd) { nd->st.invocations++; }

double lb_node_param(const lb_node *nd, const char *name)
{
  const lb_param *p = lb_param_find(name);
  return p ? lb_param_get(p, nd->par) : NAN;
}

void lb_node_stats_add(lb_node_stats *sum, const lb_node_stats *st)
{
  /* A count added to lb_node_stats must be added here too. */
  _Static_assert(sizeof(lb_node_stats) == (LB_MSG_NTYPES + 22) * sizeof(unsigned long), "lb_node_stats changed");
  for (int k = 0; k < LB_MSG_NTYPES; k++) sum->sent[k] += st->sent[k];
  sum->bytes += st->bytes;
  sum->migrated += st->migrated;
  sum->migrated_started += st->migrated_started;
  sum->ctx_bytes += st->ctx_bytes;
  sum->hops += st->hops;
  sum->invocations += st->invocations;
  sum->episodes += st->episodes;
  sum->executed += st->executed;
  sum->homed += st->homed;
  sum->delivered += st->delivered;
  sum->orphans += st->orphans;
  sum->relayed += st->relayed;
  sum->from_down += st->from_down;
  for (int k = 0; k < 8; k++) sum->placed[k] += st->placed[k];
  sum->dissolved += st->dissolved;
}

size_t lb_node_queue_ids(const lb_node *nd, uint64_t *ids, size_t cap)
{
  for (size_t k = 0; k < nd->nq && k < cap; k++) ids[k] = nd->q[k]->id;
  return nd->nq;
}
