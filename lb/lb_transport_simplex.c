/* lb_transport_simplex.c: see lb_transport_simplex.h.
 *
 * Nodes 0..M-1 are the rows, M..M+N-1 the columns; node 0 is the root.
 * The tree arc of node x joins it to parent[x]; it is cell
 * (x, parent[x] - M) for a row, (parent[x], x - M) for a column, and
 * carries fl[x].  thread[] is a cyclic preorder, rev[] its inverse,
 * size[x] and last[x] the number of nodes and the last node (in
 * preorder) of the subtree of x: that subtree is the run of size[x]
 * nodes from x along thread[].
 *
 * Pivoting.  The entering cell is found by block search: rows are
 * scanned from where the previous search stopped until at least
 * `block` cells have been seen and one has a negative reduced cost;
 * the most negative of those enters.  The leaving arc follows the rule
 * of strongly feasible trees (the last blocking arc met when going
 * round the cycle in the direction of the entering arc from the join),
 * which keeps degenerate pivots from cycling once the tree is strongly
 * feasible.  Starting trees need not be, so after more than M+N
 * degenerate pivots in a row Bland's rule (first negative cell, then
 * the lowest cell among the blocking arcs) takes over until flow
 * moves. */
#include <limits.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "lb_errno.h"
#include "lb_transport_simplex.h"

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wpsabi" /* vectors between inlined helpers */
#endif
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define TP_HOT __attribute__((optimize("O3"), target_clones("avx2", "default")))
#elif defined(__GNUC__) && !defined(__clang__)
#define TP_HOT __attribute__((optimize("O3")))
#else
#define TP_HOT
#endif

#define NONE ((size_t)-1)

typedef struct tree {
  const lb_tp_prob *p;
  size_t M, N, V;
  size_t *parent, *thread, *rev, *size, *last, *stem, *seg;
  long *fl;
  double *pot;     /* u (rows) then v (columns) */
  size_t next_row; /* where the block search resumes */
} tree;

static inline size_t cell_of(const tree *t, size_t x)
{
  size_t y = t->parent[x];
  return x < t->M ? x * t->N + (y - t->M) : y * t->N + (x - t->M);
}

static inline double arc_cost(const tree *t, size_t x)
{
  size_t y = t->parent[x];
  return x < t->M ? lb_tp_cost(t->p, x, y - t->M) : lb_tp_cost(t->p, y, x - t->M);
}

/* Potentials from scratch, in preorder (a parent before its children). */
static void potentials(tree *t)
{
  t->pot[0] = 0;
  for (size_t x = t->thread[0]; x != 0; x = t->thread[x]) t->pot[x] = arc_cost(t, x) - t->pot[t->parent[x]];
}

/* The tree of the starting basis: depth-first from the root. */
static int build(tree *t, const size_t *br, const size_t *bc, const long *bx)
{
  size_t V = t->V, K = V - 1;
  size_t *off = calloc(V + 1, sizeof *off), *adj = malloc(2 * K * sizeof *adj), *fill = malloc(V * sizeof *fill),
         *order = malloc(V * sizeof *order);
  int rc = LB_SUCCESS;
  if (!off || !adj || !fill || !order) {
    rc = lb_error(LB_ENOMEM, "transport tree of %zu nodes", V);
    goto out;
  }
  for (size_t k = 0; k < K; k++) {
    off[br[k] + 1]++;
    off[t->M + bc[k] + 1]++;
  }
  for (size_t a = 0; a < V; a++) off[a + 1] += off[a];
  memcpy(fill, off, V * sizeof *fill);
  for (size_t k = 0; k < K; k++) { /* arc k seen from both ends */
    adj[fill[br[k]]++] = k;
    adj[fill[t->M + bc[k]]++] = k;
  }
  for (size_t a = 0; a < V; a++) t->parent[a] = NONE;
  size_t *stack = t->stem, top = 0, n = 0;
  stack[top++] = 0;
  t->parent[0] = 0;
  while (top) {
    size_t a = stack[--top];
    order[n++] = a;
    for (size_t e = off[a + 1]; e-- > off[a];) { /* reversed: children in basis order */
      size_t k = adj[e], b = a < t->M ? t->M + bc[k] : br[k];
      if (t->parent[b] != NONE) continue;
      t->parent[b] = a;
      t->fl[b] = bx[k];
      stack[top++] = b;
    }
  }
  if (n != V) {
    rc = lb_error(LB_ESTATE, "transport basis is not a spanning tree");
    goto out;
  }
  t->parent[0] = NONE;
  for (size_t q = 0; q < V; q++) {
    t->thread[order[q]] = order[(q + 1) % V];
    t->rev[order[(q + 1) % V]] = order[q];
    t->size[order[q]] = 1;
  }
  for (size_t q = V; q-- > 1;) t->size[t->parent[order[q]]] += t->size[order[q]];
  for (size_t q = 0; q < V; q++) fill[order[q]] = q; /* position in preorder */
  for (size_t a = 0; a < V; a++) t->last[a] = order[fill[a] + t->size[a] - 1];
  potentials(t);
out:
  free(off);
  free(adj);
  free(fill);
  free(order);
  return rc;
}

