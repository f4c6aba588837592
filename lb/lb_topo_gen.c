/* lb_topo_gen.c: the standard topologies and the spec parser. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <errno.h>
#include <stdint.h>
#include "lb_topo.h"
#include "lb_topo_impl.h"
#include "lb_rng.h"
#include "lb_errno.h"

#define LB_TOPO_MAX_NODES        ((size_t)1 << 22)
#define LB_TOPO_MAX_RANDOM_EDGES ((size_t)1 << 25) /* ~1 GiB as a graph */

typedef struct {
  size_t (*e)[2];
  size_t len, cap;
} edges;

static int push(edges *b, size_t i, size_t j)
{
  if (i == j) return LB_SUCCESS; /* wrap-arounds of size 1 */
  if (b->len == b->cap) {
    size_t cap = b->cap ? 2 * b->cap : 16;
    void *p = realloc(b->e, cap * sizeof *b->e);
    if (!p) return lb_error(LB_ENOMEM, "out of memory generating a graph");
    b->e = p;
    b->cap = cap;
  }
  b->e[b->len][0] = i;
  b->e[b->len][1] = j;
  b->len++;
  return LB_SUCCESS;
}

/* Room for exactly `cap` edges up front: no doubling, no slack. */
static int reserve(edges *b, size_t cap)
{
  if (cap > ((size_t)-1) / sizeof *b->e || !(b->e = malloc((cap ? cap : 1) * sizeof *b->e)))
    return lb_error(LB_ENOMEM, "out of memory generating %zu edges", cap);
  b->cap = cap ? cap : 1;
  return LB_SUCCESS;
}

/* The graph takes over the edge buffer (no copy at 10^7 edges) and
 * records its shape, from which distances follow by closed form. */
static int finish(edges *b, size_t n, const char *name, int status, lb_topo_shape shape, lb_topo **out)
{
  if (status != LB_SUCCESS) {
    free(b->e);
    return status;
  }
  status = lb_topo_from_edges_owned(n, b->e, b->len, name, out);
  if (status == LB_SUCCESS) (*out)->shape = shape;
  return status;
}

static int check_n(size_t n, size_t min, const char *what)
{
  if (n < min || n > LB_TOPO_MAX_NODES)
    return lb_error(LB_ERANGE, "%s needs %zu..%zu nodes, got %zu", what, min, LB_TOPO_MAX_NODES, n);
  return LB_SUCCESS;
}

int lb_topo_ring(size_t n, lb_topo **out)
{
  int s = check_n(n, 1, "ring");
  if (s) return s;
  edges b = {0};
  s = reserve(&b, n);
  for (size_t i = 0; i < n && !s; i++) s = push(&b, i, (i + 1) % n);
  char name[64];
  snprintf(name, sizeof name, "ring:%zu", n);
  return finish(&b, n, name, s, (lb_topo_shape){.kind = LB_TOPO_RING}, out);
}

static int grid(size_t r, size_t c, int wrap, lb_topo **out)
{
  const char *kind = wrap ? "torus" : "mesh";
  if (r == 0 || c == 0 || r > LB_TOPO_MAX_NODES / c)
    return lb_error(LB_ERANGE, "%s:%zux%zu: both sides must be >= 1 and the size at most %zu", kind, r, c,
                    LB_TOPO_MAX_NODES);
  edges b = {0};
  int s = reserve(&b, 2 * r * c);
  for (size_t y = 0; y < r && !s; y++)
    for (size_t x = 0; x < c && !s; x++) {
      size_t v = y * c + x;
      if (x + 1 < c) s = push(&b, v, v + 1);
      else if (wrap && c > 2) s = push(&b, v, y * c);
      if (s) break;
      if (y + 1 < r) s = push(&b, v, v + c);
      else if (wrap && r > 2) s = push(&b, v, x);
    }
  char name[64];
  snprintf(name, sizeof name, "%s:%zux%zu", kind, r, c);
  lb_topo_shape sh = {.kind = wrap ? LB_TOPO_TORUS : LB_TOPO_MESH, .rows = r, .cols = c};
  return finish(&b, r * c, name, s, sh, out);
}

int lb_topo_mesh(size_t rows, size_t cols, lb_topo **out) { return grid(rows, cols, 0, out); }
int lb_topo_torus(size_t rows, size_t cols, lb_topo **out) { return grid(rows, cols, 1, out); }

int lb_topo_hypercube(unsigned dim, lb_topo **out)
{
  if (dim > 22) return lb_error(LB_ERANGE, "hypercube dimension %u > 22", dim);
  size_t n = (size_t)1 << dim;
  edges b = {0};
  int s = reserve(&b, (n / 2) * dim);
  for (size_t v = 0; v < n && !s; v++)
    for (unsigned d = 0; d < dim && !s; d++)
      if (!(v & ((size_t)1 << d))) s = push(&b, v, v | ((size_t)1 << d));
  char name[64];
  snprintf(name, sizeof name, "hypercube:%u", dim);
  return finish(&b, n, name, s, (lb_topo_shape){.kind = LB_TOPO_HYPERCUBE, .dim = dim}, out);
}

