/* lb_pol_none.c: the baseline: no balancing; every process runs where
 * it was created.  Messages are not expected; any that come are errors. */
#include "lb_node_impl.h"
#include "lb_errno.h"

static int none_msg(lb_node *nd, lb_msg *m, double now, lb_out *out)
{
  (void)now; (void)out;
  int rc = lb_error(LB_ESTATE, "node %zu (none): unexpected %s from %zu", nd->id,
                    lb_msg_type_name(m->type), m->src);
  lb_msg_free(m);
  return rc;
}

const lb_policy_ops lb_policy_none_ops = { .on_msg = none_msg };
