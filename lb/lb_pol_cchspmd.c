/* lb_pol_cchspmd.c: CCHSPMD, a centralised global balancer (seed 000
 * reference [5], Le Mair and Reeves' general model, as the paper
 * describes it: a controller gathers all loads at a synchronisation
 * point, computes a global plan and orders the migrations).
 *
 * Every period each node reports its queue length and speed to the
 * controller when they have changed.  At each of its own periods the
 * controller plans with the loads it holds: node i's share of the total
 * is proportional to its speed; nodes more than A above their share send
 * the surplus, nodes below their share receive, matched greedily
 * (largest surplus to largest deficit).  It sends every sender one
 * ORDER listing (destination, count) pairs; the sender moves what it
 * still can.
 *
 * Reports race with migrations, so the controller keeps books: every
 * TRANSFER carries the count that was ordered (even when fewer processes
 * could go), and every node reports the cumulative counts it received
 * and executed.  The controller plans only at a synchronisation point,
 * when the books show every order of its last plan executed and
 * received: then no process is in flight and none is counted twice.
 * (Planning with the orders still in flight counted as load made a
 * process ordered but never sent, an empty transfer, look like load on
 * its way, and two nodes could pass an empty order back and forth for
 * ever.)
 *
 * With par.plan = 1 the surplus-to-deficit matching is instead the
 * transportation problem over hop distances (lb_tp_solve, seed 003's
 * solver): the same amounts move, over the fewest process-hops. */
#include <math.h>
#include <limits.h>
#include <stdlib.h>
#include "lb_node_impl.h"
#include "lb_errno.h"
#include "lb_mem.h"
#include "lb_transport.h"

typedef struct cch {
  long last_q, last_in, last_out;
  long slots_in, slots_out; /* cumulative counts received / executed */
  int armed;
  /* controller only: its books, n of each, in one block from idx */
  struct key {
    long delta;
    size_t node;
  } * idx;
  long *q, *in_rep, *out_rep, *ord_in, *ord_out;
  long *delta;
  double *speed;
  unsigned char *heard; /* a report came from node i */
  size_t nheard;
  size_t ctl; /* the controller: the given one, or after it
                               * failed the live node with the lowest id */
} cch;

#define CC(nd) ((cch *)(nd)->ps)

static size_t books_bytes(size_t n) { return n * (sizeof(struct key) + 6 * sizeof(long) + sizeof(double) + 1); }

static void cc_fini(lb_node *nd)
{
  cch *s = CC(nd);
  if (!s) return;
  lb_mem_free(s->idx, books_bytes(nd->topo->n));
  lb_mem_free(s, sizeof *s);
}

/* The controller's books, zeroed. */
static int controller_books(lb_node *nd)
{
  cch *s = CC(nd);
  size_t n = nd->topo->n;
  if (!s->idx) {
    struct key *b = lb_mem_alloc(books_bytes(n));
    if (!b) return lb_error(LB_ENOMEM, "CCHSPMD books of %zu nodes", n);
    s->idx = b;
    s->q = (long *)(b + n);
    s->in_rep = s->q + n;
    s->out_rep = s->in_rep + n;
    s->ord_in = s->out_rep + n;
    s->ord_out = s->ord_in + n;
    s->delta = s->ord_out + n;
    s->speed = (double *)(s->delta + n);
    s->heard = (unsigned char *)(s->speed + n);
  }
  for (size_t i = 0; i < n; i++) {
    s->q[i] = s->in_rep[i] = s->out_rep[i] = s->ord_in[i] = s->ord_out[i] = 0;
    s->heard[i] = 0;
    s->speed[i] = nd->speed;
  }
  s->nheard = 0;
  return LB_SUCCESS;
}

static int cc_init(lb_node *nd)
{
  if (nd->par->cchspmd.controller >= nd->topo->n)
    return lb_error(LB_EINVAL, "controller %zu outside %zu nodes", nd->par->cchspmd.controller, nd->topo->n);
  cch *s = lb_mem_calloc(sizeof *s);
  if (!s) return lb_error(LB_ENOMEM, "CCHSPMD state");
  nd->ps = s;
  s->last_q = -1;
  s->ctl = nd->par->cchspmd.controller;
  int rc = nd->id == s->ctl ? controller_books(nd) : LB_SUCCESS;
  if (rc) cc_fini(nd);
  return rc;
}

