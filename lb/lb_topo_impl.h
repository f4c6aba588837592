/* lb_topo_impl.h: what the lb_topo files share (not for callers). */
#ifndef LB_TOPO_IMPL_H
#define LB_TOPO_IMPL_H

#include "lb_topo.h"

/* lb_topo_from_edges on a malloc'd array it takes over in every case
 * (kept as the edge list or freed), so generators need no second copy. */
int lb_topo_from_edges_owned(size_t n, size_t (*e)[2], size_t ne, const char *name, lb_topo **out);

/* The distance cache header of a GENERAL graph (lb_topo_dist.c); its
 * rows are allocated on the first query. */
int lb_topo_cache_alloc(struct lb_topo_cache **out);
void lb_topo_cache_free(struct lb_topo_cache *c);

#endif
