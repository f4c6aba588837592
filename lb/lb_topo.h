/* lb_topo.h: undirected processor graphs.
 *
 * Nodes are 0..n-1 inside the library; the text format (lb_topo_read)
 * numbers them from 1, as the papers do.  Neighbour lists are sorted.
 * Edges are numbered 0..m-1 in lexicographic order of (i, j), i < j; seed
 * 002 orients every edge from the larger index to the smaller, and
 * lb_topo_incidence (lb_topo_matrix.h) follows it.  No GSL here: a
 * driver includes this without GSL's headers. */
#ifndef LB_TOPO_H
#define LB_TOPO_H

#include <stddef.h>
#include <stdio.h>

/* What made a graph.  The generators record their kind and sizes so
 * that distances come from closed forms; edge lists, files and random
 * graphs are LB_TOPO_GENERAL and answer by BFS. */
typedef enum {
  LB_TOPO_GENERAL = 0,
  LB_TOPO_RING,
  LB_TOPO_MESH,      /* rows x cols, node = row*cols + col */
  LB_TOPO_TORUS,     /* the same, with wrap-around */
  LB_TOPO_HYPERCUBE, /* 2^dim nodes */
  LB_TOPO_COMPLETE,
  LB_TOPO_STAR /* node 0 is the hub */
} lb_topo_kind;

typedef struct lb_topo_shape {
  lb_topo_kind kind;
  size_t rows, cols; /* mesh and torus only */
  unsigned dim;      /* hypercube only */
} lb_topo_shape;

struct lb_topo_cache;

typedef struct lb_topo {
  size_t n;                    /* nodes */
  size_t m;                    /* undirected edges */
  size_t *off;                 /* n+1 offsets into nbr (CSR) */
  size_t *nbr;                 /* 2m neighbour ids */
  size_t (*edge)[2];           /* m edges, edge[k][0] < edge[k][1] */
  char name[64];               /* where it came from, e.g. "torus:32x32" */
  lb_topo_shape shape;         /* set by the generators */
  struct lb_topo_cache *cache; /* BFS rows of GENERAL graphs (lb_topo_dist.c) */
} lb_topo;

/* Build from an edge list in O(n + ne) time and memory.  Duplicate edges are
 * merged; self-loops and ids >= n are errors.  Connectivity is not
 * required here.  The result is LB_TOPO_GENERAL. */
int lb_topo_from_edges(size_t n, const size_t (*e)[2], size_t ne, const char *name, lb_topo **out);
void lb_topo_free(lb_topo *t);

/* Generators.  Each returns LB_SUCCESS and a new graph in *out. */
int lb_topo_ring(size_t n, lb_topo **out);
int lb_topo_mesh(size_t rows, size_t cols, lb_topo **out);
int lb_topo_torus(size_t rows, size_t cols, lb_topo **out);
int lb_topo_hypercube(unsigned dim, lb_topo **out);
int lb_topo_complete(size_t n, lb_topo **out);
int lb_topo_star(size_t n, lb_topo **out); /* node 0 is the hub */
struct lb_rng;
/* A random spanning tree (each node joins a uniformly chosen earlier
 * node of a random order) plus `extra` distinct random edges: always
 * connected, fixed by the generator's seed. */
int lb_topo_random(size_t n, size_t extra, struct lb_rng *r, lb_topo **out);

/* Parse a spec: ring:N, mesh:RxC, torus:RxC, hypercube:D, complete:N,
 * star:N, random:N[:EXTRA[:SEED]], or file:PATH (also any spec that
 * contains '/' or ends in ".graph").  The result must be connected. */
int lb_topo_from_spec(const char *spec, lb_topo **out);

static inline size_t lb_topo_degree(const lb_topo *t, size_t i) { return t->off[i + 1] - t->off[i]; }
static inline const size_t *lb_topo_neighbours(const lb_topo *t, size_t i) { return t->nbr + t->off[i]; }
size_t lb_topo_max_degree(const lb_topo *t);
int lb_topo_adjacent(const lb_topo *t, size_t i, size_t j);
/* Index of edge {i,j} or (size_t)-1. */
size_t lb_topo_edge_index(const lb_topo *t, size_t i, size_t j);