/* min_j (c_ij - v_j) over a row of real cells, and the first j where it
 * is reached (only searched for when the caller wants it). */
typedef double vd __attribute__((vector_size(32)));
typedef long long vm __attribute__((vector_size(32)));

TP_HOT static double row_min(const double *restrict c, const double *restrict v, size_t n)
{
  vd m0 = {INFINITY, INFINITY, INFINITY, INFINITY}, m1 = m0;
  size_t j = 0;
  for (; j + 8 <= n; j += 8) {
    vd a, b;
    memcpy(&a, c + j, sizeof a);
    memcpy(&b, c + j + 4, sizeof b);
    vd va, vb;
    memcpy(&va, v + j, sizeof va);
    memcpy(&vb, v + j + 4, sizeof vb);
    a -= va;
    b -= vb;
    vm ma = a < m0, mb = b < m1;
    m0 = (vd)(((vm)a & ma) | ((vm)m0 & ~ma));
    m1 = (vd)(((vm)b & mb) | ((vm)m1 & ~mb));
  }
  double m = INFINITY;
  for (int l = 0; l < 4; l++) {
    if (m0[l] < m) m = m0[l];
    if (m1[l] < m) m = m1[l];
  }
  for (; j < n; j++) {
    double d = c[j] - v[j];
    if (d < m) m = d;
  }
  return m;
}

static size_t row_argmin(const double *c, const double *v, double m)
{
  size_t j = 0;
  while (c[j] - v[j] != m) j++;
  return j;
}

/* Reduced cost of row i's best cell; *j receives it. */
static double row_best(const tree *t, size_t i, size_t *j)
{
  const lb_tp_prob *p = t->p;
  const double *u = t->pot, *v = t->pot + t->M;
  double best;
  if (i < p->m) {
    const double *c = p->c + i * p->n;
    double m = row_min(c, v, p->n);
    best = m - u[i];
    *j = NONE;
    if (p->N > p->n && -v[p->n] - u[i] < best) {
      best = -v[p->n] - u[i];
      *j = p->n;
    }
    if (*j == NONE) *j = row_argmin(c, v, m);
  } else { /* the fictitious row: c = 0 */
    size_t a = 0;
    for (size_t k = 1; k < p->N; k++)
      if (v[k] > v[a]) a = k;
    best = -v[a] - u[i];
    *j = a;
  }
  return best;
}

/* Block search; returns 0 when no cell has a reduced cost below -tol. */
static int price(tree *t, size_t block, double tol, size_t *ei, size_t *ej, double *dij)
{
  double best = -tol;
  size_t seen = 0, found = 0;
  for (size_t r = 0; r < t->M; r++) {
    size_t i = t->next_row, j;
    t->next_row = i + 1 == t->M ? 0 : i + 1;
    double d = row_best(t, i, &j);
    if (d < best) {
      best = d;
      *ei = i;
      *ej = j;
      found = 1;
    }
    seen += t->N;
    if (found && seen >= block) break;
  }
  *dij = best;
  return (int)found;
}

/* Bland: the first cell, in row-major order, with reduced cost < -tol. */
static int price_bland(const tree *t, double tol, size_t *ei, size_t *ej, double *dij)
{
  const double *u = t->pot, *v = t->pot + t->M;
  for (size_t i = 0; i < t->M; i++)
    for (size_t j = 0; j < t->N; j++) {
      double d = lb_tp_cost(t->p, i, j) - u[i] - v[j];
      if (d < -tol) {
        *ei = i;
        *ej = j;
        *dij = d;
        return 1;
      }
    }
  return 0;
}

