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
 * still can. */
#include <math.h>
#include <stdlib.h>
#include "lb_node_impl.h"
#include "lb_errno.h"

typedef struct cch {
  long last_q;
  double last_speed;
  int armed;
  /* controller only */
  long *q;
  double *speed;
  size_t *idx;
  long *delta;
} cch;

#define CC(nd) ((cch *)(nd)->ps)

static void cc_fini(lb_node *nd)
{
  cch *s = CC(nd);
  if (!s) return;
  free(s->q);
  free(s->speed);
  free(s->idx);
  free(s->delta);
  free(s);
}

static int cc_init(lb_node *nd)
{
  if (nd->par.controller >= nd->topo->n)
    return lb_error(LB_EINVAL, "controller %zu outside %zu nodes", nd->par.controller, nd->topo->n);
  cch *s = calloc(1, sizeof *s);
  if (!s) return lb_error(LB_ENOMEM, "CCHSPMD state");
  nd->ps = s;
  s->last_q = -1;
  if (nd->id == nd->par.controller) {
    size_t n = nd->topo->n;
    s->q = calloc(n, sizeof *s->q);
    s->speed = malloc(n * sizeof *s->speed);
    s->idx = malloc(n * sizeof *s->idx);
    s->delta = malloc(n * sizeof *s->delta);
    if (!s->q || !s->speed || !s->idx || !s->delta) { cc_fini(nd); return lb_error(LB_ENOMEM, "CCHSPMD"); }
    for (size_t i = 0; i < n; i++) s->speed[i] = nd->par.speed;
  }
  return LB_SUCCESS;
}

static int cc_tick(lb_node *nd, double now, lb_out *out)
{
  lb_node_track_heavy(nd);
  cch *s = CC(nd);
  if (s->armed) return LB_SUCCESS;
  s->armed = 1;
  return lb_node_timer(out, 0, now + nd->par.period);
}

static int execute(lb_node *nd, const double *v, size_t nv, lb_out *out)
{
  int rc = LB_SUCCESS;
  for (size_t k = 0; k + 1 < nv && !rc; k += 2) {
    size_t sent;
    rc = lb_node_transfer(nd, out, (size_t)v[k], (size_t)v[k + 1], &sent);
  }
  return rc;
}

static const long *cmp_key;
static int by_delta_desc(const void *a, const void *b)
{
  long x = cmp_key[*(const size_t *)a], y = cmp_key[*(const size_t *)b];
  if (x != y) return x > y ? -1 : 1;
  return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

/* The global plan: surplus over the speed-proportional share (when above
 * A) matched greedily to deficits. */
static int plan(lb_node *nd, lb_out *out)
{
  cch *s = CC(nd);
  size_t n = nd->topo->n;
  long total = 0;
  double ssum = 0;
  for (size_t i = 0; i < n; i++) { total += s->q[i]; ssum += s->speed[i]; }
  size_t ns = 0;
  for (size_t i = 0; i < n; i++) {
    double share = (double)total * s->speed[i] / ssum;
    long d = s->q[i] - (long)ceil(share);
    if (d > nd->A) s->delta[i] = d;
    else if ((d = (long)floor(share) - s->q[i]) > 0) s->delta[i] = -d;
    else s->delta[i] = 0;
    s->idx[ns++] = i;
  }
  cmp_key = s->delta;
  qsort(s->idx, ns, sizeof *s->idx, by_delta_desc);
  size_t lo = 0, hi = ns;   /* senders at the front, receivers at the back */
  int rc = LB_SUCCESS, any = 0;
  double *v = malloc(2 * n * sizeof *v);
  if (!v) return lb_error(LB_ENOMEM, "plan");
  while (!rc && lo < hi && s->delta[s->idx[lo]] > 0) {
    size_t i = s->idx[lo];
    size_t nv = 0;
    while (s->delta[i] > 0 && hi > lo + 1 && s->delta[s->idx[hi - 1]] < 0) {
      size_t j = s->idx[hi - 1];
      long c = s->delta[i] < -s->delta[j] ? s->delta[i] : -s->delta[j];
      v[nv++] = (double)j;
      v[nv++] = (double)c;
      s->delta[i] -= c;
      s->delta[j] += c;
      s->q[i] -= c;   /* expected, until the next reports */
      s->q[j] += c;
      if (!s->delta[j]) hi--;
    }
    if (nv) {
      any = 1;
      if (i == nd->id) rc = execute(nd, v, nv, out);
      else {
        lb_msg *m;
        if (!(rc = lb_msg_alloc(LB_MSG_ORDER, nd->id, i, &m)) && !(rc = lb_msg_set_vals(m, v, nv)))
          rc = lb_node_send(nd, out, i, m);
        else if (!rc) lb_msg_free(m);
      }
    }
    lo++;
  }
  free(v);
  if (any) nd->st.invocations++;
  return rc;
}

static int cc_timer(lb_node *nd, uint64_t id, double now, lb_out *out)
{
  (void)id;
  cch *s = CC(nd);
  int rc = LB_SUCCESS;
  long q = (long)nd->nq;
  if (nd->id == nd->par.controller) {
    s->q[nd->id] = q;
    s->speed[nd->id] = nd->par.speed;
    rc = plan(nd, out);
  } else if (q != s->last_q || nd->par.speed != s->last_speed) {
    s->last_q = q;
    s->last_speed = nd->par.speed;
    lb_msg *m;
    if (!(rc = lb_msg_alloc(LB_MSG_REPORT, nd->id, nd->par.controller, &m))) {
      m->n = q;
      m->load = nd->par.speed;
      rc = lb_node_send(nd, out, nd->par.controller, m);
    }
  }
  return rc ? rc : lb_node_timer(out, 0, now + nd->par.period);
}

static int cc_msg(lb_node *nd, lb_msg *m, double now, lb_out *out)
{
  (void)now;
  cch *s = CC(nd);
  int rc = LB_SUCCESS;
  if (m->type == LB_MSG_TRANSFER) return lb_node_accept_transfer(nd, m);
  if (m->type == LB_MSG_REPORT && s->q && m->src < nd->topo->n && m->load > 0) {
    s->q[m->src] = m->n;
    s->speed[m->src] = m->load;
  } else if (m->type == LB_MSG_ORDER) {
    rc = execute(nd, m->vals, m->nval, out);
  } else {
    rc = lb_error(LB_ESTATE, "node %zu (cchspmd): unexpected %s from %zu", nd->id,
                  lb_msg_type_name(m->type), m->src);
  }
  lb_msg_free(m);
  return rc;
}

const lb_policy_ops lb_policy_cchspmd_ops = {
  .init = cc_init, .fini = cc_fini, .on_msg = cc_msg, .on_timer = cc_timer, .on_tick = cc_tick
};
