/* lb_topo_dist.c: hop distances, eccentricities and diameters without
 * an n x n table.
 *
 * Generated regular graphs answer from their shape by closed form.  Any
 * other graph runs a BFS and keeps the row (4 bytes a node) in a per-graph
 * LRU cache of bounded size; a pair (i, j) is answered from the row of i
 * or, by symmetry, of j.  The cache changes behind a const lb_topo *, so
 * it is not thread-safe (lb_topo.h). */
#include <stdint.h>
#include <stdlib.h>
#include "lb_topo.h"
#include "lb_topo_impl.h"
#include "lb_errno.h"

#define NONE ((size_t)-1)
#define FAR  UINT32_MAX /* unreachable, in a row */

struct lb_topo_cache {
  size_t limit;        /* bytes of rows */
  size_t nslot, nused; /* rows that fit, rows allocated */
  uint32_t **row;      /* nslot rows of n distances */
  size_t *src;         /* source of each row */
  size_t *prev, *next; /* LRU list of the used rows, most recent first */
  size_t head, tail;
  uint32_t *slot_of;    /* n: 1 + row holding source v's BFS, 0 if none */
  uint32_t *queue;      /* n: BFS work */
  uint32_t *ecc;        /* n: 1 + eccentricity, 0 if not found yet */
  size_t diam;          /* 1 + diameter, 0 if not found yet */
  unsigned long misses; /* BFS runs */
};

int lb_topo_cache_alloc(struct lb_topo_cache **out)
{
  struct lb_topo_cache *c = calloc(1, sizeof *c);
  if (!c) return LB_ENOMEM;
  c->limit = LB_TOPO_CACHE_DEFAULT;
  c->head = c->tail = NONE;
  *out = c;
  return LB_SUCCESS;
}

static void drop_rows(struct lb_topo_cache *c)
{
  for (size_t k = 0; k < c->nused; k++) free(c->row[k]);
  free(c->row);
  free(c->src);
  free(c->prev);
  free(c->next);
  free(c->slot_of);
  c->row = NULL;
  c->src = c->prev = c->next = NULL;
  c->slot_of = NULL;
  c->nslot = c->nused = 0;
  c->head = c->tail = NONE;
}

void lb_topo_cache_free(struct lb_topo_cache *c)
{
  if (!c) return;
  drop_rows(c);
  free(c->queue);
  free(c->ecc);
  free(c);
}

void lb_topo_set_cache_limit(lb_topo *t, size_t bytes)
{
  if (!t->cache) return;
  drop_rows(t->cache);
  t->cache->limit = bytes;
}

unsigned long lb_topo_cache_misses(const lb_topo *t) { return t->cache ? t->cache->misses : 0; }

/* First use: the per-node arrays and the slots for as many rows as fit. */
static int setup(const lb_topo *t, struct lb_topo_cache *c)
{
  size_t n = t->n;
  if (n >= FAR) return lb_error(LB_ERANGE, "%s: %zu nodes are too many for BFS distances", t->name, n);
  size_t ns = c->limit / (n * sizeof(uint32_t));
  ns = ns < 1 ? 1 : ns > n ? n : ns;
  if (!c->queue) c->queue = malloc(n * sizeof *c->queue);
  if (!c->ecc) c->ecc = calloc(n, sizeof *c->ecc);
  c->slot_of = calloc(n, sizeof *c->slot_of);
  c->row = calloc(ns, sizeof *c->row);
  c->src = malloc(ns * sizeof *c->src);
  c->prev = malloc(ns * sizeof *c->prev);
  c->next = malloc(ns * sizeof *c->next);
  if (!c->queue || !c->ecc || !c->slot_of || !c->row || !c->src || !c->prev || !c->next) {
    drop_rows(c);
    return lb_error(LB_ENOMEM, "%s: out of memory for BFS distances", t->name);
  }
  c->nslot = ns;
  return LB_SUCCESS;
}

static void unlink_slot(struct lb_topo_cache *c, size_t k)
{
  if (c->prev[k] != NONE) c->next[c->prev[k]] = c->next[k];
  else c->head = c->next[k];
  if (c->next[k] != NONE) c->prev[c->next[k]] = c->prev[k];
  else c->tail = c->prev[k];
}

