/* lb_tp.c: the transportation problem by the potentials (MODI) method.
 *
 * The basis is kept as a spanning tree of m+n-1 cells over the m row
 * nodes and n column nodes, zero-valued "epsilon" cells included, so
 * that potentials are always defined even when a solution is
 * degenerate.  Supply and demand are balanced first by a zero-cost
 * fictitious row or column, as seed 003 describes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "lb_errno.h"
#include "lb_transport.h"

typedef struct tp {
  size_t M, N, K;      /* balanced size, K = M+N-1 basic cells */
  const double *C;     /* M*N costs */
  long *X;             /* M*N flows */
  char *basic;         /* M*N flags */
  size_t *br, *bc;     /* basic cells, K of them */
  size_t nb;           /* basic cells so far */
  /* scratch over the M+N tree nodes (rows first, then columns) */
  size_t *off, *adj, *adjcell, *queue, *par, *parcell;
  double *pot;
  char *seen;
} tp;

static void tp_add_basic(tp *s, size_t i, size_t j)
{
  s->basic[i * s->N + j] = 1;
  s->br[s->nb] = i;
  s->bc[s->nb] = j;
  s->nb++;
}

static void init_nwc(tp *s, long *rs, long *cd)
{
  size_t i = 0, j = 0;
  while (i < s->M && j < s->N) {
    long q = rs[i] < cd[j] ? rs[i] : cd[j];
    s->X[i * s->N + j] = q;
    tp_add_basic(s, i, j);
    rs[i] -= q;
    cd[j] -= q;
    /* When row and column run out together only the row is closed, so
     * the next cell is a zero (epsilon) cell and the tree stays whole. */
    if (rs[i] == 0 && i + 1 < s->M)
      i++;
    else
      j++;
  }
}

/* Vogel: repeatedly take the line whose two cheapest open cells differ
 * most and fill its cheapest cell.  Ties go to the lowest index, rows
 * before columns, so the result is reproducible. */
/* Vogel penalty of one row or column (element k at c[k * stride]): the
 * gap between its two cheapest open cells, or the cheapest alone when
 * only one is open; *arg is where the cheapest is. */
static double penalty(const double *c, size_t stride, size_t n, const char *done, size_t *arg)
{
  double m1 = INFINITY, m2 = INFINITY;
  *arg = 0;
  for (size_t k = 0; k < n; k++) {
    if (done[k]) continue;
    double v = c[k * stride];
    if (v < m1) { m2 = m1; m1 = v; *arg = k; }
    else if (v < m2) m2 = v;
  }
  return isinf(m2) ? m1 : m2 - m1;
}

static void init_vogel(tp *s, long *rs, long *cd, char *rdone, char *cdone)
{
  size_t M = s->M, N = s->N, rleft = M, cleft = N;
  while (rleft > 0 && cleft > 0) {
    double bestpen = -1;
    size_t bi = 0, bj = 0;
    for (size_t i = 0; i < M; i++) {
      if (rdone[i]) continue;
      size_t a1;
      double pen = penalty(s->C + i * N, 1, N, cdone, &a1);
      if (pen > bestpen) { bestpen = pen; bi = i; bj = a1; }
    }
    for (size_t j = 0; j < N; j++) {
      if (cdone[j]) continue;
      size_t a1;
      double pen = penalty(s->C + j, N, M, rdone, &a1);
      if (pen > bestpen) { bestpen = pen; bi = a1; bj = j; }
    }
    long q = rs[bi] < cd[bj] ? rs[bi] : cd[bj];
    s->X[bi * N + bj] = q;
    tp_add_basic(s, bi, bj);
    rs[bi] -= q;
    cd[bj] -= q;
    /* Close exactly one line per cell (both only at the very end), which
     * gives m+n-1 cells, degenerate ones included. */
    if (rs[bi] == 0 && (rleft > 1 || cleft == 1)) { rdone[bi] = 1; rleft--; if (rleft == 0) cleft--; }
    else { cdone[bj] = 1; cleft--; if (cleft == 0) rleft--; }
  }
}

static size_t uf_find(size_t *p, size_t a)
{
  while (p[a] != a) { p[a] = p[p[a]]; a = p[a]; }
  return a;
}

/* Safety net: join any pieces of the basis forest with zero cells (the
 * cheapest joining cell first) until it spans all M+N nodes. */
static void complete_basis(tp *s, size_t *uf)
{
  size_t M = s->M, N = s->N;
  for (size_t a = 0; a < M + N; a++) uf[a] = a;
  for (size_t k = 0; k < s->nb; k++)
    uf[uf_find(uf, s->br[k])] = uf_find(uf, M + s->bc[k]);
  while (s->nb < s->K) {
    double best = INFINITY;
    size_t bi = 0, bj = 0;
    for (size_t i = 0; i < M; i++)
      for (size_t j = 0; j < N; j++)
        if (uf_find(uf, i) != uf_find(uf, M + j) && s->C[i * N + j] < best) {
          best = s->C[i * N + j]; bi = i; bj = j;
        }
    uf[uf_find(uf, bi)] = uf_find(uf, M + bj);
    tp_add_basic(s, bi, bj);
  }
}