/* Hang the subtree of u_out, re-rooted at u_in, under v_in (the new arc
 * u_in - v_in carries theta), keeping thread, sizes and last nodes. */
static void move_subtree(tree *t, size_t u_in, size_t v_in, size_t u_out, long theta)
{
  size_t *parent = t->parent, *thread = t->thread, *rev = t->rev, *size = t->size, *last = t->last;
  size_t *stem = t->stem, *seg = t->seg;
  size_t v_out = parent[u_out], L = last[u_out], P = rev[u_out], tot = size[u_out];
  /* The stem u_in = s_0, ..., s_k = u_out, and the new preorder of the
   * moved nodes as runs of the old one: the subtree of s_0, then for
   * each t >= 1 s_t with its subtree less that of s_(t-1) (the part
   * before it, then the part after it). */
  size_t k = 0, ns = 0;
  stem[0] = u_in;
  seg[ns++] = u_in;
  seg[ns++] = last[u_in];
  while (stem[k] != u_out) {
    size_t c = stem[k], s = parent[c];
    stem[++k] = s;
    seg[ns++] = s;
    seg[ns++] = rev[c];
    if (last[c] != last[s]) {
      seg[ns++] = thread[last[c]];
      seg[ns++] = last[s];
    }
  }
  /* Cut the old run out of the thread, chain the runs, put them after v_in. */
  thread[P] = thread[L];
  rev[thread[L]] = P;
  for (size_t q = 2; q < ns; q += 2) {
    thread[seg[q - 1]] = seg[q];
    rev[seg[q]] = seg[q - 1];
  }
  size_t tail = seg[ns - 1], after = thread[v_in];
  thread[v_in] = u_in;
  rev[u_in] = v_in;
  thread[tail] = after;
  rev[after] = tail;
  /* Stem: parents and flows shift by one; new size of s_t is what is
   * left of the moved part without the old subtree of s_(t-1). */
  for (size_t q = k; q >= 1; q--) {
    size_t s = stem[q], c = stem[q - 1];
    size[s] = tot - size[c];
    parent[s] = c;
    t->fl[s] = t->fl[c];
    last[s] = tail;
  }
  parent[u_in] = v_in;
  t->fl[u_in] = theta;
  size[u_in] = tot;
  last[u_in] = tail;
  /* Outside: last nodes of the ancestors whose run ended where the
   * moved run was, or now is. */
  size_t x;
  for (x = v_out; x != NONE && last[x] == L; x = parent[x]) last[x] = P;
  for (x = v_in; x != NONE && last[x] == v_in; x = parent[x]) last[x] = tail;
}

static void update_sizes(tree *t, size_t v_out, size_t v_in, size_t join, size_t tot)
{
  for (size_t x = v_out; x != join; x = t->parent[x]) t->size[x] -= tot;
  for (size_t x = v_in; x != join; x = t->parent[x]) t->size[x] += tot;
}

