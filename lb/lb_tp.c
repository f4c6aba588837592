/* lb_tp.c: the transportation problem: input checks, balancing by a
 * zero-cost fictitious row or column (as seed 003 describes), the
 * north-west corner and Vogel starts, then the network simplex of
 * lb_transport_simplex.c (the MODI method on a spanning-tree basis).
 *
 * A start is a list of m+n-1 basic cells with their amounts, zero
 * ("epsilon") cells included, so that the basis is a spanning tree and
 * potentials are always defined even when a solution is degenerate. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "lb_errno.h"
#include "lb_transport.h"
#include "lb_transport_simplex.h"

#define NONE ((size_t)-1)

typedef struct basis {
  size_t *br, *bc; /* basic cells */
  long *bx;        /* their amounts */
  size_t nb, K;    /* so far, and M+N-1 */
} basis;

static void add_cell(basis *b, size_t i, size_t j, long q)
{
  b->br[b->nb] = i;
  b->bc[b->nb] = j;
  b->bx[b->nb] = q;
  b->nb++;
}

static void init_nwc(const lb_tp_prob *p, basis *b, long *rs, long *cd)
{
  size_t i = 0, j = 0;
  while (i < p->M && j < p->N) {
    long q = rs[i] < cd[j] ? rs[i] : cd[j];
    add_cell(b, i, j, q);
    rs[i] -= q;
    cd[j] -= q;
    /* When row and column run out together only the row is closed, so
     * the next cell is a zero (epsilon) cell and the tree stays whole. */
    if (rs[i] == 0 && i + 1 < p->M) i++;
    else j++;
  }
}

/* Vogel: repeatedly take the line whose two cheapest open cells differ
 * most and fill its cheapest cell.  Ties go to the lowest index, rows
 * before columns, so the result is reproducible.  Each line keeps its
 * cheapest open cell (the first if several), a second cheapest and the
 * penalty; closing a line rescans only the lines whose two cells it
 * held, so a start costs O(mn) rather than O(mn (m+n)). */
typedef struct vline {
  double pen;
  size_t a1, a2; /* cheapest (first index), a second cheapest or NONE */
} vline;

/* Rescan line k: cells (k, o) for rows (`row` set) or (o, k), o open. */
static void vscan(const lb_tp_prob *p, int row, size_t k, size_t no, const char *odone, vline *l)
{
  double m1 = INFINITY, m2 = INFINITY;
  size_t a1 = NONE, a2 = NONE;
  for (size_t o = 0; o < no; o++) {
    if (odone[o]) continue;
    double v = row ? lb_tp_cost(p, k, o) : lb_tp_cost(p, o, k);
    if (v < m1) {
      m2 = m1;
      a2 = a1;
      m1 = v;
      a1 = o;
    } else if (v < m2) {
      m2 = v;
      a2 = o;
    }
  }
  l->a1 = a1;
  l->a2 = a2;
  l->pen = a2 == NONE ? m1 : m2 - m1;
}

static int init_vogel(const lb_tp_prob *p, basis *b, long *rs, long *cd)
{
  size_t M = p->M, N = p->N, rleft = M, cleft = N;
  char *rdone = calloc(M + N, 1), *cdone = rdone + M;
  vline *rl = malloc(M * sizeof *rl), *cl = malloc(N * sizeof *cl);
  if (!rdone || !rl || !cl) {
    free(rdone);
    free(rl);
    free(cl);
    return lb_error(LB_ENOMEM, "Vogel start for %zu x %zu", M, N);
  }
  for (size_t i = 0; i < M; i++) vscan(p, 1, i, N, cdone, &rl[i]);
  for (size_t j = 0; j < N; j++) vscan(p, 0, j, M, rdone, &cl[j]);
  while (rleft > 0 && cleft > 0) {
    double bestpen = -1;
    size_t bi = 0, bj = 0;
    for (size_t i = 0; i < M; i++)
      if (!rdone[i] && rl[i].pen > bestpen) {
        bestpen = rl[i].pen;
        bi = i;
        bj = rl[i].a1;
      }
    for (size_t j = 0; j < N; j++)
      if (!cdone[j] && cl[j].pen > bestpen) {
        bestpen = cl[j].pen;
        bi = cl[j].a1;
        bj = j;
      }
    long q = rs[bi] < cd[bj] ? rs[bi] : cd[bj];
    add_cell(b, bi, bj, q);
    rs[bi] -= q;
    cd[bj] -= q;
    /* Close exactly one line per cell (both only at the very end), which
     * gives m+n-1 cells, degenerate ones included. */
    if (rs[bi] == 0 && (rleft > 1 || cleft == 1)) {
      rdone[bi] = 1;
      rleft--;
      if (rleft == 0) cleft--;
      for (size_t j = 0; j < N; j++)
        if (!cdone[j] && (cl[j].a1 == bi || cl[j].a2 == bi)) vscan(p, 0, j, M, rdone, &cl[j]);
    } else {
      cdone[bj] = 1;
      cleft--;
      if (cleft == 0) rleft--;
      for (size_t i = 0; i < M; i++)
        if (!rdone[i] && (rl[i].a1 == bj || rl[i].a2 == bj)) vscan(p, 1, i, N, cdone, &rl[i]);
    }
  }
  free(rdone);
  free(rl);
  free(cl);
  return LB_SUCCESS;
}