static void push_front(struct lb_topo_cache *c, size_t k)
{
  c->prev[k] = NONE;
  c->next[k] = c->head;
  if (c->head != NONE) c->prev[c->head] = k;
  c->head = k;
  if (c->tail == NONE) c->tail = k;
}

/* BFS into d; returns the eccentricity (the last node queued is among
 * the farthest). */
static size_t bfs32(const lb_topo *t, size_t src, uint32_t *d, uint32_t *q)
{
  for (size_t v = 0; v < t->n; v++) d[v] = FAR;
  size_t head = 0, tail = 0;
  d[src] = 0;
  q[tail++] = (uint32_t)src;
  while (head < tail) {
    size_t u = q[head++];
    uint32_t du = d[u] + 1;
    for (size_t k = t->off[u]; k < t->off[u + 1]; k++) {
      size_t v = t->nbr[k];
      if (d[v] == FAR) {
        d[v] = du;
        q[tail++] = (uint32_t)v;
      }
    }
  }
  return d[q[tail - 1]];
}

/* The BFS row of source v, from the cache or computed into it. */
static int row_of(const lb_topo *t, size_t v, const uint32_t **out)
{
  struct lb_topo_cache *c = t->cache;
  int s;
  if (!c) return lb_error(LB_EINVAL, "%s: graph not built by lb_topo_from_edges", t->name);
  if (!c->slot_of && (s = setup(t, c))) return s;
  size_t k;
  if (c->slot_of[v]) {
    k = c->slot_of[v] - 1;
    if (c->head != k) {
      unlink_slot(c, k);
      push_front(c, k);
    }
    *out = c->row[k];
    return LB_SUCCESS;
  }
  if (c->nused < c->nslot && (c->row[c->nused] = malloc(t->n * sizeof **c->row))) k = c->nused++;
  else if (c->nused) { /* full, or short of memory: reuse the oldest row */ k = c->tail;
    unlink_slot(c, k);
    c->slot_of[c->src[k]] = 0;
  } else return lb_error(LB_ENOMEM, "%s: out of memory for a BFS row", t->name);
  c->ecc[v] = (uint32_t)bfs32(t, v, c->row[k], c->queue) + 1;
  c->src[k] = v;
  c->slot_of[v] = (uint32_t)k + 1;
  push_front(c, k);
  c->misses++;
  *out = c->row[k];
  return LB_SUCCESS;
}

static size_t absdiff(size_t a, size_t b) { return a > b ? a - b : b - a; }
/* Shorter way round a cycle of `len`. */
static size_t around(size_t d, size_t len) { return d < len - d ? d : len - d; }
static size_t max2(size_t a, size_t b) { return a > b ? a : b; }

int lb_topo_is_implicit(const lb_topo *t) { return t->shape.kind != LB_TOPO_GENERAL; }

static int check_node(const lb_topo *t, size_t i)
{
  if (i < t->n) return LB_SUCCESS;
  return lb_error(LB_EINVAL, "%s: node %zu outside 0..%zu", t->name, i, t->n - 1);
}

int lb_topo_distance_e(const lb_topo *t, size_t i, size_t j, size_t *d)
{
  int s;
  if ((s = check_node(t, i)) || (s = check_node(t, j))) return s;
  const lb_topo_shape *sh = &t->shape;
  size_t c = sh->cols;
  switch (sh->kind) {
  case LB_TOPO_RING: *d = around(absdiff(i, j), t->n); return LB_SUCCESS;
  case LB_TOPO_MESH: *d = absdiff(i / c, j / c) + absdiff(i % c, j % c); return LB_SUCCESS;
  case LB_TOPO_TORUS:
    *d = around(absdiff(i / c, j / c), sh->rows) + around(absdiff(i % c, j % c), c);
    return LB_SUCCESS;
  case LB_TOPO_HYPERCUBE: *d = (size_t)__builtin_popcountll((unsigned long long)(i ^ j)); return LB_SUCCESS;
  case LB_TOPO_COMPLETE: *d = i != j; return LB_SUCCESS;
  case LB_TOPO_STAR: *d = i == j ? 0 : i == 0 || j == 0 ? 1 : 2; return LB_SUCCESS;
  case LB_TOPO_GENERAL: break;
  }
  if (i == j) {
    *d = 0;
    return LB_SUCCESS;
  }
  /* j's row answers as well as i's: use it rather than run a BFS. */
  const struct lb_topo_cache *ca = t->cache;
  size_t src = ca && ca->slot_of && !ca->slot_of[i] && ca->slot_of[j] ? j : i;
  const uint32_t *row;
  if ((s = row_of(t, src, &row))) return s;
  uint32_t x = row[src == i ? j : i];
  *d = x == FAR ? LB_TOPO_NO_PATH : x;
  return LB_SUCCESS;
}

