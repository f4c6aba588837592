/* lb_topo.c: graph construction, queries and matrices. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include "lb_topo.h"
#include "lb_topo_impl.h"
#include "lb_errno.h"

static int cmp_edge(const void *a, const void *b)
{
  const size_t *x = a, *y = b;
  if (x[0] != y[0]) return x[0] < y[0] ? -1 : 1;
  if (x[1] != y[1]) return x[1] < y[1] ? -1 : 1;
  return 0;
}

void lb_topo_free(lb_topo *t)
{
  if (!t) return;
  free(t->off);
  free(t->nbr);
  free(t->edge);
  lb_topo_cache_free(t->cache);
  free(t);
}

/* Stable counting sort of e[0..ne) by e[k][key] into dst; cnt has n+1
 * entries.  Two passes (second end, then first) sort lexicographically
 * in O(n + ne); a comparison sort dominated construction at 10^6 nodes. */
static void count_pass(size_t n, size_t (*e)[2], size_t (*dst)[2], size_t ne, int key, size_t *cnt)
{
  memset(cnt, 0, (n + 1) * sizeof *cnt);
  for (size_t k = 0; k < ne; k++) cnt[e[k][key] + 1]++;
  for (size_t i = 0; i < n; i++) cnt[i + 1] += cnt[i];
  for (size_t k = 0; k < ne; k++) {
    size_t *d = dst[cnt[e[k][key]]++];
    d[0] = e[k][0];
    d[1] = e[k][1];
  }
}

static int sort_edges(size_t n, size_t (*e)[2], size_t ne)
{
  if (ne < 2) return LB_SUCCESS;
  size_t(*tmp)[2] = malloc(ne * sizeof *tmp);
  size_t *cnt = malloc((n + 1) * sizeof *cnt);
  if (!tmp || !cnt) {
    free(tmp);
    free(cnt);
    return LB_ENOMEM;
  }
  count_pass(n, e, tmp, ne, 1, cnt);
  count_pass(n, tmp, e, ne, 0, cnt);
  free(tmp);
  free(cnt);
  return LB_SUCCESS;
}

int lb_topo_from_edges_owned(size_t n, size_t (*ed)[2], size_t ne, const char *name, lb_topo **out)
{
  if (n == 0) {
    free(ed);
    return lb_error(LB_EINVAL, "a graph needs at least one node");
  }
  for (size_t k = 0; k < ne; k++) {
    size_t i = ed[k][0], j = ed[k][1];
    if (i >= n || j >= n) {
      free(ed);
      return lb_error(LB_ETOPO, "edge %zu-%zu names a node outside 0..%zu", i, j, n - 1);
    }
    if (i == j) {
      free(ed);
      return lb_error(LB_ETOPO, "self-loop on node %zu", i);
    }
    ed[k][0] = i < j ? i : j;
    ed[k][1] = i < j ? j : i;
  }
  lb_topo *t = calloc(1, sizeof *t);
  if (!ed) ed = malloc(sizeof *ed); /* keep edge non-NULL for bsearch */
  if (!t || !ed || lb_topo_cache_alloc(&t->cache) || sort_edges(n, ed, ne)) goto nomem;
  size_t m = 0;
  for (size_t k = 0; k < ne; k++)
    if (m == 0 || cmp_edge(ed[m - 1], ed[k]) != 0) {
      ed[m][0] = ed[k][0];
      ed[m][1] = ed[k][1];
      m++;
    }
  if (m < ne && m > 0) {
    void *p = realloc(ed, m * sizeof *ed); /* give back what merging freed */
    if (p) ed = p;
  }
  t->n = n;
  t->m = m;
  t->edge = ed;
  ed = NULL;
  t->off = calloc(n + 1, sizeof *t->off);
  t->nbr = malloc((m ? 2 * m : 1) * sizeof *t->nbr);
  if (!t->off || !t->nbr) goto nomem;
  for (size_t k = 0; k < m; k++) {
    t->off[t->edge[k][0] + 1]++;
    t->off[t->edge[k][1] + 1]++;
  }
  for (size_t i = 0; i < n; i++) t->off[i + 1] += t->off[i];
  size_t *fill = calloc(n, sizeof *fill);
  if (!fill) goto nomem;
  /* Edges are sorted by (i,j), so appending keeps each list sorted. */
  for (size_t k = 0; k < m; k++) {
    size_t i = t->edge[k][0], j = t->edge[k][1];
    t->nbr[t->off[j] + fill[j]++] = i;
  }
  for (size_t k = 0; k < m; k++) {
    size_t i = t->edge[k][0], j = t->edge[k][1];
    t->nbr[t->off[i] + fill[i]++] = j;
  }
  free(fill);
  snprintf(t->name, sizeof t->name, "%s", name ? name : "graph");
  *out = t;
  return LB_SUCCESS;
nomem:
  lb_topo_free(t);
  free(ed);
  return lb_error(LB_ENOMEM, "out of memory building a %zu-node graph", n);
}