static size_t uf_find(size_t *u, size_t a)
{
  while (u[a] != a) {
    u[a] = u[u[a]];
    a = u[a];
  }
  return a;
}

/* Safety net: join any pieces of the basis forest with zero cells (the
 * cheapest joining cell first) until it spans all M+N nodes. */
static int complete_basis(const lb_tp_prob *p, basis *b)
{
  size_t M = p->M, N = p->N;
  size_t *uf = malloc((M + N) * sizeof *uf);
  if (!uf) return lb_error(LB_ENOMEM, "transport basis of %zu x %zu", M, N);
  for (size_t a = 0; a < M + N; a++) uf[a] = a;
  for (size_t k = 0; k < b->nb; k++) uf[uf_find(uf, b->br[k])] = uf_find(uf, M + b->bc[k]);
  while (b->nb < b->K) {
    double best = INFINITY;
    size_t bi = 0, bj = 0;
    for (size_t i = 0; i < M; i++)
      for (size_t j = 0; j < N; j++)
        if (uf_find(uf, i) != uf_find(uf, M + j) && lb_tp_cost(p, i, j) < best) {
          best = lb_tp_cost(p, i, j);
          bi = i;
          bj = j;
        }
    uf[uf_find(uf, bi)] = uf_find(uf, M + bj);
    add_cell(b, bi, bj, 0);
  }
  free(uf);
  return LB_SUCCESS;
}

int lb_tp_solve(size_t m, size_t n, const double *c, const long *supply, const long *demand, lb_tp_init init, long *x,
                double *cost, lb_tp_stats *st)
{
  return lb_tp_solve_bland(m, n, c, supply, demand, init, (size_t)-1, x, cost, st);
}

int lb_tp_solve_bland(size_t m, size_t n, const double *c, const long *supply, const long *demand, lb_tp_init init,
                      size_t bland_after, long *x, double *cost, lb_tp_stats *st)
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

  lb_tp_prob p = {.m = m, .n = n, .M = m + (D > S), .N = n + (S > D), .c = c};
  size_t M = p.M, N = p.N;
  p.bland_after = bland_after == (size_t)-1 ? M + N + 1 : bland_after;
  basis b = {.K = M + N - 1};
  long *rs = malloc((M + N) * sizeof *rs), *cd = rs + M;
  b.br = malloc(2 * b.K * sizeof *b.br);
  b.bc = b.br + b.K;
  b.bx = malloc(b.K * sizeof *b.bx);
  int rc = LB_SUCCESS;
  if (!rs || !b.br || !b.bx) {
    rc = lb_error(LB_ENOMEM, "transport problem %zu x %zu", M, N);
    goto done;
  }
  memcpy(rs, supply, m * sizeof *rs);
  memcpy(cd, demand, n * sizeof *cd);
  if (D > S) rs[m] = D - S; /* fictitious supplier, zero costs */
  if (S > D) cd[n] = S - D; /* fictitious consumer, zero costs */
  if (init == LB_TP_NWC) init_nwc(&p, &b, rs, cd);
  else if ((rc = init_vogel(&p, &b, rs, cd)) != LB_SUCCESS) goto done;
  if ((rc = complete_basis(&p, &b)) != LB_SUCCESS) goto done;
  if (st)
    for (size_t k = 0; k < b.nb; k++) st->init_cost += lb_tp_cost(&p, b.br[k], b.bc[k]) * (double)b.bx[k];
  if ((rc = lb_tp_simplex(&p, b.br, b.bc, b.bx, x, st)) != LB_SUCCESS) goto done;
  if (cost) {
    double z = 0;
    for (size_t a = 0; a < m * n; a++) z += c[a] * (double)x[a];
    *cost = z;
  }
done:
  free(rs);
  free(b.br);
  free(b.bx);
  return rc;
}
