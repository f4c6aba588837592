/* lb_paths.c: Floyd-Warshall and BFS all-pairs paths. */
#include <stdlib.h>
#include <math.h>
#include "lb_paths.h"
#include "lb_errno.h"

int lb_paths_alloc(size_t n, lb_paths **out)
{
  if (n == 0 || n > 32768) return lb_error(LB_ERANGE, "all-pairs paths need 1..32768 nodes, got %zu", n);
  lb_paths *p = malloc(sizeof *p);
  if (p) {
    p->n = n;
    p->dist = malloc(n * n * sizeof *p->dist);
    p->next = malloc(n * n * sizeof *p->next);
  }
  if (!p || !p->dist || !p->next) {
    lb_paths_free(p);
    return lb_error(LB_ENOMEM, "out of memory for %zu-node path tables", n);
  }
  *out = p;
  return LB_SUCCESS;
}

void lb_paths_free(lb_paths *p)
{
  if (!p) return;
  free(p->dist);
  free(p->next);
  free(p);
}

static int check(const lb_topo *t, const lb_paths *p)
{
  if (p->n != t->n) return lb_error(LB_EINVAL, "path table is for %zu nodes, graph has %zu", p->n, t->n);
  return LB_SUCCESS;
}

int lb_paths_floyd(const lb_topo *t, const double *weight, lb_paths *p)
{
  int s = check(t, p);
  if (s) return s;
  size_t n = t->n;
  for (size_t i = 0; i < n * n; i++) {
    p->dist[i] = INFINITY;
    p->next[i] = LB_NO_HOP;
  }
  for (size_t i = 0; i < n; i++) {
    p->dist[i * n + i] = 0.0;
    p->next[i * n + i] = i;
  }
  for (size_t k = 0; k < t->m; k++) {
    double w = weight ? weight[k] : 1.0;
    if (!(w >= 0.0) || isinf(w))
      return lb_error(LB_EINVAL, "edge %zu-%zu has length %g; lengths must be finite and >= 0", t->edge[k][0] + 1,
                      t->edge[k][1] + 1, w);
    size_t i = t->edge[k][0], j = t->edge[k][1];
    p->dist[i * n + j] = p->dist[j * n + i] = w;
    p->next[i * n + j] = j;
    p->next[j * n + i] = i;
  }
  for (size_t k = 0; k < n; k++) {
    const double *dk = p->dist + k * n;
    for (size_t i = 0; i < n; i++) {
      double dik = p->dist[i * n + k];
      if (isinf(dik)) continue;
      double *di = p->dist + i * n;
      for (size_t j = 0; j < n; j++)
        if (dik + dk[j] < di[j]) di[j] = dik + dk[j];
    }
  }
  /* Next hops from the final distances: the smallest neighbour u with
   * w(i,u) + d(u,j) = d(i,j).  This makes routes independent of the
   * order Floyd met them in, and equal to lb_paths_bfs for unit weights. */
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < n; j++) {
      if (i == j || isinf(p->dist[i * n + j])) continue;
      double dij = p->dist[i * n + j];
      for (size_t a = t->off[i]; a < t->off[i + 1]; a++) {
        size_t u = t->nbr[a];
        double w = weight ? weight[lb_topo_edge_index(t, i, u)] : 1.0;
        if (w + p->dist[u * n + j] <= dij * (1.0 + 1e-12)) {
          p->next[i * n + j] = u;
          break;
        }
      }
    }
  return LB_SUCCESS;
}

int lb_paths_bfs(const lb_topo *t, lb_paths *p)
{
  int s = check(t, p);
  if (s) return s;
  size_t n = t->n;
  size_t *d = malloc(n * sizeof *d);
  if (!d) return lb_error(LB_ENOMEM, "out of memory");
  for (size_t j = 0; j < n; j++) {
    /* Distances to j; the next hop from i is its smallest neighbour one
     * step closer to j. */
    lb_topo_bfs(t, j, d);
    for (size_t i = 0; i < n; i++) {
      p->dist[i * n + j] = d[i] == (size_t)-1 ? INFINITY : (double)d[i];
      size_t hop = i == j ? i : LB_NO_HOP;
      if (i != j && d[i] != (size_t)-1)
        for (size_t k = t->off[i]; k < t->off[i + 1]; k++)
          if (d[t->nbr[k]] + 1 == d[i]) {
            hop = t->nbr[k];
            break;
          }
      p->next[i * n + j] = hop;
    }
  }
  free(d);
  return LB_SUCCESS;
}

size_t lb_paths_route(const lb_paths *p, size_t i, size_t j, size_t *route, size_t cap)
{
  size_t len = 0;
  if (i >= p->n || j >= p->n || p->next[i * p->n + j] == LB_NO_HOP) return 0;
  for (size_t c = i;; c = p->next[c * p->n + j]) {
    if (len == cap || len > p->n) return 0;
    route[len++] = c;
    if (c == j) return len;
  }
}

double lb_paths_diameter(const lb_paths *p)
{
  double d = 0.0;
  for (size_t i = 0; i < p->n * p->n; i++)
    if (!isinf(p->dist[i]) && p->dist[i] > d) d = p->dist[i];
  return d;
}