int lb_topo_eccentricity_e(const lb_topo *t, size_t i, size_t *ecc)
{
  int s = check_node(t, i);
  if (s) return s;
  const lb_topo_shape *sh = &t->shape;
  size_t n = t->n, r = sh->rows, c = sh->cols;
  switch (sh->kind) {
  case LB_TOPO_RING: *ecc = n / 2; return LB_SUCCESS;
  case LB_TOPO_MESH: *ecc = max2(i / c, r - 1 - i / c) + max2(i % c, c - 1 - i % c); return LB_SUCCESS;
  case LB_TOPO_TORUS: *ecc = r / 2 + c / 2; return LB_SUCCESS;
  case LB_TOPO_HYPERCUBE: *ecc = sh->dim; return LB_SUCCESS;
  case LB_TOPO_COMPLETE: *ecc = n > 1; return LB_SUCCESS;
  case LB_TOPO_STAR: *ecc = i == 0 ? n > 1 : n > 2 ? 2 : 1; return LB_SUCCESS;
  case LB_TOPO_GENERAL: break;
  }
  const struct lb_topo_cache *ca = t->cache;
  if (!ca || !ca->ecc || !ca->ecc[i]) {
    const uint32_t *row;
    if ((s = row_of(t, i, &row))) return s;
  }
  *ecc = t->cache->ecc[i] - 1;
  return LB_SUCCESS;
}

int lb_topo_diameter_e(const lb_topo *t, size_t *diam)
{
  const lb_topo_shape *sh = &t->shape;
  size_t n = t->n, r = sh->rows, c = sh->cols;
  switch (sh->kind) {
  case LB_TOPO_RING: *diam = n / 2; return LB_SUCCESS;
  case LB_TOPO_MESH: *diam = r - 1 + c - 1; return LB_SUCCESS;
  case LB_TOPO_TORUS: *diam = r / 2 + c / 2; return LB_SUCCESS;
  case LB_TOPO_HYPERCUBE: *diam = sh->dim; return LB_SUCCESS;
  case LB_TOPO_COMPLETE: *diam = n > 1; return LB_SUCCESS;
  case LB_TOPO_STAR: *diam = n > 2 ? 2 : n - 1; return LB_SUCCESS;
  case LB_TOPO_GENERAL: break;
  }
  if (t->cache && t->cache->diam) {
    *diam = t->cache->diam - 1;
    return LB_SUCCESS;
  }
  size_t best = 0;
  for (size_t v = 0; v < n; v++) {
    size_t e;
    int s = lb_topo_eccentricity_e(t, v, &e);
    if (s) return s;
    if (e > best) best = e;
  }
  t->cache->diam = best + 1;
  *diam = best;
  return LB_SUCCESS;
}

size_t lb_topo_distance(const lb_topo *t, size_t i, size_t j)
{
  size_t d;
  return lb_topo_distance_e(t, i, j, &d) ? LB_TOPO_NO_PATH : d;
}

size_t lb_topo_eccentricity(const lb_topo *t, size_t i)
{
  size_t e;
  return lb_topo_eccentricity_e(t, i, &e) ? LB_TOPO_NO_PATH : e;
}

size_t lb_topo_diameter(const lb_topo *t)
{
  size_t d;
  return lb_topo_diameter_e(t, &d) ? LB_TOPO_NO_PATH : d;
}
