/* lb_hublake.c: optimal diffusion by conjugate gradient, integer
 * rounding, and a send-only-what-you-hold schedule. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "lb_errno.h"
#include "lb_hublake.h"

static void laplace_mul(const lb_topo *t, const double *x, double *y)
{
  for (size_t i = 0; i < t->n; i++) {
    double s = (double)lb_topo_degree(t, i) * x[i];
    const size_t *nb = lb_topo_neighbours(t, i);
    for (size_t e = 0; e < lb_topo_degree(t, i); e++) s -= x[nb[e]];
    y[i] = s;
  }
}

static double dot(const double *a, const double *b, size_t n)
{
  double s = 0;
  for (size_t i = 0; i < n; i++) s += a[i] * b[i];
  return s;
}

int lb_hublake_solve(const lb_topo *t, const double *load, double tol, double *lambda, size_t *iters)
{
  size_t n = t->n;
  if (iters) *iters = 0;
  if (n == 0) return lb_error(LB_EINVAL, "empty graph");
  if (!(tol > 0)) return lb_error(LB_EINVAL, "CG tolerance %g <= 0", tol);
  if (!lb_topo_is_connected(t)) return lb_error(LB_ETOPO, "graph %s is not connected", t->name);
  double *r = malloc(3 * n * sizeof *r);
  if (!r) return lb_error(LB_ENOMEM, "CG vectors for %zu nodes", n);
  double *p = r + n, *q = r + 2 * n, avg = 0;
  for (size_t i = 0; i < n; i++) avg += load[i];
  avg /= (double)n;
  /* b = load - avg, exactly zero-sum up to rounding; removing the mean
   * again keeps rounding from leaving a null-space component. */
  double mean = 0;
  for (size_t i = 0; i < n; i++) {
    r[i] = load[i] - avg;
    mean += r[i];
  }
  mean /= (double)n;
  for (size_t i = 0; i < n; i++) {
    r[i] -= mean;
    p[i] = r[i];
    lambda[i] = 0;
  }
  double rr = dot(r, r, n), stop = tol * tol * rr;
  size_t k = 0, limit = 10 * n + 10;
  int rc = LB_SUCCESS;
  while (rr > stop && rr > 0) {
    if (k >= limit) {
      rc = lb_error(LB_ENOCONV, "CG: residual %g after %zu iterations", sqrt(rr), k);
      break;
    }
    laplace_mul(t, p, q);
    double alpha = rr / dot(p, q, n);
    for (size_t i = 0; i < n; i++) {
      lambda[i] += alpha * p[i];
      r[i] -= alpha * q[i];
    }
    double rr1 = dot(r, r, n);
    for (size_t i = 0; i < n; i++) p[i] = r[i] + (rr1 / rr) * p[i];
    rr = rr1;
    k++;
  }
  if (iters) *iters = k;
  free(r);
  return rc;
}

void lb_hublake_flow(const lb_topo *t, const double *lambda, double *flow)
{
  for (size_t k = 0; k < t->m; k++) flow[k] = lambda[t->edge[k][0]] - lambda[t->edge[k][1]];
}

/* Amount on arc u->v (0 if the flow runs v->u). */
static long arc(const lb_topo *t, const long *flow, size_t u, size_t v, size_t *kout)
{
  size_t k = lb_topo_edge_index(t, u, v);
  *kout = k;
  long f = flow[k];
  return t->edge[k][0] == u ? (f > 0 ? f : 0) : (f < 0 ? -f : 0);
}

static void arc_sub(const lb_topo *t, long *flow, size_t k, size_t u, long a)
{
  flow[k] += t->edge[k][0] == u ? -a : a;
}

/* Remove directed cycles of flow (net outflows unchanged), so that the
 * schedule can always make progress.  Depth-first search; on a back arc
 * cancel the cycle's smallest amount and start again. */
static int cancel_cycles(const lb_topo *t, long *flow)
{
  size_t n = t->n;
  unsigned char *col = malloc(n);
  size_t *par = malloc(n * sizeof *par), *stk = malloc(n * sizeof *stk), *pos = malloc(n * sizeof *pos);
  int rc = LB_SUCCESS;
  if (!col || !par || !stk || !pos) {
    rc = lb_error(LB_ENOMEM, "cycle search");
    goto done;
  }
again:
  memset(col, 0, n);
  for (size_t s = 0; s < n; s++) {
    if (col[s]) continue;
    size_t top = 0;
    stk[top++] = s;
    pos[s] = 0;
    col[s] = 1;
    while (top) {
      size_t u = stk[top - 1];
      if (pos[u] == lb_topo_degree(t, u)) {
        col[u] = 2;
        top--;
        continue;
      }
      size_t v = lb_topo_neighbours(t, u)[pos[u]++], k;
      if (arc(t, flow, u, v, &k) == 0 || col[v] == 2) continue;
      if (col[v] == 0) {
        col[v] = 1;
        par[v] = u;
        pos[v] = 0;
        stk[top++] = v;
        continue;
      }
      /* v is on the stack: cycle v -> ... -> u -> v */
      long a = arc(t, flow, u, v, &k);
      for (size_t w = u; w != v; w = par[w]) {
        size_t kk;
        long b = arc(t, flow, par[w], w, &kk);
        if (b < a) a = b;
      }
      arc_sub(t, flow, k, u, a);
      for (size_t w = u; w != v; w = par[w]) {
        size_t kk;
        arc(t, flow, par[w], w, &kk);
        arc_sub(t, flow, kk, par[w], a);
      }
      goto again;
    }
  }
done:
  free(col);
  free(par);
  free(stk);
  free(pos);
  return rc;
}

