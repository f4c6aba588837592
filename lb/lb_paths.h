/* lb_paths.h: all-pairs shortest paths and next hops.
 *
 * lb_paths_floyd is Floyd-Warshall over optional edge weights (seed 003
 * uses it); lb_paths_bfs gives the same answer for unit weights in
 * O(n m) and serves as its independent check.  Ties are broken towards
 * the smaller next-hop id so routes are reproducible. */
#ifndef LB_PATHS_H
#define LB_PATHS_H

#include <stddef.h>
#include "lb_topo.h"

#define LB_NO_HOP ((size_t)-1)

typedef struct lb_paths {
  size_t n;
  double *dist; /* dist[i*n+j], INFINITY when unreachable */
  size_t *next; /* next[i*n+j]: first hop from i towards j, LB_NO_HOP if none */
} lb_paths;

int lb_paths_alloc(size_t n, lb_paths **out);
void lb_paths_free(lb_paths *p);

/* weight[k] is the length of edge k (t->edge order); NULL means 1. */
int lb_paths_floyd(const lb_topo *t, const double *weight, lb_paths *p);
int lb_paths_bfs(const lb_topo *t, lb_paths *p);

static inline double lb_paths_dist(const lb_paths *p, size_t i, size_t j) { return p->dist[i * p->n + j]; }
static inline size_t lb_paths_next(const lb_paths *p, size_t i, size_t j) { return p->next[i * p->n + j]; }

/* Writes the nodes of the route i..j (both ends) into route[0..cap-1];
 * returns the number of nodes, 0 if unreachable or cap is too small. */
size_t lb_paths_route(const lb_paths *p, size_t i, size_t j, size_t *route, size_t cap);

/* Largest finite distance. */
double lb_paths_diameter(const lb_paths *p);

#endif
