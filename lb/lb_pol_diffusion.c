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

/* The state is the neighbour-load exchange's (LB_NBR): per neighbour k
 * its last reported load (known[k]), and two numbers of our own: the
 * edge's coefficient and its last flow. */
enum { ALPHA, PREV, PER_EDGE };

/* The coefficients for the node's current graph (its loads unknown and
 * no previous flow, lb_nbr_loads_reset). */
static int di_alphas(lb_node *nd)
{
  lb_nbr_loads *x = LB_NBR(nd);
  int rc = LB_SUCCESS;
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
  if (nd->pol == LB_POLICY_DIFFUSION2 && !(nd->par->diffusion.beta > 0 && nd->par->diffusion.beta < 2))
    return lb_error(LB_EINVAL, "second-order beta %g outside (0, 2): lb_policy_prepare sets beta_opt",
                    nd->par->diffusion.beta);
  int rc = lb_nbr_loads_init(nd, PER_EDGE);
  if (!rc && (rc = di_alphas(nd))) lb_nbr_loads_fini(nd);
  return rc;
}

/* A neighbour failed and the graph changed: start afresh on it. */
static int di_down(lb_node *nd, size_t dead, double now, lb_out *out)
{
  (void)dead;
  (void)now;
  (void)out;
  int rc = lb_nbr_loads_reset(nd);
  return rc ? rc : di_alphas(nd);
}

static int di_tick(lb_node *nd, double now, lb_out *out)
{
  return lb_node_periodic_tick(nd, &LB_NBR(nd)->armed, nd->par->diffusion.period, now, out);
}

static int di_timer(lb_node *nd, uint64_t id, double now, lb_out *out)
{
  (void)id;
  lb_nbr_loads *x = LB_NBR(nd);
  const size_t *nb = lb_topo_neighbours(nd->topo, nd->id);
  int rc = lb_nbr_loads_tell(nd, out), moved = 0;
  double beta = nd->pol == LB_POLICY_DIFFUSION2 ? nd->par->diffusion.beta : 1.0;
  for (size_t k = 0; k < x->deg && !rc; k++) {
    if (x->known[k] < 0) continue;
    double *e = &x->edge[PER_EDGE * k];
    double y = beta * e[ALPHA] * (double)((long)nd->nq - x->known[k]) + (beta - 1) * e[PREV];
    e[PREV] = y;
    if (y < 1) continue;
    size_t sent;
    rc = lb_node_transfer(nd, out, nb[k], (size_t)floor(y), 0, &sent);
    x->known[k] += (long)sent; /* what the neighbour will hold */
    moved |= sent > 0;
  }
  if (moved) nd->st.invocations++;
  return rc ? rc : lb_node_timer(out, 0, now + nd->par->diffusion.period);
}

static int di_msg(lb_node *nd, lb_msg *m, double now, lb_out *out)
{
  (void)now;
  (void)out;
  if (m->type != LB_MSG_LOAD) return lb_node_unexpected(nd, m);
  int rc;
  size_t k = lb_node_sender(nd, m, &rc);
  if (k == (size_t)-1) return rc;
  LB_NBR(nd)->known[k] = m->u.load.q;
  lb_msg_free(m);
  return LB_SUCCESS;
}

const lb_policy_ops lb_policy_diffusion_ops = {.init = di_init,
                                               .fini = lb_nbr_loads_fini,
                                               .on_msg = di_msg,
                                               .on_timer = di_timer,
                                               .on_tick = di_tick,
                                               .on_down = di_down};
