/* lb_pol_dasud.c: DASUD (Cortes, Ripoll, Senar, Luque: Diffusion
 * Algorithm Searching Unbalanced Domains; seed 000 reference [2]).
 *
 * A node's domain is itself and its neighbours.  Every period it tells
 * its neighbours its load when it has changed, then:
 *  1. proportional step: if its load exceeds the domain average, it
 *     sends the excess to the neighbours below the average, in
 *     proportion to their deficits (floors);
 *  2. searching unbalanced domains: if step 1 moved nothing but the
 *     domain is unbalanced (max - min > 1):
 *     a. the node holding the domain maximum sends one process to the
 *        least loaded neighbour;
 *     b. any other node sends the neighbour holding the maximum an
 *        instruction message (carrying the domain minimum) asking for
 *        one process, and passes one process on to the least loaded
 *        neighbour unless it is the minimum itself: the maximum of our
 *        domain need not be the maximum of its own, and the two need
 *        not be adjacent, so neither would move by itself.
 * This is what lets DASUD reach a spread of at most one process per
 * domain, where integer first-order diffusion stalls. */
#include <math.h>
#include "lb_node_impl.h"
#include "lb_errno.h"

/* Its state is the neighbour-load exchange's (LB_NBR). */
static int da_init(lb_node *nd) { return lb_nbr_loads_init(nd, 0); }

/* A neighbour failed and the graph changed: start the domain afresh,
 * and tell the new neighbours our load. */
static int da_down(lb_node *nd, size_t dead, double now, lb_out *out)
{
  (void)dead;
  (void)now;
  (void)out;
  return lb_nbr_loads_reset(nd);
}

static int da_tick(lb_node *nd, double now, lb_out *out)
{
  return lb_node_periodic_tick(nd, &LB_NBR(nd)->armed, nd->par->dasud.period, now, out);
}

static int send_to(lb_node *nd, lb_out *out, size_t k, size_t count, int *moved)
{
  size_t sent;
  int rc = lb_node_transfer(nd, out, lb_topo_neighbours(nd->topo, nd->id)[k], count, 0, &sent);
  LB_NBR(nd)->known[k] += (long)sent;
  *moved |= sent > 0;
  return rc;
}

static int balance(lb_node *nd, lb_out *out)
{
  const lb_nbr_loads *x = LB_NBR(nd);
  long q = (long)nd->nq, sum = q, mx = q, mn = q;
  size_t kmax = (size_t)-1, kmin = (size_t)-1, n = 1;
  for (size_t k = 0; k < x->deg; k++) {
    long v = x->known[k];
    if (v < 0) continue;
    sum += v;
    n++;
    if (v > mx) {
      mx = v;
      kmax = k;
    }
    if (v < mn) {
      mn = v;
      kmin = k;
    }
  }
  if (n < 2 || mx - mn <= 1) return LB_SUCCESS;
  double avg = (double)sum / (double)n, deficit = 0;
  for (size_t k = 0; k < x->deg; k++)
    if (x->known[k] >= 0 && (double)x->known[k] < avg) deficit += avg - (double)x->known[k];
  int rc = LB_SUCCESS, moved = 0;
  if ((double)q > avg && deficit > 0) {
    double excess = (double)q - avg;
    for (size_t k = 0; k < x->deg && !rc; k++) {
      long v = x->known[k];
      if (v < 0 || (double)v >= avg) continue;
      double share = floor(excess * (avg - (double)v) / deficit);
      if (share >= 1) rc = send_to(nd, out, k, (size_t)share, &moved);
    }
  }
  if (rc || moved) {
    if (moved) nd->st.invocations++;
    return rc;
  }
  if (q == mx) {
    if (kmin != (size_t)-1 && q - x->known[kmin] > 1) rc = send_to(nd, out, kmin, 1, &moved); /* 2a */
  } else if (kmax != (size_t)-1) {
    /* 2b: ask the maximum for one process, and pass one on to the
     * minimum when we are not it ourselves: max - 1, min + 1. */
    lb_msg *m;
    size_t to = lb_topo_neighbours(nd->topo, nd->id)[kmax];
    if ((rc = lb_msg_alloc(LB_MSG_INSTR, nd->id, to, &m))) return rc;
    m->u.instr.min = mn;
    rc = lb_node_send(nd, out, to, m);
    moved = 1;
    if (!rc && q > mn && kmin != (size_t)-1) rc = send_to(nd, out, kmin, 1, &moved);
  }
  if (moved) nd->st.invocations++;
  return rc;
}

static int da_timer(lb_node *nd, uint64_t id, double now, lb_out *out)
{
  (void)id;
  int rc = lb_nbr_loads_tell(nd, out);
  if (!rc) rc = balance(nd, out);
  return rc ? rc : lb_node_timer(out, 0, now + nd->par->dasud.period);
}

static int da_msg(lb_node *nd, lb_msg *m, double now, lb_out *out)
{
  (void)now;
  int rc = LB_SUCCESS, moved = 0;
  if (m->type != LB_MSG_LOAD && m->type != LB_MSG_INSTR) return lb_node_unexpected(nd, m);
  size_t k = lb_node_sender(nd, m, &rc);
  if (k == (size_t)-1) return rc;
  if (m->type == LB_MSG_LOAD) LB_NBR(nd)->known[k] = m->u.load.q;
  /* An instruction is obeyed only if it still helps: we hold at least
   * two more than the minimum of the asker's domain. */
  else if ((long)nd->nq - m->u.instr.min > 1) rc = send_to(nd, out, k, 1, &moved);
  /* Refused: the asker's view of us is stale; correct it, or it would
   * ask again every period. */
  else {
    lb_msg *l;
    if (!(rc = lb_msg_alloc(LB_MSG_LOAD, nd->id, m->src, &l))) {
      l->u.load.q = (long)nd->nq;
      rc = lb_node_send(nd, out, m->src, l);
    }
  }
  lb_msg_free(m);
  return rc;
}

const lb_policy_ops lb_policy_dasud_ops = {.init = da_init,
                                           .fini = lb_nbr_loads_fini,
                                           .on_msg = da_msg,
                                           .on_timer = da_timer,
                                           .on_tick = da_tick,
                                           .on_down = da_down};