/* A node failed.  The books restart from zero everywhere (every node
 * reports afresh), with a new controller if it was the controller; the
 * failed node's load is gone from the plan. */
static int cc_down(lb_node *nd, size_t dead, double now, lb_out *out)
{
  (void)dead;
  (void)now;
  (void)out;
  cch *s = CC(nd);
  if (lb_node_is_down(nd, s->ctl))
    for (s->ctl = 0; s->ctl < nd->topo->n && lb_node_is_down(nd, s->ctl); s->ctl++) {}
  s->slots_in = s->slots_out = 0;
  s->last_q = s->last_in = s->last_out = -1;
  return nd->id == s->ctl ? controller_books(nd) : LB_SUCCESS;
}

static int cc_tick(lb_node *nd, double now, lb_out *out)
{
  return lb_node_periodic_tick(nd, &CC(nd)->armed, nd->par->cchspmd.period, now, out);
}

/* Add to a cumulative count.  A REPORT carries it, and a count above
 * INT_MAX would make every later REPORT undecodable: a total that large
 * can only come from a damaged or forged message, which is refused
 * (the processes it carried are kept). */
static int book(lb_node *nd, long *acc, long add)
{
  if (add < 0 || add > INT_MAX - *acc)
    return lb_error(LB_ESTATE, "node %zu (cchspmd): a count of %ld would take the books past %d", nd->id, add, INT_MAX);
  *acc += add;
  return LB_SUCCESS;
}

static int execute(lb_node *nd, const lb_pair *v, size_t nv, lb_out *out)
{
  cch *s = CC(nd);
  int rc = LB_SUCCESS;
  for (size_t k = 0; k < nv && !rc; k++) {
    size_t dst = v[k].node, sent;
    long count = v[k].count;
    if (dst >= nd->topo->n || count <= 0 || dst == nd->id)
      return lb_error(LB_ESTATE, "node %zu (cchspmd): order to send %ld to %zu", nd->id, count, dst);
    /* The TRANSFER carries the ordered count even when fewer can go,
     * for the controller's books. */
    if ((rc = book(nd, &s->slots_out, count))) break;
    rc = lb_node_transfer_epoch(nd, out, dst, (size_t)count, count, (uint32_t)nd->ndown, &sent);
  }
  return rc;
}

/* Surplus first (largest delta), then by node id: a total order, so the
 * plan does not depend on qsort's stability. */
static int by_delta_desc(const void *a, const void *b)
{
  const struct key *x = a, *y = b;
  if (x->delta != y->delta) return x->delta > y->delta ? -1 : 1;
  return x->node < y->node ? -1 : 1;
}

static int send_orders(lb_node *nd, lb_out *out, size_t i, const lb_pair *v, size_t nv)
{
  if (i == nd->id) return execute(nd, v, nv, out);
  lb_msg *m;
  int rc = lb_msg_alloc(LB_MSG_ORDER, nd->id, i, &m);
  if (!rc) m->u.order.epoch = (uint32_t)nd->ndown;
  for (size_t k = 0; !rc && k < nv; k++) rc = lb_msg_add_pair(m, v[k].node, v[k].count);
  if (rc) {
    lb_msg_free(m);
    return rc;
  }
  return lb_node_send(nd, out, i, m);
}

/* Surpluses and deficits (s->delta, signed) matched by the
 * transportation problem with hop-distance costs. */
