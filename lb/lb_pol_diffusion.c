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
#include "lb_node_impl.h"
#include "lb_diffusion.h"
#include "lb_errno.h"
#include "lb_mem.h"

/* Per neighbour k: its last reported load (x.known[k]), and two
 * numbers of our own: the edge's coefficient and its last flow. */
enum { ALPHA, PREV, PER_EDGE };

typedef struct diff {
  lb_nbr_loads x;
  int armed;
} diff;

#define D(nd) ((diff *)(nd)->ps)

static void di_fini(lb_node *nd)
{
  diff *s = D(nd);
  if (!s) return;
  lb_nbr_loads_free(&s->x);
  lb_mem_free(s, sizeof *s);
}

/* Per-neighbour state for the node's current graph: loads unknown, no
 * previous flow, coefficients from the degrees. */
static int di_edges(lb_node *nd)
{
  lb_nbr_loads *x = &D(nd)->x;
  int rc = lb_nbr_loads_reset(nd, x, PER_EDGE);
  if (rc) return rc;
  const size_t *nb = lb_topo_neighbours(nd->topo, nd->id);
  for (size_t k = 0; k < x->deg && !rc; k++) {
    size_t dj = lb_topo_degree(nd->topo, nb[k]);
    double *alpha = &x->edge[PER_EDGE * k + ALPHA];
    rc = nd->par->diffusion.alpha > 0
      ? lb_diffusion_edge_alpha(LB_DIFFUSION_UNIFORM, nd->par->diffusion.alpha, x->deg, dj, alpha)
      : lb_diffusion_alpha_boillat(x->deg, dj, alpha);
  }
  return rc;
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
  return lb_node_periodic_tick(nd, &D(nd)->armed, nd->par->diffusion.period, now, out);
}

static int di_timer(lb_node *nd, uint64_t id, double now, lb_out *out)
{
  (void)id;
  lb_nbr_loads *x = &D(nd)->x;
  const size_t *nb = lb_topo_neighbours(nd->topo, nd->id);
  int rc = lb_nbr_loads_tell(nd, x, out), moved = 0;
  double beta = nd->pol == LB_POLICY_DIFFUSION2 ? nd->par->diffusion.beta : 1.0;
  for (size_t k = 0; k < x->deg && !rc; k++) {
    if (x->known[k] < 0) continue;
    double *e = &x->edge[PER_EDGE * k];
    double y = beta * e[ALPHA] * (double)((long)nd->nq - x->known[k]) + (beta - 1) * e[PREV];
    e[PREV] = y;
    if (y < 1) continue;
    size_t sent;
    rc = lb_node_transfer(nd, out, nb[k], (size_t)floor(y), 0, &sent);
    x->known[k] += (long)sent;   /* what the neighbour will hold */
    moved |= sent > 0;
  }
  if (moved) nd->st.invocations++;
  return rc ? rc : lb_node_timer(out, 0, now + nd->par->diffusion.period);
}

static int di_msg(lb_node *nd, lb_msg *m, double now, lb_out *out)
{
  (void)now; (void)out;
  if (m->type != LB_MSG_LOAD) return lb_node_unexpected(nd, m);
  int rc;
  size_t k = lb_node_sender(nd, m, &rc);
  if (k == (size_t)-1) return rc;
  D(nd)->x.known[k] = m->u.load.q;
  lb_msg_free(m);
  return LB_SUCCESS;
}

const lb_policy_ops lb_policy_diffusion_ops = {
  .init = di_init, .fini = di_fini, .on_msg = di_msg, .on_timer = di_timer, .on_tick = di_tick,
  .on_down = di_down
};