int lb_hublake_plan(const lb_topo *t, const long *load, long *flow, long *target, size_t *iters)
{
  size_t n = t->n;
  if (n == 0) return lb_error(LB_EINVAL, "empty graph");
  long sum = 0;
  for (size_t i = 0; i < n; i++) {
    if (load[i] < 0) return lb_error(LB_EINVAL, "load %ld < 0 at processor %zu", load[i], i);
    sum += load[i];
  }
  double *lam = malloc((n + t->m) * sizeof *lam), *f = lam + n;
  long *tg = malloc(n * sizeof *tg), *res = malloc(n * sizeof *res);
  size_t *order = malloc(n * sizeof *order), *par = malloc(n * sizeof *par);
  int rc = LB_SUCCESS;
  if (!lam || !tg || !res || !order || !par) {
    rc = lb_error(LB_ENOMEM, "Hu-Blake plan");
    goto done;
  }
  double *dl = malloc(n * sizeof *dl);
  if (!dl) {
    rc = lb_error(LB_ENOMEM, "Hu-Blake plan");
    goto done;
  }
  for (size_t i = 0; i < n; i++) dl[i] = (double)load[i];
  rc = lb_hublake_solve(t, dl, 1e-12, lam, iters);
  free(dl);
  if (rc != LB_SUCCESS) goto done;
  lb_hublake_flow(t, lam, f);
  /* Integer targets: floor(avg), plus one on the sum % n most loaded. */
  long lo = sum / (long)n, extra = sum % (long)n;
  for (size_t i = 0; i < n; i++) {
    tg[i] = lo;
    order[i] = i;
  }
  for (long e = 0; e < extra; e++) {
    size_t best = n;
    for (size_t i = 0; i < n; i++)
      if (tg[i] == lo && (best == n || load[i] > load[best])) best = i;
    tg[best] = lo + 1;
  }
  for (size_t k = 0; k < t->m; k++) flow[k] = lround(f[k]);
  for (size_t i = 0; i < n; i++) res[i] = load[i] - tg[i];
  for (size_t k = 0; k < t->m; k++) {
    res[t->edge[k][0]] -= flow[k];
    res[t->edge[k][1]] += flow[k];
  }
  /* Residuals (what each node still has to send) go up a BFS tree,
   * leaves first, so totals come out exact. */
  {
    size_t head = 0, tail = 0;
    for (size_t i = 0; i < n; i++) par[i] = n;
    par[0] = 0;
    order[tail++] = 0;
    while (head < tail) {
      size_t u = order[head++];
      const size_t *nb = lb_topo_neighbours(t, u);
      for (size_t e = 0; e < lb_topo_degree(t, u); e++)
        if (par[nb[e]] == n) {
          par[nb[e]] = u;
          order[tail++] = nb[e];
        }
    }
    for (size_t q = n; q-- > 1;) {
      size_t v = order[q], u = par[v], k = lb_topo_edge_index(t, v, u);
      flow[k] += t->edge[k][0] == v ? res[v] : -res[v];
      res[u] += res[v];
      res[v] = 0;
    }
  }
  rc = cancel_cycles(t, flow);
  if (target) memcpy(target, tg, n * sizeof *tg);
done:
  free(lam);
  free(tg);
  free(res);
  free(order);
  free(par);
  return rc;
}

int lb_transfer_schedule(const lb_topo *t, const long *load, const long *flow, lb_transfer **out, size_t *nout,
                         size_t *nrounds)
{
  size_t n = t->n, cap = 16, cnt = 0, round = 0;
  *out = NULL;
  *nout = 0;
  *nrounds = 0;
  long *rem = malloc(t->m * sizeof *rem), *cur = malloc(n * sizeof *cur), *nxt = malloc(n * sizeof *nxt);
  lb_transfer *tr = malloc(cap * sizeof *tr);
  int rc = LB_SUCCESS;
  if (!rem || !cur || !nxt || !tr) {
    rc = lb_error(LB_ENOMEM, "transfer schedule");
    goto fail;
  }
  memcpy(rem, flow, t->m * sizeof *rem);
  memcpy(cur, load, n * sizeof *cur);
  for (;;) {
    int left = 0, moved = 0;
    memcpy(nxt, cur, n * sizeof *nxt);
    for (size_t u = 0; u < n; u++) {
      long avail = cur[u];
      const size_t *nb = lb_topo_neighbours(t, u);
      for (size_t e = 0; e < lb_topo_degree(t, u); e++) {
        size_t k;
        long a = arc(t, rem, u, nb[e], &k);
        if (a == 0) continue;
        left = 1;
        long s = a < avail ? a : avail;
        if (s <= 0) continue;
        if (cnt == cap) {
          lb_transfer *g = realloc(tr, 2 * cap * sizeof *tr);
          if (!g) {
            rc = lb_error(LB_ENOMEM, "transfer schedule");
            goto fail;
          }
          tr = g;
          cap *= 2;
        }
        tr[cnt++] = (lb_transfer){round, u, nb[e], s};
        arc_sub(t, rem, k, u, s);
        avail -= s;
        nxt[u] -= s;
        nxt[nb[e]] += s;
        moved = 1;
      }
    }
    if (!left) break;
    if (!moved) {
      rc = lb_error(LB_ESTATE, "flow cannot be scheduled: cyclic, or a load would go negative");
      goto fail;
    }
    memcpy(cur, nxt, n * sizeof *cur);
    round++;
  }
  free(rem);
  free(cur);
  free(nxt);
  *out = tr;
  *nout = cnt;
  *nrounds = round;
  return LB_SUCCESS;
fail:
  free(rem);
  free(cur);
  free(nxt);
  free(tr);
  return rc;
}