static int plan_transport(lb_node *nd, lb_out *out)
{
  cch *s = CC(nd);
  size_t n = nd->topo->n, ns = 0, nr = 0;
  size_t *snd = lb_mem_alloc(n * sizeof *snd), *rcv = lb_mem_alloc(n * sizeof *rcv);
  long *sup = lb_mem_alloc(n * sizeof *sup), *dem = lb_mem_alloc(n * sizeof *dem);
  double *c = NULL;
  lb_pair *v = lb_mem_alloc(n * sizeof *v);
  long *x = NULL;
  int rc = LB_SUCCESS;
  if (!snd || !rcv || !sup || !dem || !v) {
    rc = lb_error(LB_ENOMEM, "plan");
    goto done;
  }
  for (size_t i = 0; i < n; i++) {
    if (s->delta[i] > 0) {
      snd[ns] = i;
      sup[ns++] = s->delta[i];
    } else if (s->delta[i] < 0) {
      rcv[nr] = i;
      dem[nr++] = -s->delta[i];
    }
  }
  if (!ns || !nr) goto done;
  c = lb_mem_alloc(ns * nr * sizeof *c);
  x = lb_mem_alloc(ns * nr * sizeof *x);
  if (!c || !x) {
    rc = lb_error(LB_ENOMEM, "plan of %zu x %zu", ns, nr);
    goto done;
  }
  for (size_t a = 0; a < ns; a++)
    for (size_t b = 0; b < nr; b++) c[a * nr + b] = (double)lb_topo_distance(nd->topo, snd[a], rcv[b]);
  if ((rc = lb_tp_solve(ns, nr, c, sup, dem, LB_TP_VOGEL, x, NULL, NULL))) goto done;
  int any = 0;
  for (size_t a = 0; a < ns && !rc; a++) {
    size_t nv = 0;
    for (size_t b = 0; b < nr; b++) {
      long k = x[a * nr + b];
      if (k <= 0) continue;
      v[nv++] = (lb_pair){rcv[b], k};
      s->ord_out[snd[a]] += k;
      s->ord_in[rcv[b]] += k;
    }
    if (nv) {
      any = 1;
      rc = send_orders(nd, out, snd[a], v, nv);
    }
  }
  if (any) nd->st.invocations++;
done:
  lb_mem_free(snd, n * sizeof *snd);
  lb_mem_free(rcv, n * sizeof *rcv);
  lb_mem_free(sup, n * sizeof *sup);
  lb_mem_free(dem, n * sizeof *dem);
  lb_mem_free(v, n * sizeof *v);
  lb_mem_free(c, ns * nr * sizeof *c);
  lb_mem_free(x, ns * nr * sizeof *x);
  return rc;
}

/* The global plan: surplus over the speed-proportional share (rounded
 * up, when above A) matched greedily to the room below the shares
 * (rounded up) of the nodes under them. */
static int plan(lb_node *nd, lb_out *out)
{
  cch *s = CC(nd);
  size_t n = nd->topo->n;
  long total = 0;
  double ssum = 0;
  for (size_t i = 0; i < n; i++)
    if (!lb_node_is_down(nd, i) && (s->ord_out[i] != s->out_rep[i] || s->ord_in[i] != s->in_rep[i]))
      return LB_SUCCESS; /* orders still on their way: not a synchronisation point */
  for (size_t i = 0; i < n; i++) {
    if (lb_node_is_down(nd, i)) {
      s->delta[i] = 0;
      continue;
    }
    s->delta[i] = s->q[i];
    total += s->delta[i];
    ssum += s->speed[i];
  }
  size_t ns = 0;
  for (size_t i = 0; i < n; i++) {
    if (lb_node_is_down(nd, i)) continue;
    /* A node below its share may take up to its ceiling: with a floor,
     * fewer processes than nodes (shares below 1) would move nothing. */
    double share = (double)total * s->speed[i] / ssum;
    long e = s->delta[i], over = e - (long)ceil(share), under = (double)e < share ? (long)ceil(share) - e : 0;
    s->delta[i] = over > nd->A ? over : under > 0 ? -under : 0;
    s->idx[ns++] = (struct key){s->delta[i], i};
  }
  if (nd->par->cchspmd.plan) return plan_transport(nd, out);
  qsort(s->idx, ns, sizeof *s->idx, by_delta_desc);
  size_t lo = 0, hi = ns; /* senders at the front, receivers at the back */
  int rc = LB_SUCCESS, any = 0;
  lb_pair *v = lb_mem_alloc(n * sizeof *v);
  if (!v) return lb_error(LB_ENOMEM, "plan");
  while (!rc && lo < hi && s->delta[s->idx[lo].node] > 0) {
    size_t i = s->idx[lo].node;
    size_t nv = 0;
    while (s->delta[i] > 0 && hi > lo + 1 && s->delta[s->idx[hi - 1].node] < 0) {
      size_t j = s->idx[hi - 1].node;
      long c = s->delta[i] < -s->delta[j] ? s->delta[i] : -s->delta[j];
      v[nv++] = (lb_pair){j, c};
      s->delta[i] -= c;
      s->delta[j] += c;
      s->ord_out[i] += c;
      s->ord_in[j] += c;
      if (!s->delta[j]) hi--;
    }
    if (nv) {
      any = 1;
      rc = send_orders(nd, out, i, v, nv);
    }
    lo++;
  }
  lb_mem_free(v, n * sizeof *v);
  if (any) nd->st.invocations++;
  return rc;
}

