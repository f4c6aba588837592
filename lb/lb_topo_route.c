/* lb_topo_route.c: the next hop on a shortest path.
 *
 * The rule is lb_topo.h's: of a node's neighbours, the one nearest to
 * the destination, the lowest id on a tie.  A message relayed hop by
 * hop asks this at every hop, and a query of a distance per neighbour
 * costs four divisions on a torus; a grid or a hypercube answers from
 * the coordinates it already has. */
#include <stdint.h>
#include "lb_topo.h"
#include "lb_topo_impl.h"

typedef struct best {
  size_t id, d;
} best;

static void consider(best *b, size_t id, size_t d)
{
  if (d < b->d || (d == b->d && id < b->id)) *b = (best){id, d};
}

/* Along one side of `len` positions, from a towards b, the moves that
 * shorten the way (none when a == b; both ways round on a ring of even
 * length at b's antipode): their positions p give ids base + p * step,
 * and the lowest of those and *id is kept in *id. */
static inline void towards(size_t a, size_t b, size_t len, int wrap, size_t base, size_t step, size_t *id)
{
  if (a == b) return;
  size_t p[2];
  int n = 0;
  if (!wrap || len < 3) /* a line, or a ring of two: one way */
    p[n++] = wrap ? b : b > a ? a + 1 : a - 1;
  else {
    size_t fwd = b > a ? b - a : b + len - a, back = len - fwd;
    if (fwd <= back) p[n++] = a + 1 == len ? 0 : a + 1;
    if (back <= fwd) p[n++] = a == 0 ? len - 1 : a - 1;
  }
  for (int k = 0; k < n; k++)
    if (base + p[k] * step < *id) *id = base + p[k] * step;
}

/* A rows x cols grid, wrapped or not (a ring is one row, wrapped).
 * Every neighbour that shortens the way is at the least distance (one
 * less), and no other is, so the answer is the lowest of those. */
static size_t grid_next(size_t rows, size_t cols, int wrap, size_t i, size_t dst)
{
  size_t r = i / cols, c = i - r * cols, r2 = dst / cols, c2 = dst - r2 * cols, id = (size_t)-1;
  towards(r, r2, rows, wrap, c, cols, &id);
  towards(c, c2, cols, wrap, r * cols, 1, &id);
  return id == (size_t)-1 ? dst : id;
}

static size_t cube_next(unsigned dim, size_t i, size_t dst)
{
  best b = {dst, (size_t)-1};
  for (unsigned k = 0; k < dim; k++) {
    size_t v = i ^ ((size_t)1 << k);
    consider(&b, v, (size_t)__builtin_popcountll((unsigned long long)(v ^ dst)));
  }
  return b.id;
}

/* Any graph: each neighbour's distance. */
static size_t list_next(const lb_topo *t, size_t i, size_t dst)
{
  if (lb_topo_adjacent(t, i, dst)) return dst;
  const size_t *nb = lb_topo_neighbours(t, i);
  best b = {dst, (size_t)-1};
  for (size_t k = 0; k < lb_topo_degree(t, i); k++) {
    size_t d = lb_topo_distance(t, nb[k], dst);
    if (d != LB_TOPO_NO_PATH) consider(&b, nb[k], d);
  }
  return b.id;
}

size_t lb_topo_next_hop(const lb_topo *t, size_t i, size_t dst)
{
  if (i >= t->n || dst >= t->n || i == dst) return dst;
  const lb_topo_shape *sh = &t->shape;
  switch (sh->kind) {
  case LB_TOPO_RING: return grid_next(1, t->n, 1, i, dst);
  case LB_TOPO_TORUS: return grid_next(sh->rows, sh->cols, 1, i, dst);
  case LB_TOPO_MESH: return grid_next(sh->rows, sh->cols, 0, i, dst);
  case LB_TOPO_HYPERCUBE: return cube_next(sh->dim, i, dst);
  case LB_TOPO_COMPLETE: return dst;
  case LB_TOPO_STAR: return i && dst ? 0 : dst;
  default: return list_next(t, i, dst);
  }
}
