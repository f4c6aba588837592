/* lb_pol_none.c: the baseline: no balancing; every process runs where
 * it was created (or where an outside order sent it).  It takes no
 * policy messages: lb_node.c refuses them. */
#include "lb_node_impl.h"

const lb_policy_ops lb_policy_none_ops = {.init = NULL};
