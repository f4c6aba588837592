/* lb_policy_reg.c: the registry of policies (lb_policy.h): the
 * library's own descriptors, and those a program registers. */
#include <stdio.h>
#include <string.h>
#include "lb_node_impl.h"
#include "lb_errno.h"

/* The library's own, in lb_policy's order; their parameters are rows of
 * lb_param.c's table, so `params` is empty here. */
static const lb_policy_desc builtin[LB_POLICY_COUNT] = {
    {"none", "no balancing: every process runs where it starts", &lb_policy_none_ops, NULL, 0, NULL},
    {"rmtlb",
     "seed 000's RMTLB: a heavy node floods requests, light nodes answer, processes move "
     "hop by hop along the answers' paths",
     &lb_policy_rmtlb_ops, NULL, 0, NULL},
    {"lowest",
     "Zhou's LOWEST: a heavy node probes random nodes and sends its excess to the least "
     "loaded light one",
     &lb_policy_lowest_ops, NULL, 0, NULL},
    {"dasud", "Cortes et al.'s DASUD: diffusion among neighbours with a search of unbalanced domains",
     &lb_policy_dasud_ops, NULL, 0, NULL},
    {"cchspmd", "CCHSPMD: a controller collects every load and orders the moves", &lb_policy_cchspmd_ops, NULL, 0,
     NULL},
    {"diffusion", "first-order diffusion (Cybenko) between neighbours", &lb_policy_diffusion_ops, NULL, 0, NULL},
    {"diffusion2", "second-order diffusion (SOR) between neighbours", &lb_policy_diffusion_ops, NULL, 0, NULL},
    {"steal",
     "random work stealing: a node short of work asks a random node, which sends one or half "
     "of its movable processes, or refuses",
     &lb_policy_steal_ops, NULL, 0, NULL},
    {"pool",
     "master-worker self-scheduling: heavy nodes send their excess to a pool at one node, "
     "idle nodes pull chunks (factoring, GSS)",
     &lb_policy_pool_ops, NULL, 0, NULL},
    {"dasud-ring",
     "seed 000's DASUD: a heavy node searches its neighbours, then ring after ring, "
     "for the nearest light node",
     &lb_policy_ring_ops, NULL, 0, NULL},
};

#define MAX_USER 16
static const lb_policy_desc *user[MAX_USER];
static size_t nuser;
static char list[1024];

size_t lb_policy_count(void) { return LB_POLICY_COUNT + nuser; }

const lb_policy_desc *lb_policy_desc_get(lb_policy p)
{
  size_t k = (size_t)p;
  if ((int)p < 0) return NULL;
  if (k < LB_POLICY_COUNT) return &builtin[k];
  return k - LB_POLICY_COUNT < nuser ? user[k - LB_POLICY_COUNT] : NULL;
}

const char *lb_policy_name(lb_policy p)
{
  const lb_policy_desc *d = lb_policy_desc_get(p);
  return d ? d->name : "?";
}

const char *lb_policy_list(void)
{
  if (list[0]) return list;
  size_t n = 0;
  for (size_t k = 0; k < lb_policy_count(); k++)
    n += (size_t)snprintf(list + (n < sizeof list ? n : sizeof list), n < sizeof list ? sizeof list - n : 0, "%s%s",
                          k ? ", " : "", lb_policy_name((lb_policy)k));
  return list;
}

int lb_policy_from_name(const char *name, lb_policy *out)
{
  for (size_t k = 0; name && k < lb_policy_count(); k++)
    if (!strcmp(name, lb_policy_name((lb_policy)k))) {
      *out = (lb_policy)k;
      return LB_SUCCESS;
    }
  return lb_error(LB_EINVAL, "unknown policy '%s' (%s)", name ? name : "", lb_policy_list());
}

static int name_ok(const char *s)
{
  size_t n = s ? strlen(s) : 0;
  if (!n || n > 31 || s[0] == '-') return 0;
  return strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789-") == n;
}

int lb_policy_register(const lb_policy_desc *d, lb_policy *id)
{
  if (!d || !d->ops) return lb_error(LB_EINVAL, "policy descriptor without its operations");
  if (!name_ok(d->name))
    return lb_error(LB_EINVAL, "policy name '%s': 1-31 lower-case letters, digits and '-'", d->name ? d->name : "");
  lb_policy dummy;
  if (!lb_policy_from_name(d->name, &dummy)) return lb_error(LB_EINVAL, "policy '%s' is registered already", d->name);
  lb_error_clear();
  if (nuser == MAX_USER)
    return lb_error(LB_ENOMEM, "policy '%s': room for %d policies of a program", d->name, MAX_USER);
  if (d->nparams && !d->params) return lb_error(LB_EINVAL, "policy '%s': %zu parameters, no rows", d->name, d->nparams);
  lb_policy me = (lb_policy)(LB_POLICY_COUNT + nuser);
  int rc = lb_param_add_rows(d->name, d->params, d->nparams, (int)me);
  if (rc) return lb_error_wrap(rc, "policy '%s'", d->name);
  user[nuser++] = d;
  list[0] = '\0';
  if (id) *id = me;
  return LB_SUCCESS;
}