int lb_topo_from_edges(size_t n, const size_t (*e)[2], size_t ne, const char *name, lb_topo **out)
{
  if (n == 0) return lb_error(LB_EINVAL, "a graph needs at least one node");
  if (ne > ((size_t)-1) / sizeof *e) return lb_error(LB_ENOMEM, "%zu edges do not fit in memory", ne);
  size_t(*ed)[2] = malloc((ne ? ne : 1) * sizeof *ed);
  if (!ed) return lb_error(LB_ENOMEM, "out of memory building a %zu-node graph", n);
  if (ne) memcpy(ed, e, ne * sizeof *ed);
  return lb_topo_from_edges_owned(n, ed, ne, name, out);
}

size_t lb_topo_max_degree(const lb_topo *t)
{
  size_t d = 0;
  for (size_t i = 0; i < t->n; i++)
    if (lb_topo_degree(t, i) > d) d = lb_topo_degree(t, i);
  return d;
}

int lb_topo_adjacent(const lb_topo *t, size_t i, size_t j) { return lb_topo_edge_index(t, i, j) != (size_t)-1; }

size_t lb_topo_edge_index(const lb_topo *t, size_t i, size_t j)
{
  if (i >= t->n || j >= t->n || i == j) return (size_t)-1;
  size_t key[2] = {i < j ? i : j, i < j ? j : i};
  const size_t(*hit)[2] = bsearch(key, t->edge, t->m, sizeof *t->edge, cmp_edge);
  return hit ? (size_t)(hit - t->edge) : (size_t)-1;
}

size_t lb_topo_bfs(const lb_topo *t, size_t src, size_t *dist)
{
  size_t *queue = malloc(t->n * sizeof *queue);
  size_t head = 0, tail = 0, ecc = 0;
  for (size_t v = 0; v < t->n; v++) dist[v] = (size_t)-1;
  if (!queue || src >= t->n) {
    free(queue);
    return 0;
  }
  dist[src] = 0;
  queue[tail++] = src;
  while (head < tail) {
    size_t u = queue[head++];
    for (size_t k = t->off[u]; k < t->off[u + 1]; k++) {
      size_t v = t->nbr[k];
      if (dist[v] == (size_t)-1) {
        dist[v] = dist[u] + 1;
        if (dist[v] > ecc) ecc = dist[v];
        queue[tail++] = v;
      }
    }
  }
  free(queue);
  return ecc;
}

int lb_topo_is_connected(const lb_topo *t)
{
  size_t *d = malloc(t->n * sizeof *d);
  if (!d) return 0;
  lb_topo_bfs(t, 0, d);
  int ok = 1;
  for (size_t v = 0; v < t->n && ok; v++) ok = d[v] != (size_t)-1;
  free(d);
  return ok;
}