/* Tree adjacency of the current basis (CSR over nodes). */
static void build_tree(tp *s)
{
  size_t V = s->M + s->N;
  memset(s->off, 0, (V + 1) * sizeof *s->off);
  for (size_t k = 0; k < s->K; k++) {
    s->off[s->br[k] + 1]++;
    s->off[s->M + s->bc[k] + 1]++;
  }
  for (size_t a = 0; a < V; a++) s->off[a + 1] += s->off[a];
  size_t *fill = s->queue; /* reused as a cursor array */
  memcpy(fill, s->off, V * sizeof *fill);
  for (size_t k = 0; k < s->K; k++) {
    size_t r = s->br[k], c = s->M + s->bc[k];
    s->adj[fill[r]] = c; s->adjcell[fill[r]++] = k;
    s->adj[fill[c]] = r; s->adjcell[fill[c]++] = k;
  }
}

/* Breadth-first over the tree from `root`, recording parents; with
 * `potentials` also solves u_i + v_j = c_ij on every basic cell. */
static int tree_walk(tp *s, size_t root, int potentials)
{
  size_t V = s->M + s->N, head = 0, tail = 0;
  memset(s->seen, 0, V);
  s->seen[root] = 1;
  s->par[root] = root;
  s->pot[root] = 0;
  s->queue[tail++] = root;
  while (head < tail) {
    size_t a = s->queue[head++];
    for (size_t e = s->off[a]; e < s->off[a + 1]; e++) {
      size_t b = s->adj[e];
      if (s->seen[b]) continue;
      s->seen[b] = 1;
      s->par[b] = a;
      s->parcell[b] = s->adjcell[e];
      if (potentials) {
        size_t k = s->adjcell[e];
        s->pot[b] = s->C[s->br[k] * s->N + s->bc[k]] - s->pot[a];
      }
      s->queue[tail++] = b;
    }
  }
  return tail == V ? LB_SUCCESS
                   : lb_error(LB_ESTATE, "transport basis is not a spanning tree");
}

static int modi(tp *s, lb_tp_stats *st)
{
  size_t M = s->M, N = s->N;
  double cmax = 0;
  for (size_t a = 0; a < M * N; a++)
    if (fabs(s->C[a]) > cmax) cmax = fabs(s->C[a]);
  const double tol = 1e-9 * (1.0 + cmax);
  size_t limit = 1000 + 50 * M * N, degen_run = 0;
  size_t *cyc = malloc((M + N) * sizeof *cyc);
  if (!cyc) return lb_error(LB_ENOMEM, "transport cycle buffer");
  int rc = LB_SUCCESS;
  for (size_t it = 0;; it++) {
    if (it >= limit) { rc = lb_error(LB_ENOCONV, "MODI did not finish in %zu pivots", limit); break; }
    build_tree(s);
    if ((rc = tree_walk(s, 0, 1)) != LB_SUCCESS) break;
    const double *u = s->pot, *v = s->pot + M;
    /* Dantzig's rule (most negative reduced cost); after a long run of
     * degenerate pivots, Bland's rule (first negative) to rule out
     * cycling. */
    int bland = degen_run > M + N;
    double best = -tol;
    size_t ei = M, ej = 0;
    for (size_t i = 0; i < M && !(bland && ei < M); i++)
      for (size_t j = 0; j < N; j++) {
        if (s->basic[i * N + j]) continue;
        double d = s->C[i * N + j] - u[i] - v[j];
        if (d < best) { best = d; ei = i; ej = j; if (bland) break; }
      }
    if (ei == M) break; /* optimal */
    /* The theta-loop: the tree path from column ej back to row ei. */
    if ((rc = tree_walk(s, ei, 0)) != LB_SUCCESS) break;
    size_t len = 0;
    for (size_t a = M + ej; a != ei; a = s->par[a]) cyc[len++] = s->parcell[a];
    long theta = -1;
    size_t leave = 0;
    for (size_t q = 0; q < len; q += 2) { /* cells taking -theta */
      size_t k = cyc[q];
      long xv = s->X[s->br[k] * N + s->bc[k]];
      if (theta < 0 || xv < theta) { theta = xv; leave = q; }
    }
    for (size_t q = 0; q < len; q++) {
      size_t k = cyc[q];
      s->X[s->br[k] * N + s->bc[k]] += (q % 2 == 0) ? -theta : theta;
    }
    s->X[ei * N + ej] += theta;
    size_t kl = cyc[leave];
    s->basic[s->br[kl] * N + s->bc[kl]] = 0;
    s->basic[ei * N + ej] = 1;
    s->br[kl] = ei;
    s->bc[kl] = ej;
    degen_run = theta == 0 ? degen_run + 1 : 0;
    if (st) { st->pivots++; if (theta == 0) st->degenerate++; }
  }
  free(cyc);
  return rc;
}

