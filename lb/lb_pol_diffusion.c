/* lb_pol_diffusion.c: first- and second-order diffusion (Cybenko;
 * Ghosh et al., seed 001) as a distributed policy.
 *
 * Every period a node tells its neighbours its queue length when it has
 * changed, and moves processes along each edge by the diffusion flow
 * computed from the loads it last heard:
 *   first order   y_ij = alpha_ij (Q_i - Q_j)
 *   second order  y_ij(t) = beta alpha_ij (Q_i - Q_j) + (beta - 1) y_ij(t-1)
 * sending floor(y_ij) processes when that is at least one.  The
 * coefficients come from lb_diffusion.h (Boillat's by default, or the
 * given uniform alpha); beta is a parameter (the simulator passes
 * lb_diffusion_beta_opt of the graph). */
#include <math.h>
#include <stdlib.h>
#include "lb_node_impl.h"
#include "lb_diffusion.h"
#include "lb_errno.h"
#include "lb_mem.h"

typedef struct diff {
  size_t deg;
  long *known;       /* neighbours' last reported loads, -1 unknown */
  double *alpha, *prev;
  long last_sent;
  int armed;
} diff;

#define D(nd) ((diff *)(nd)->ps)

static void di_fini(lb_node *nd)
{
  diff *s = D(nd);
  if (!s) return;
  free(s->known);
  free(s->alpha);
  free(s->prev);
  lb_mem_free(s, sizeof *s);
}

/* Per-neighbour state for the node's current graph: loads unknown, no
 * previous flow, coefficients from the degrees. */
static int di_edges(lb_node *nd)
{
  diff *s = D(nd);
  size_t deg = lb_topo_degree(nd->topo, nd->id);
  long *known = realloc(s->known, (deg + 1) * sizeof *known);
  if (known) s->known = known;
  double *alpha = realloc(s->alpha, (deg + 1) * sizeof *alpha);
  if (alpha) s->alpha = alpha;
  double *prev = realloc(s->prev, (deg + 1) * sizeof *prev);
  if (prev) s->prev = prev;
  if (!known || !alpha || !prev) return lb_error(LB_ENOMEM, "diffusion state");
  s->deg = deg;
  s->last_sent = -1;
  const size_t *nb = lb_topo_neighbours(nd->topo, nd->id);
  for (size_t k = 0; k < deg; k++) {
    s->known[k] = -1;
    s->prev[k] = 0;
    size_t dj = lb_topo_degree(nd->topo, nb[k]);
    int rc = nd->par->diffusion.alpha > 0
      ? lb_diffusion_edge_alpha(LB_DIFFUSION_UNIFORM, nd->par->diffusion.alpha, deg, dj, &s->alpha[k])
      : lb_diffusion_alpha_boillat(deg, dj, &s->alpha[k]);
    if (rc) return rc;
  }
  return LB_SUCCESS;
}

static int di_init(lb_node *nd)
{
  diff *s = lb_mem_calloc(sizeof *s);
  if (!s) return lb_error(LB_ENOMEM, "diffusion state");
  nd->ps = s;
  if (nd->pol == LB_POLICY_DIFFUSION2 && !(nd->par->diffusion.beta > 0 && nd->par->diffusion.beta < 2)) {
    di_fini(nd);
    return lb_error(LB_EINVAL, "second-order beta %g outside (0, 2): lb_policy_prepare sets beta_opt",
                    nd->par->diffusion.beta);
  }
  int rc = di_edges(nd);
  if (rc) di_fini(nd);
  return rc;
}

/* A neighbour failed and the graph changed: start afresh on it. */
static int di_down(lb_node *nd, size_t dead, double now, lb_out *out)
{
  (void)dead; (void)now; (void)out;
  return di_edges(nd);
}

static int di_tick(lb_node *nd, double now, lb_out *out)
{
  lb_node_track_heavy(nd);
  diff *s = D(nd);
  if (s->armed) return LB_SUCCESS;
  s->armed = 1;
  return lb_node_timer(out, 0, now + nd->par->diffusion.period);
}

static int di_timer(lb_node *nd, uint64_t id, double now, lb_out *out)
{
  (void)id;
  diff *s = D(nd);
  const size_t *nb = lb_topo_neighbours(nd->topo, nd->id);
  int rc = LB_SUCCESS, moved = 0;
  long q = (long)nd->nq;
  if (q != s->last_sent) {
    s->last_sent = q;
    for (size_t k = 0; k < s->deg && !rc; k++) {
      lb_msg *m;
      if ((rc = lb_msg_alloc(LB_MSG_LOAD, nd->id, nb[k], &m))) break;
      m->u.load.q = q;
      rc = lb_node_send(nd, out, nb[k], m);
    }
  }
  double beta = nd->pol == LB_POLICY_DIFFUSION2 ? nd->par->diffusion.beta : 1.0;
  for (size_t k = 0; k < s->deg && !rc; k++) {
    if (s->known[k] < 0) continue;
    double y = beta * s->alpha[k] * (double)((long)nd->nq - s->known[k]) + (beta - 1) * s->prev[k];
    s->prev[k] = y;
    if (y < 1) continue;
    size_t sent;
    rc = lb_node_transfer(nd, out, nb[k], (size_t)floor(y), 0, &sent);
    s->known[k] += (long)sent;   /* what the neighbour will hold */
    moved |= sent > 0;
  }
  if (moved) nd->st.invocations++;
  return rc ? rc : lb_node_timer(out, 0, now + nd->par->diffusion.period);
}

static int di_msg(lb_node *nd, lb_msg *m, double now, lb_out *out)
{
  (void)now; (void)out;
  diff *s = D(nd);
  size_t k = lb_node_nbr_index(nd, m->src);
  /* After a failure the graph changed: a load from a node that is no
   * longer a neighbour is stale. */
  if (m->type == LB_MSG_LOAD && k == (size_t)-1 && nd->ndown) { lb_msg_free(m); return LB_SUCCESS; }
  if (m->type != LB_MSG_LOAD || k == (size_t)-1) return lb_node_unexpected(nd, m);
  s->known[k] = m->u.load.q;
  lb_msg_free(m);
  return LB_SUCCESS;
}

const lb_policy_ops lb_policy_diffusion_ops = {
  .init = di_init, .fini = di_fini, .on_msg = di_msg, .on_timer = di_timer, .on_tick = di_tick,
  .on_down = di_down
};
