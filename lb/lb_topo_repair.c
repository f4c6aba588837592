/* lb_topo_repair.c: the graph the survivors use after nodes fail. */
#include <stdlib.h>
#include <string.h>
#include "lb_topo.h"
#include "lb_errno.h"

/* Every edge of a dead node goes; the dead node's live neighbours are
 * joined in a cycle in id order (two of them: one edge), so whatever a
 * path through the dead node connected stays connected: a ring closes
 * over the gap, a mesh or torus patches the hole.  Node ids do not
 * change; a dead node keeps no edge. */
int lb_topo_repair(const lb_topo *t, const unsigned char *dead, lb_topo **out)
{
  *out = NULL;
  size_t n = t->n, ne = 0, cap = t->m + 1;
  for (size_t d = 0; d < n; d++)
    if (dead[d]) cap += lb_topo_degree(t, d);
  size_t(*e)[2] = malloc(cap * sizeof *e);
  size_t *live = malloc((lb_topo_max_degree(t) + 1) * sizeof *live);
  if (!e || !live) {
    free(e);
    free(live);
    return lb_error(LB_ENOMEM, "repaired graph");
  }
  for (size_t k = 0; k < t->m; k++)
    if (!dead[t->edge[k][0]] && !dead[t->edge[k][1]]) {
      e[ne][0] = t->edge[k][0];
      e[ne][1] = t->edge[k][1];
      ne++;
    }
  /* A chain of dead nodes is bridged too: walk through dead neighbours
   * to the live ones beyond (a small BFS over the dead region). */
  unsigned char *seen = calloc(n, 1);
  size_t *stack = malloc(n * sizeof *stack);
  int rc = seen && stack ? LB_SUCCESS : lb_error(LB_ENOMEM, "repaired graph");
  for (size_t d = 0; d < n && !rc; d++) {
    if (!dead[d] || seen[d]) continue;
    size_t sp = 0, nlive = 0, caplive = lb_topo_max_degree(t) + 1;
    stack[sp++] = d;
    seen[d] = 1;
    while (sp) {
      size_t v = stack[--sp];
      const size_t *nb = lb_topo_neighbours(t, v);
      for (size_t k = 0; k < lb_topo_degree(t, v); k++) {
        size_t u = nb[k];
        if (dead[u]) {
          if (!seen[u]) {
            seen[u] = 1;
            stack[sp++] = u;
          }
          continue;
        }
        if (seen[u] == 2) continue; /* already listed for this region */
        seen[u] = 2;
        if (nlive == caplive) {
          size_t *v2 = realloc(live, 2 * caplive * sizeof *live);
          if (!v2) {
            rc = lb_error(LB_ENOMEM, "repaired graph");
            break;
          }
          live = v2;
          caplive *= 2;
        }
        live[nlive++] = u;
      }
    }
    for (size_t k = 0; k < nlive; k++) seen[live[k]] = 0;
    /* id order, then a cycle (a single edge for two, none for one) */
    for (size_t a = 1; a < nlive; a++)
      for (size_t b = a; b > 0 && live[b - 1] > live[b]; b--) {
        size_t x = live[b];
        live[b] = live[b - 1];
        live[b - 1] = x;
      }
    size_t links = nlive < 2 ? 0 : nlive == 2 ? 1 : nlive;
    if (ne + links > cap) {
      size_t(*e2)[2] = realloc(e, (ne + links + cap) * sizeof *e);
      if (!e2) {
        rc = lb_error(LB_ENOMEM, "repaired graph");
        break;
      }
      e = e2;
      cap += ne + links;
    }
    for (size_t k = 0; k < links; k++) {
      e[ne][0] = live[k];
      e[ne][1] = live[(k + 1) % nlive];
      ne++;
    }
  }
  free(seen);
  free(stack);
  free(live);
  if (rc) {
    free(e);
    return rc;
  }
  char name[64];
  snprintf(name, sizeof name, "%.50s/repaired", t->name);
  rc = lb_topo_from_edges(n, (const size_t(*)[2])e, ne, name, out);
  free(e);
  return rc;
}