int lb_tp_solve(size_t m, size_t n, const double *c, const long *supply,
                const long *demand, lb_tp_init init, long *x, double *cost,
                lb_tp_stats *st)
{
  if (st) memset(st, 0, sizeof *st);
  if (cost) *cost = 0;
  if (init != LB_TP_NWC && init != LB_TP_VOGEL)
    return lb_error(LB_EINVAL, "unknown transport initial method %d", (int)init);
  long S = 0, D = 0;
  for (size_t i = 0; i < m; i++) {
    if (supply[i] < 0) return lb_error(LB_EINVAL, "supply %ld < 0 at row %zu", supply[i], i);
    S += supply[i];
  }
  for (size_t j = 0; j < n; j++) {
    if (demand[j] < 0) return lb_error(LB_EINVAL, "demand %ld < 0 at column %zu", demand[j], j);
    D += demand[j];
  }
  for (size_t a = 0; a < m * n; a++)
    if (!isfinite(c[a])) return lb_error(LB_EINVAL, "cost at (%zu,%zu) is not finite", a / n, a % n);
  if (m > 0 && n > 0) memset(x, 0, m * n * sizeof *x);
  if (m == 0 || n == 0) return LB_SUCCESS;

  tp s = {0};
  s.M = m + (D > S);
  s.N = n + (S > D);
  s.K = s.M + s.N - 1;
  size_t M = s.M, N = s.N, V = M + N;
  double *C = calloc(M * N, sizeof *C);
  long *rs = malloc(M * sizeof *rs), *cd = malloc(N * sizeof *cd);
  s.X = calloc(M * N, sizeof *s.X);
  s.basic = calloc(M * N, 1);
  s.br = malloc(s.K * sizeof *s.br);
  s.bc = malloc(s.K * sizeof *s.bc);
  s.off = malloc((V + 1) * sizeof *s.off);
  s.adj = malloc(2 * s.K * sizeof *s.adj);
  s.adjcell = malloc(2 * s.K * sizeof *s.adjcell);
  s.queue = malloc(V * sizeof *s.queue);
  s.par = malloc(V * sizeof *s.par);
  s.parcell = malloc(V * sizeof *s.parcell);
  s.pot = malloc(V * sizeof *s.pot);
  s.seen = calloc(V, 2);
  int rc = LB_SUCCESS;
  if (!C || !rs || !cd || !s.X || !s.basic || !s.br || !s.bc || !s.off || !s.adj
      || !s.adjcell || !s.queue || !s.par || !s.parcell || !s.pot || !s.seen) {
    rc = lb_error(LB_ENOMEM, "transport problem %zu x %zu", M, N);
    goto done;
  }
  for (size_t i = 0; i < m; i++) {
    memcpy(C + i * N, c + i * n, n * sizeof *C);
    rs[i] = supply[i];
  }
  for (size_t j = 0; j < n; j++) cd[j] = demand[j];
  if (D > S) rs[m] = D - S;  /* fictitious supplier, zero costs */
  if (S > D) cd[n] = S - D;  /* fictitious consumer, zero costs */
  s.C = C;
  if (init == LB_TP_NWC) {
    init_nwc(&s, rs, cd);
  } else {
    /* seen is V*2 bytes: the first V serve as row/column closed flags */
    init_vogel(&s, rs, cd, s.seen, s.seen + M);
    memset(s.seen, 0, V);
  }
  complete_basis(&s, s.queue);
  if (st) {
    for (size_t i = 0; i < m; i++)
      for (size_t j = 0; j < n; j++) st->init_cost += c[i * n + j] * (double)s.X[i * N + j];
  }
  if ((rc = modi(&s, st)) != LB_SUCCESS) goto done;
  double z = 0;
  for (size_t i = 0; i < m; i++)
    for (size_t j = 0; j < n; j++) {
      x[i * n + j] = s.X[i * N + j];
      z += c[i * n + j] * (double)s.X[i * N + j];
    }
  if (cost) *cost = z;
done:
  free(C); free(rs); free(cd); free(s.X); free(s.basic); free(s.br); free(s.bc);
  free(s.off); free(s.adj); free(s.adjcell); free(s.queue); free(s.par);
  free(s.parcell); free(s.pot); free(s.seen);
  return rc;
}