/* Single-source hop distances by BFS; dist[v] = (size_t)-1 if unreachable.
 * Returns the eccentricity of src (largest finite distance). */
size_t lb_topo_bfs(const lb_topo *t, size_t src, size_t *dist);
int lb_topo_is_connected(const lb_topo *t);

/* The graph after the nodes with dead[i] != 0 failed: their edges gone,
 * each dead region's live neighbours joined in a cycle in id order (a
 * ring closes over the gap).  Ids are kept; a dead node has no edges.
 * The result is LB_TOPO_GENERAL. */
int lb_topo_repair(const lb_topo *t, const unsigned char *dead, lb_topo **out);

/* Hop distances without an n x n table.  Regular kinds (ring, mesh,
 * torus, hypercube, complete, star) answer by closed form in O(1);
 * GENERAL graphs run a BFS from one end and
 * keep its row in a cache bounded by lb_topo_set_cache_limit, evicting
 * the least recently used row, so repeated queries from the same
 * sources cost O(1).  The cache is filled through a const lb_topo * and
 * is NOT thread-safe: share a GENERAL graph between threads only if one
 * of them makes all the queries.  Regular kinds touch no state.
 *
 * The _e forms return a status (LB_EINVAL for a node >= n, LB_ENOMEM,
 * LB_ERANGE for a GENERAL graph of 2^32-1 or more nodes) and store the
 * answer; the plain forms return it, or LB_TOPO_NO_PATH on any error
 * (lb_errmsg says which).  A pair in different components is at
 * distance LB_TOPO_NO_PATH; eccentricity and diameter count finite
 * distances only, as lb_topo_bfs does. */
#define LB_TOPO_NO_PATH ((size_t)-1)
int lb_topo_distance_e(const lb_topo *t, size_t i, size_t j, size_t *d);
size_t lb_topo_distance(const lb_topo *t, size_t i, size_t j);
/* The neighbour of i a message for dst goes to next on a shortest path:
 * of i's neighbours the one nearest to dst, the lowest id on a tie; dst
 * itself when it is a neighbour, when there is no way there, or for
 * i == dst or a node out of range.  Grids, rings and hypercubes answer
 * from their coordinates (lb_topo_route.c). */
size_t lb_topo_next_hop(const lb_topo *t, size_t i, size_t dst);
int lb_topo_eccentricity_e(const lb_topo *t, size_t i, size_t *ecc);
size_t lb_topo_eccentricity(const lb_topo *t, size_t i);
/* GENERAL graphs: one BFS per node not yet seen, O(n m) the first time,
 * then remembered. */
int lb_topo_diameter_e(const lb_topo *t, size_t *diam);
size_t lb_topo_diameter(const lb_topo *t);

/* 1 if distances come from a closed form (no BFS, no cache). */
int lb_topo_is_implicit(const lb_topo *t);
/* Bytes of BFS rows (4n each) a GENERAL graph may keep; at least one row
 * is kept whatever the limit.  Default LB_TOPO_CACHE_DEFAULT.  Drops the
 * rows cached so far (eccentricities already found are kept). */
#define LB_TOPO_CACHE_DEFAULT ((size_t)64 << 20)
void lb_topo_set_cache_limit(lb_topo *t, size_t bytes);
/* BFS runs the distance queries have made on this graph so far. */
unsigned long lb_topo_cache_misses(const lb_topo *t);

/* Text format: see docs/FORMATS.md.  `fname` is used in messages only. */
int lb_topo_read(FILE *f, const char *fname, lb_topo **out);
int lb_topo_read_file(const char *path, lb_topo **out);
int lb_topo_write(FILE *f, const lb_topo *t);

#endif
