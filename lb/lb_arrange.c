/* lb_arrange.c: the allocation-free p evaluator, the greedy method, the
 * paper's random permutation and the summary ratios. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "lb_arrange.h"
#include "lb_arrange_ws.h"
#include "lb_hetero.h"
#include "lb_symtri.h"
#include "lb_rng.h"
#include "lb_errno.h"

int lb_arrange_ws_alloc(const lb_topo *t, lb_arrange_ws **out)
{
  size_t n = t->n;
  if (n < 2) return lb_error(LB_ETOPO, "an arrangement needs at least 2 nodes");
  if (!lb_topo_is_connected(t)) return lb_error(LB_ETOPO, "graph %s is not connected", t->name);
  lb_arrange_ws *ws = calloc(1, sizeof *ws);
  double *buf = malloc((2 * n * n + 7 * n) * sizeof *buf);
  if (!ws || !buf) {
    free(ws);
    free(buf);
    return lb_error(LB_ENOMEM, "out of memory");
  }
  ws->n = n;
  ws->L = buf;
  ws->B = ws->L + n * n;
  ws->d = ws->B + n * n;
  ws->e = ws->d + n;
  ws->e2 = ws->e + n;
  ws->r = ws->e2 + n;
  ws->ns = ws->r + n;
  ws->scratch = ws->ns + n; /* 2n */
  memset(ws->L, 0, n * n * sizeof *ws->L);
  for (size_t i = 0; i < n; i++) {
    ws->L[i * n + i] = (double)lb_topo_degree(t, i);
    const size_t *nb = lb_topo_neighbours(t, i);
    for (size_t k = 0; k < lb_topo_degree(t, i); k++) ws->L[i * n + nb[k]] = -1.0;
  }
  if (n <= LB_ARRANGE_LANES_MAXN) {
    void *vec = NULL;
    size_t vbytes = (n * n + 8 * n) * LB_ARRANGE_LANES * sizeof(double);
    double *sc = malloc((LB_ARRANGE_LANES * n + 2 * n) * sizeof *sc);
    if (posix_memalign(&vec, 64, vbytes) || !sc) {
      free(vec);
      free(sc);
      lb_arrange_ws_free(ws);
      return lb_error(LB_ENOMEM, "out of memory");
    }
    ws->lane_a = vec;
    ws->lane_v = ws->lane_a + n * n * LB_ARRANGE_LANES;
    ws->lane_s = sc;
    ws->lane_fd = sc + LB_ARRANGE_LANES * n;
  }
  *out = ws;
  return LB_SUCCESS;
}

void lb_arrange_ws_free(lb_arrange_ws *ws)
{
  if (!ws) return;
  free(ws->L);
  free(ws->lane_a);
  free(ws->lane_s);
  free(ws);
}

double lb_arrange_ratio(lb_arrange_ws *ws, const double *node_speed)
{
  size_t n = ws->n;
  if (ws->lane_a) {
    /* The same evaluator as the searches, so that one arrangement gets
     * the same p bit for bit whichever way it is evaluated. */
    double p[LB_ARRANGE_LANES];
    for (size_t l = 0; l < LB_ARRANGE_LANES; l++) memcpy(ws->lane_s + l * n, node_speed, n * sizeof *node_speed);
    lb_arrange_ratio_lanes(ws, ws->lane_s, p);
    return p[0];
  }
  double *r = ws->r, *B = ws->B;
  const double *L = ws->L;
  for (size_t i = 0; i < n; i++) r[i] = 1.0 / sqrt(node_speed[i]);
  for (size_t i = 0; i < n; i++) /* S^-1/2 L S^-1/2 */
    for (size_t j = 0; j < n; j++) B[i * n + j] = L[i * n + j] * r[i] * r[j];
  lb_symtri_reduce(B, n, ws->d, ws->e, ws->scratch);
  for (size_t i = 0; i + 1 < n; i++) ws->e2[i] = ws->e[i] * ws->e[i];
  double l2 = lb_symtri_kth(ws->d, ws->e2, n, 1, LB_ARRANGE_RTOL);
  double lP = lb_symtri_kth(ws->d, ws->e2, n, n - 1, LB_ARRANGE_RTOL);
  return lP / l2;
}