int lb_tp_simplex(const lb_tp_prob *p, const size_t *br, const size_t *bc, const long *bx, long *x, lb_tp_stats *st)
{
  size_t M = p->M, N = p->N, V = M + N;
  tree t = {.p = p, .M = M, .N = N, .V = V};
  size_t *ibuf = malloc((10 * V + 2) * sizeof *ibuf);
  t.fl = malloc(V * sizeof *t.fl);
  t.pot = malloc(V * sizeof *t.pot);
  if (!ibuf || !t.fl || !t.pot) {
    free(ibuf);
    free(t.fl);
    free(t.pot);
    return lb_error(LB_ENOMEM, "transport problem %zu x %zu", M, N);
  }
  t.parent = ibuf;
  t.thread = ibuf + V;
  t.rev = ibuf + 2 * V;
  t.size = ibuf + 3 * V;
  t.last = ibuf + 4 * V;
  t.stem = ibuf + 5 * V;
  t.seg = ibuf + 6 * V; /* 2 + 4 per stem node */
  int rc = build(&t, br, bc, bx);
  double cmax = 0;
  for (size_t a = 0; a < p->m * p->n; a++)
    if (fabs(p->c[a]) > cmax) cmax = fabs(p->c[a]);
  const double tol = 1e-9 * (1.0 + cmax);
  size_t block = (size_t)sqrt((double)M * (double)N);
  if (block < 64) block = 64;
  size_t limit = 1000 + 50 * M * N, degen_run = 0, since_refresh = 0;
  for (size_t it = 0; rc == LB_SUCCESS; it++) {
    if (it >= limit) {
      rc = lb_error(LB_ENOCONV, "transport simplex did not finish in %zu pivots", limit);
      break;
    }
    int bland = degen_run >= p->bland_after;
    size_t ei = 0, ej = 0;
    double d;
    if (!(bland ? price_bland(&t, tol, &ei, &ej, &d) : price(&t, block, tol, &ei, &ej, &d))) {
      if (since_refresh == 0) break; /* optimal with exact potentials */
      potentials(&t);                /* drop rounding drift and look again */
      since_refresh = 0;
      continue;
    }
    if (++since_refresh >= V) {
      potentials(&t);
      since_refresh = 0;
    }
    /* The cycle: the entering cell ei -> ej, then the tree path from
     * column ej up to the join and down to row ei.  Going up from ei
     * the arcs of rows lose theta; going up from ej those of columns. */
    size_t a = ei, b = M + ej, ja = a, jb = b;
    while (ja != jb) {
      if (t.size[ja] < t.size[jb]) ja = t.parent[ja];
      else jb = t.parent[jb];
    }
    size_t join = ja, out1 = NONE, out2 = NONE;
    long th1 = LONG_MAX, th2 = LONG_MAX;
    for (size_t u = a; u != join; u = t.parent[u])
      if (u < M && t.fl[u] < th1) {
        th1 = t.fl[u];
        out1 = u;
      }
    for (size_t u = b; u != join; u = t.parent[u])
      if (u >= M && t.fl[u] <= th2) {
        th2 = t.fl[u];
        out2 = u;
      }
    int second = th2 <= th1;
    long theta = second ? th2 : th1;
    size_t u_out = second ? out2 : out1;
    if (bland) { /* the lowest cell among the blocking arcs */
      size_t low = SIZE_MAX;
      for (size_t u = a; u != join; u = t.parent[u])
        if (u < M && t.fl[u] == theta && cell_of(&t, u) < low) {
          low = cell_of(&t, u);
          u_out = u;
          second = 0;
        }
      for (size_t u = b; u != join; u = t.parent[u])
        if (u >= M && t.fl[u] == theta && cell_of(&t, u) < low) {
          low = cell_of(&t, u);
          u_out = u;
          second = 1;
        }
    }
    /* The end of the entering cell on u_out's side moves with it. */
    size_t u_in = second ? b : a, v_in = second ? a : b;
    if (theta > 0) {
      for (size_t u = a; u != join; u = t.parent[u]) t.fl[u] += u < M ? -theta : theta;
      for (size_t u = b; u != join; u = t.parent[u]) t.fl[u] += u >= M ? -theta : theta;
    }
    size_t v_out = t.parent[u_out], tot = t.size[u_out];
    update_sizes(&t, v_out, v_in, join, tot);
    move_subtree(&t, u_in, v_in, u_out, theta);
    /* The moved subtree's potentials: the entering cell's reduced cost
     * becomes 0; rows and columns move in opposite directions. */
    double dr = u_in < M ? d : -d;
    size_t w = u_in;
    for (size_t q = 0; q < tot; q++, w = t.thread[w]) t.pot[w] += w < M ? dr : -dr;
    degen_run = theta == 0 ? degen_run + 1 : 0;
    if (st) {
      st->pivots++;
      if (theta == 0) st->degenerate++;
    }
  }
  if (rc == LB_SUCCESS) {
    memset(x, 0, p->m * p->n * sizeof *x);
    for (size_t u = 1; u < V; u++) {
      size_t cell = cell_of(&t, u), i = cell / N, j = cell % N;
      if (i < p->m && j < p->n) x[i * p->n + j] = t.fl[u];
    }
  }
  free(ibuf);
  free(t.fl);
  free(t.pot);
  return rc;
}