int lb_topo_complete(size_t n, lb_topo **out)
{
  int s = check_n(n, 1, "complete graph");
  if (!s && n > 4096) s = lb_error(LB_ERANGE, "complete graph limited to 4096 nodes, got %zu", n);
  if (s) return s;
  edges b = {0};
  s = reserve(&b, n * (n - 1) / 2);
  for (size_t i = 0; i < n && !s; i++)
    for (size_t j = i + 1; j < n && !s; j++) s = push(&b, i, j);
  char name[64];
  snprintf(name, sizeof name, "complete:%zu", n);
  return finish(&b, n, name, s, (lb_topo_shape){.kind = LB_TOPO_COMPLETE}, out);
}

int lb_topo_star(size_t n, lb_topo **out)
{
  int s = check_n(n, 1, "star");
  if (s) return s;
  edges b = {0};
  s = reserve(&b, n - 1);
  for (size_t i = 1; i < n && !s; i++) s = push(&b, 0, i);
  char name[64];
  snprintf(name, sizeof name, "star:%zu", n);
  return finish(&b, n, name, s, (lb_topo_shape){.kind = LB_TOPO_STAR}, out);
}

/* Open-addressing set of edges {i < j}, key i*n + j + 1 (0 = empty),
 * at most half full.  Replaces a scan of the edges drawn so far, which
 * made random:300000 take O(n^2). */
typedef struct {
  uint64_t *k;
  size_t mask;
  unsigned shift;
} edge_set;

static int eset_alloc(edge_set *h, size_t want)
{
  size_t cap = 16;
  unsigned bits = 4;
  for (; cap < 2 * want; bits++) cap *= 2;
  h->k = calloc(cap, sizeof *h->k);
  h->mask = cap - 1;
  h->shift = 64 - bits;
  return h->k ? LB_SUCCESS : lb_error(LB_ENOMEM, "out of memory generating %zu edges", want);
}

/* Adds {i,j}; 1 if it was new. */
static int eset_add(edge_set *h, size_t n, size_t i, size_t j)
{
  uint64_t key = i < j ? (uint64_t)i * n + j + 1 : (uint64_t)j * n + i + 1;
  for (size_t p = (size_t)((key * 0x9E3779B97F4A7C15ull) >> h->shift);; p = (p + 1) & h->mask) {
    if (h->k[p] == key) return 0;
    if (!h->k[p]) {
      h->k[p] = key;
      return 1;
    }
  }
}

static int eset_has(const edge_set *h, size_t n, size_t i, size_t j)
{
  uint64_t key = (uint64_t)i * n + j + 1; /* i < j */
  for (size_t p = (size_t)((key * 0x9E3779B97F4A7C15ull) >> h->shift); h->k[p]; p = (p + 1) & h->mask)
    if (h->k[p] == key) return 1;
  return 0;
}

int lb_topo_random(size_t n, size_t extra, lb_rng *r, lb_topo **out)
{
  int s = check_n(n, 1, "random graph");
  if (s) return s;
  /* Sizes first, so that a request too large fails before any work. */
  uint64_t room = (uint64_t)n * (n - 1) / 2 - (n - 1);
  if (extra > room)
    return lb_error(LB_ERANGE,
                    "random:%zu can take at most %llu extra edges beside its "
                    "%zu-edge spanning tree, asked %zu",
                    n, (unsigned long long)room, n - 1, extra);
  if (extra > LB_TOPO_MAX_RANDOM_EDGES - (n - 1))
    return lb_error(LB_ERANGE,
                    "random:%zu:%zu would have %zu edges, more than the %zu "
                    "a random graph may have",
                    n, extra, n - 1 + extra, LB_TOPO_MAX_RANDOM_EDGES);
  /* Drawing pairs until `extra` are new costs room * ln(room / (room -
   * extra)) draws: fine up to half the room, or on small graphs (which
   * keeps every small graph as it was).  Beyond that, draw the pairs to
   * leave out and take all the others. */
  int dense = extra > room / 2 && room > ((uint64_t)1 << 20);
  size_t skip = dense ? (size_t)(room - extra) : 0;
  size_t *order = malloc(n * sizeof *order);
  edges b = {0};
  edge_set h = {0};
  if (!order) return lb_error(LB_ENOMEM, "out of memory generating a graph");
  if ((s = reserve(&b, n - 1 + extra)) || (s = eset_alloc(&h, n - 1 + (dense ? skip : extra)))) {
    free(order);
    free(b.e);
    return s;
  }
  for (size_t i = 0; i < n; i++) order[i] = i;
  lb_rng_shuffle(r, order, n);
  for (size_t k = 1; k < n; k++) {
    size_t i = order[k], j = order[lb_rng_below(r, k)];
    eset_add(&h, n, i, j);
    push(&b, i, j);
  }
  free(order);
  for (size_t added = 0; added < (dense ? skip : extra);) {
    size_t i = lb_rng_below(r, n), j = lb_rng_below(r, n);
    if (i == j || !eset_add(&h, n, i, j)) continue;
    if (!dense) push(&b, i, j);
    added++;
  }
  if (dense)
    for (size_t i = 0; i < n; i++)
      for (size_t j = i + 1; j < n; j++)
        if (!eset_has(&h, n, i, j)) push(&b, i, j);
  free(h.k);
  char name[64];
  snprintf(name, sizeof name, "random:%zu:%zu:%lu", n, extra, r->seed);
  return finish(&b, n, name, LB_SUCCESS, (lb_topo_shape){.kind = LB_TOPO_GENERAL}, out);
}

