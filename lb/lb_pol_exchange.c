/* lb_pol_exchange.c: what the periodic policies share (lb_node_impl.h):
 * their check point, and the neighbour-load exchange of DASUD and
 * diffusion. */
#include <string.h>
#include "lb_node_impl.h"
#include "lb_errno.h"
#include "lb_mem.h"

int lb_node_periodic_tick(lb_node *nd, int *armed, double period, double now, lb_out *out)
{
  lb_node_track_heavy(nd);
  if (*armed) return LB_SUCCESS;
  *armed = 1;
  return lb_node_timer(out, 0, now + period);
}

/* Bytes of the tables for deg neighbours (one more: never zero). */
static size_t known_bytes(size_t deg) { return (deg + 1) * sizeof(long); }
static size_t edge_bytes(size_t deg, size_t per_edge) { return (deg + 1) * per_edge * sizeof(double); }

static void tables_free(lb_nbr_loads *x)
{
  if (x->known) lb_mem_free(x->known, known_bytes(x->deg));
  if (x->edge) lb_mem_free(x->edge, edge_bytes(x->deg, x->per_edge));
  x->known = NULL;
  x->edge = NULL;
}

int lb_nbr_loads_reset(lb_node *nd)
{
  lb_nbr_loads *x = LB_NBR(nd);
  size_t deg = lb_topo_degree(nd->topo, nd->id), per_edge = x->per_edge;
  if (!x->known || deg != x->deg) {
    long *known = lb_mem_alloc(known_bytes(deg));
    double *edge = per_edge ? lb_mem_alloc(edge_bytes(deg, per_edge)) : NULL;
    if (!known || (per_edge && !edge)) {
      lb_mem_free(known, known_bytes(deg));
      lb_mem_free(edge, edge_bytes(deg, per_edge));
      return lb_error(LB_ENOMEM, "node %zu: loads of %zu neighbours", nd->id, deg);
    }
    tables_free(x);
    x->known = known;
    x->edge = edge;
    x->deg = deg;
  }
  for (size_t k = 0; k < deg; k++) x->known[k] = -1;
  if (per_edge) memset(x->edge, 0, edge_bytes(deg, per_edge));
  x->last_sent = -1;
  return LB_SUCCESS;
}

int lb_nbr_loads_init(lb_node *nd, size_t per_edge)
{
  lb_nbr_loads *x = lb_mem_calloc(sizeof *x);
  if (!x) return lb_error(LB_ENOMEM, "node %zu: %s state", nd->id, lb_policy_name(nd->pol));
  x->per_edge = per_edge;
  nd->ps = x;
  int rc = lb_nbr_loads_reset(nd);
  if (rc) lb_nbr_loads_fini(nd);
  return rc;
}

void lb_nbr_loads_fini(lb_node *nd)
{
  lb_nbr_loads *x = LB_NBR(nd);
  if (!x) return;
  tables_free(x);
  lb_mem_free(x, sizeof *x);
  nd->ps = NULL;
}

int lb_nbr_loads_tell(lb_node *nd, lb_out *out)
{
  lb_nbr_loads *x = LB_NBR(nd);
  long q = (long)nd->nq;
  if (q == x->last_sent) return LB_SUCCESS;
  x->last_sent = q;
  const size_t *nb = lb_topo_neighbours(nd->topo, nd->id);
  int rc = LB_SUCCESS;
  for (size_t k = 0; k < x->deg && !rc; k++) {
    lb_msg *m;
    if ((rc = lb_msg_alloc(LB_MSG_LOAD, nd->id, nb[k], &m))) break;
    m->u.load.q = q;
    rc = lb_node_send(nd, out, nb[k], m);
  }
  return rc;
}
