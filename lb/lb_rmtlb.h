/* lb_rmtlb.h: RMTLB's own state, for tests and invariant checks.  On a
 * node of another policy each returns its idle value. */
#ifndef LB_RMTLB_H
#define LB_RMTLB_H

#include <stdio.h>
#include "lb_node.h"

long lb_rmtlb_lepn(const lb_node *node);   /* -1 when idle */
long lb_rmtlb_lipn(const lb_node *node);   /* -1 when idle */
size_t lb_rmtlb_rmtv(const lb_node *node); /* LB_NO_NODE when unlocked */
size_t lb_rmtlb_nrt_size(const lb_node *node);
/* One line per NRT record ("hv dv tag pv nxv confirmed total got back"),
 * for violation reports. */
void lb_rmtlb_nrt_print(const lb_node *node, FILE *f);

#endif
