/* lb_policy_prepare.c: graph-wide set-up of a policy's parameters, done
 * once by any driver before the nodes are made. */
#include "lb_node_impl.h"
#include "lb_diffusion.h"
#include "lb_errno.h"
#include "lb_mem.h"

/* beta_opt of second-order diffusion for the graph, from the same
 * coefficients the nodes use (Boillat's, or the given uniform alpha). */
static int diffusion_beta(const lb_topo *t, double alpha, double *beta)
{
  size_t bytes = (t->m ? t->m : 1) * sizeof(double);
  double *ea = lb_mem_alloc(bytes);
  if (!ea) return lb_error(LB_ENOMEM, "edge coefficients");
  int rc = alpha > 0 ? lb_diffusion_edge_alphas(t, LB_DIFFUSION_UNIFORM, alpha, ea)
                     : lb_diffusion_edge_alphas(t, LB_DIFFUSION_BOILLAT, 0, ea);
  if (!rc) rc = lb_diffusion_beta_opt(t, ea, beta, NULL);
  lb_mem_free(ea, bytes);
  return rc ? lb_error_wrap(rc, "second-order beta") : LB_SUCCESS;
}

int lb_policy_prepare(lb_policy pol, const lb_topo *t, lb_node_params *p)
{
  if (!t || !t->n) return lb_error(LB_EINVAL, "no topology");
  const lb_policy_desc *d = lb_policy_desc_get(pol);
  if (!d) return lb_error(LB_EINVAL, "policy %d is not registered", (int)pol);
  if (pol < LB_POLICY_COUNT) return lb_policy_prepare_builtin(pol, t, p);
  return d->prepare ? d->prepare(t, p) : LB_SUCCESS;
}

int lb_policy_prepare_builtin(lb_policy pol, const lb_topo *t, lb_node_params *p)
{
  switch (pol) {
  case LB_POLICY_DIFFUSION2:
    if (p->diffusion.beta <= 0) return diffusion_beta(t, p->diffusion.alpha, &p->diffusion.beta);
    if (!(p->diffusion.beta < 2)) return lb_error(LB_EINVAL, "second-order beta %g outside (0, 2)", p->diffusion.beta);
    break;
  case LB_POLICY_CCHSPMD:
    if (p->cchspmd.controller >= t->n)
      return lb_error(LB_EINVAL, "controller %zu outside %zu nodes", p->cchspmd.controller, t->n);
    break;
  case LB_POLICY_POOL:
    if (p->pool.node >= t->n) return lb_error(LB_EINVAL, "pool node %zu outside %zu nodes", p->pool.node, t->n);
    break;
  default: break;
  }
  return LB_SUCCESS;
}