/* Strict unsigned parse of the whole of [p, end). */
static int num(const char *p, const char *end, size_t *v)
{
  if (p == end || *p < '0' || *p > '9') return 0;
  size_t x = 0;
  for (; p < end; p++) {
    if (*p < '0' || *p > '9') return 0;
    if (x > ((size_t)-1 - 9) / 10) return 0;
    x = 10 * x + (size_t)(*p - '0');
  }
  *v = x;
  return 1;
}

/* Split `s` on `sep` into at most `max` numbers; returns the count or -1. */
static int nums(const char *s, char sep, size_t *v, int max)
{
  int k = 0;
  while (k < max) {
    const char *e = strchr(s, sep);
    if (!e) e = s + strlen(s);
    if (!num(s, e, &v[k])) return -1;
    k++;
    if (!*e) return k;
    s = e + 1;
  }
  return -1;
}

/* 1 if a run of digits in s overflows num(): a range error, not a typo. */
static int too_large(const char *s)
{
  size_t x = 0;
  for (; *s; s++) {
    if (*s < '0' || *s > '9') {
      x = 0;
      continue;
    }
    if (x > ((size_t)-1 - 9) / 10) return 1;
    x = 10 * x + (size_t)(*s - '0');
  }
  return 0;
}

int lb_topo_from_spec(const char *spec, lb_topo **out)
{
  const char *colon = strchr(spec, ':');
  size_t klen = colon ? (size_t)(colon - spec) : strlen(spec);
  const char *arg = colon ? colon + 1 : "";
  size_t v[3];
  int k, s;
  size_t len = strlen(spec);
  if ((klen == 4 && !strncmp(spec, "file", 4)) || strchr(spec, '/') || (len > 6 && !strcmp(spec + len - 6, ".graph")))
    return lb_topo_read_file(klen == 4 && !strncmp(spec, "file", 4) ? arg : spec, out);
  if (too_large(arg)) return lb_error(LB_ERANGE, "topology '%s': a number is too large", spec);

#define KIND(w) (klen == sizeof(w) - 1 && !strncmp(spec, w, klen))
  if (KIND("ring") && nums(arg, ':', v, 1) == 1) s = lb_topo_ring(v[0], out);
  else if (KIND("mesh") && nums(arg, 'x', v, 2) == 2) s = lb_topo_mesh(v[0], v[1], out);
  else if (KIND("torus") && nums(arg, 'x', v, 2) == 2) s = lb_topo_torus(v[0], v[1], out);
  else if (KIND("hypercube") && nums(arg, ':', v, 1) == 1) {
    if (v[0] > 22) return lb_error(LB_ERANGE, "topology '%s': hypercube dimension %zu > 22", spec, v[0]);
    s = lb_topo_hypercube((unsigned)v[0], out);
  } else if (KIND("complete") && nums(arg, ':', v, 1) == 1) s = lb_topo_complete(v[0], out);
  else if (KIND("star") && nums(arg, ':', v, 1) == 1) s = lb_topo_star(v[0], out);
  else if (KIND("random") && (k = nums(arg, ':', v, 3)) >= 1) {
    lb_rng *r;
    if ((s = lb_rng_alloc(k >= 3 ? v[2] : 1, &r))) return s;
    s = lb_topo_random(v[0], k >= 2 ? v[1] : v[0], r, out);
    lb_rng_free(r);
  } else
    return lb_error(LB_EINVAL,
                    "unknown topology '%s' (expected ring:N, mesh:RxC, torus:RxC, "
                    "hypercube:D, complete:N, star:N, random:N[:EXTRA[:SEED]] or file:PATH)",
                    spec);
#undef KIND
  if (s) return lb_error_wrap(s, "topology '%s'", spec);
  return LB_SUCCESS;
}