static int cc_timer(lb_node *nd, uint64_t id, double now, lb_out *out)
{
  (void)id;
  cch *s = CC(nd);
  int rc = LB_SUCCESS;
  long q = (long)nd->nq;
  if (nd->id == s->ctl) {
    s->q[nd->id] = q;
    s->speed[nd->id] = nd->speed;
    s->in_rep[nd->id] = s->slots_in;
    /* The first synchronisation point is when every node has reported. */
    if (s->nheard + 1 + nd->ndown >= nd->topo->n) rc = plan(nd, out);
    s->out_rep[nd->id] = s->slots_out; /* its own orders ran in plan() */
  } else if (q != s->last_q || s->slots_in != s->last_in || s->slots_out != s->last_out) {
    s->last_q = q;
    s->last_in = s->slots_in;
    s->last_out = s->slots_out;
    lb_msg *m;
    if (!(rc = lb_msg_alloc(LB_MSG_REPORT, nd->id, s->ctl, &m))) {
      m->u.report.q = q;
      m->u.report.speed = nd->speed;
      m->u.report.in = s->slots_in;
      m->u.report.out = s->slots_out;
      m->u.report.epoch = (uint32_t)nd->ndown;
      rc = lb_node_send(nd, out, s->ctl, m);
    }
  }
  return rc ? rc : lb_node_timer(out, 0, now + nd->par->cchspmd.period);
}

/* The books restart at each failure (cc_down): a transfer or report of
 * an earlier epoch, still on its way then, is left out of them. */
static int cc_transfer(lb_node *nd, const lb_msg *m, double now, lb_out *out)
{
  (void)now;
  (void)out;
  if (m->u.transfer.epoch != (uint32_t)nd->ndown) return LB_SUCCESS;
  return book(nd, &CC(nd)->slots_in, m->u.transfer.ordered);
}

static int cc_msg(lb_node *nd, lb_msg *m, double now, lb_out *out)
{
  (void)now;
  cch *s = CC(nd);
  int rc = LB_SUCCESS;
  if (nd->ndown && ((m->type == LB_MSG_REPORT && (!s->idx || m->u.report.epoch != (uint32_t)nd->ndown)) ||
                    (m->type == LB_MSG_ORDER && (m->src != s->ctl || m->u.order.epoch != (uint32_t)nd->ndown)))) {
    lb_msg_free(m); /* stale: from before a failure */
    return LB_SUCCESS;
  }
  if (m->type == LB_MSG_REPORT && s->idx) {
    s->q[m->src] = m->u.report.q;
    s->speed[m->src] = m->u.report.speed;
    if (!s->heard[m->src]) {
      s->heard[m->src] = 1;
      s->nheard++;
    }
    s->in_rep[m->src] = m->u.report.in;
    s->out_rep[m->src] = m->u.report.out;
  } else if (m->type == LB_MSG_ORDER && m->src == s->ctl) {
    rc = execute(nd, m->pairs, m->npair, out);
  } else {
    return lb_node_unexpected(nd, m);
  }
  lb_msg_free(m);
  return rc;
}

const lb_policy_ops lb_policy_cchspmd_ops = {.init = cc_init,
                                             .fini = cc_fini,
                                             .on_msg = cc_msg,
                                             .on_timer = cc_timer,
                                             .on_tick = cc_tick,
                                             .on_transfer = cc_transfer,
                                             .on_down = cc_down};