double lb_arrange_ratio_of(lb_arrange_ws *ws, const double *speed, const size_t *arr)
{
  for (size_t i = 0; i < ws->n; i++) ws->ns[i] = speed[arr[i]];
  return lb_arrange_ratio(ws, ws->ns);
}

int lb_arrange_check(const size_t *arr, size_t n)
{
  unsigned char *seen = calloc(n, 1);
  if (!seen) return lb_error(LB_ENOMEM, "out of memory");
  int st = LB_SUCCESS;
  for (size_t i = 0; i < n && !st; i++) {
    if (arr[i] >= n)
      st = lb_error(LB_EINVAL, "arrangement entry %zu at node %zu is not in 1..%zu", arr[i] + 1, i + 1, n);
    else if (seen[arr[i]]++) st = lb_error(LB_EINVAL, "speed %zu placed twice (node %zu)", arr[i] + 1, i + 1);
  }
  free(seen);
  return st;
}

int lb_arrange_order_desc(const double *speed, size_t n, size_t *order)
{
  /* Insertion sort: stable (equal speeds keep index order), no shared
   * state for a qsort comparator, and n is at most a few thousand. */
  for (size_t i = 0; i < n; i++) {
    size_t j = i;
    for (; j > 0 && speed[order[j - 1]] < speed[i]; j--) order[j] = order[j - 1];
    order[j] = i;
  }
  return LB_SUCCESS;
}

int lb_arrange_greedy(const lb_topo *t, const double *speed, size_t *arr, double *p, size_t *evals)
{
  size_t n = t->n;
  int st = lb_hetero_check_speeds(speed, n);
  if (st) return st;
  lb_arrange_ws *ws;
  if ((st = lb_arrange_ws_alloc(t, &ws))) return st;
  size_t *order = malloc(n * sizeof *order);
  unsigned char *placed = calloc(n, 1);
  double *ns = malloc(n * sizeof *ns);
  if (!order || !placed || !ns) {
    st = lb_error(LB_ENOMEM, "out of memory");
    goto out;
  }
  double smin = speed[0];
  for (size_t i = 1; i < n; i++)
    if (speed[i] < smin) smin = speed[i];
  lb_arrange_order_desc(speed, n, order);
  for (size_t i = 0; i < n; i++) ns[i] = 1.0;
  size_t ev = 0;
  double best = INFINITY;
  for (size_t r = 0; r < n; r++) {
    double s = speed[order[r]] / smin; /* relative to the slowest */
    size_t k = n;
    best = INFINITY;
    for (size_t j = 0; j < n; j++) {
      if (placed[j]) continue;
      ns[j] = s;
      double q = lb_arrange_ratio(ws, ns);
      ev++;
      ns[j] = 1.0;
      /* A rounding-level difference is a tie: keep the lower node. */
      if (k == n || q < best * (1 - LB_ARRANGE_TIE)) {
        best = q;
        k = j;
      }
    }
    placed[k] = 1;
    ns[k] = s;
    arr[k] = order[r];
  }
  *p = best;
  if (evals) *evals = ev;
out:
  free(order);
  free(placed);
  free(ns);
  lb_arrange_ws_free(ws);
  return st;
}

void lb_arrange_random(lb_rng *r, const size_t *order, size_t n, size_t *arr)
{
  /* arr[k..n-1] is the list not yet placed; removing the chosen item
   * and putting it at k keeps the rest in their order, as the paper's
   * "the following ones move forward". */
  memcpy(arr, order, n * sizeof *arr);
  for (size_t k = 0; k + 1 < n; k++) {
    unsigned long m = gsl_rng_get(r->g);
    size_t pick = k + (size_t)(m % (unsigned long)(n - k));
    size_t v = arr[pick];
    memmove(arr + k + 1, arr + k, (pick - k) * sizeof *arr);
    arr[k] = v;
  }
}

double lb_arrange_pr(const lb_arrange_stats *st, double p1)
{
  /* p1 tied with the minimum (an automorphic image of it) is 0, not a
   * rounding residue. */
  if (fabs(p1 - st->p_min) <= LB_ARRANGE_TIE * p1) return 0.0;
  return (p1 - st->p_min) / (st->p_max - st->p_min);
}

double lb_arrange_pct(const lb_arrange_stats *st)
{
  return (double)st->n_below / ((double)st->n_below + (double)st->n_above + 1.0);
}
