/* lb_topo.h: undirected processor graphs.
 *
 * Nodes are 0..n-1 inside the library; the text format (lb_topo_read)
 * numbers them from 1, as the papers do.  Neighbour lists are sorted.
 * Edges are numbered 0..m-1 in lexicographic order of (i, j), i < j; seed
 * 002 orients every edge from the larger index to the smaller, and
 * lb_topo_incidence follows it. */
#ifndef LB_TOPO_H
#define LB_TOPO_H

#include <stddef.h>
#include <stdio.h>
#include <gsl/gsl_matrix.h>

typedef struct lb_topo {
  size_t n;           /* nodes */
  size_t m;           /* undirected edges */
  size_t *off;        /* n+1 offsets into nbr (CSR) */
  size_t *nbr;        /* 2m neighbour ids */
  size_t (*edge)[2];  /* m edges, edge[k][0] < edge[k][1] */
  char name[64];      /* where it came from, e.g. "torus:32x32" */
} lb_topo;

/* Build from an edge list.  Duplicate edges are merged; self-loops and
 * ids >= n are errors.  Connectivity is not required here. */
int lb_topo_from_edges(size_t n, const size_t (*e)[2], size_t ne,
                       const char *name, lb_topo **out);
void lb_topo_free(lb_topo *t);

/* Generators.  Each returns LB_SUCCESS and a new graph in *out. */
int lb_topo_ring(size_t n, lb_topo **out);
int lb_topo_mesh(size_t rows, size_t cols, lb_topo **out);
int lb_topo_torus(size_t rows, size_t cols, lb_topo **out);
int lb_topo_hypercube(unsigned dim, lb_topo **out);
int lb_topo_complete(size_t n, lb_topo **out);
int lb_topo_star(size_t n, lb_topo **out);   /* node 0 is the hub */
struct lb_rng;
/* A random spanning tree (each node joins a uniformly chosen earlier
 * node of a random order) plus `extra` distinct random edges: always
 * connected, fixed by the generator's seed. */
int lb_topo_random(size_t n, size_t extra, struct lb_rng *r, lb_topo **out);

/* Parse a spec: ring:N, mesh:RxC, torus:RxC, hypercube:D, complete:N,
 * star:N, random:N[:EXTRA[:SEED]], or file:PATH (also any spec that
 * contains '/' or ends in ".graph").  The result must be connected. */
int lb_topo_from_spec(const char *spec, lb_topo **out);

static inline size_t lb_topo_degree(const lb_topo *t, size_t i)
{ return t->off[i + 1] - t->off[i]; }
static inline const size_t *lb_topo_neighbours(const lb_topo *t, size_t i)
{ return t->nbr + t->off[i]; }
size_t lb_topo_max_degree(const lb_topo *t);
int lb_topo_adjacent(const lb_topo *t, size_t i, size_t j);
/* Index of edge {i,j} or (size_t)-1. */
size_t lb_topo_edge_index(const lb_topo *t, size_t i, size_t j);

/* Single-source hop distances by BFS; dist[v] = (size_t)-1 if unreachable.
 * Returns the eccentricity of src (largest finite distance). */
size_t lb_topo_bfs(const lb_topo *t, size_t src, size_t *dist);
int lb_topo_is_connected(const lb_topo *t);

/* L = D - Adj, n x n, caller-allocated. */
int lb_topo_laplacian(const lb_topo *t, gsl_matrix *L);
/* Incidence A, n x m: column k of edge (i<j) has +1 at j, -1 at i. */
int lb_topo_incidence(const lb_topo *t, gsl_matrix *A);

/* Text format: see docs/FORMATS.md.  `fname` is used in messages only. */
int lb_topo_read(FILE *f, const char *fname, lb_topo **out);
int lb_topo_read_file(const char *path, lb_topo **out);
int lb_topo_write(FILE *f, const lb_topo *t);

#endif
