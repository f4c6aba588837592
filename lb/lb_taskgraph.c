/* lb_taskgraph.c: see lb_taskgraph.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "lb_errno.h"
#include "lb_rng.h"
#include "lb_taskgraph.h"

int lb_taskgraph_random(size_t n, size_t P, size_t local, size_t window, double p_far, double spread, lb_rng *r,
                        lb_topo **tasks, size_t *owner)
{
  if (P == 0 || n < P) return lb_error(LB_EINVAL, "need at least one task per processor (n=%zu, P=%zu)", n, P);
  if (window == 0) return lb_error(LB_EINVAL, "task window 0");
  if (!(spread >= 0 && spread < 1)) return lb_error(LB_EINVAL, "size spread %g not in [0,1)", spread);
  size_t cap = n * (local + 1) + 1, ne = 0;
  size_t(*e)[2] = malloc(cap * sizeof *e);
  double *w = malloc(P * sizeof *w);
  if (!e || !w) {
    free(e);
    free(w);
    return lb_error(LB_ENOMEM, "task graph of %zu tasks", n);
  }
  for (size_t i = 0; i < n; i++) {
    for (size_t k = 0; k < local; k++) {
      size_t j = i + 1 + lb_rng_below(r, window);
      if (j < n) {
        e[ne][0] = i;
        e[ne][1] = j;
        ne++;
      }
    }
    if (i + 1 < n) {
      e[ne][0] = i;
      e[ne][1] = i + 1;
      ne++;
    } /* keeps it connected */
    if (lb_rng_uniform(r) < p_far) {
      size_t j = lb_rng_below(r, n);
      if (j != i) {
        e[ne][0] = i < j ? i : j;
        e[ne][1] = i < j ? j : i;
        ne++;
      }
    }
  }
  int rc = lb_topo_from_edges(n, (const size_t(*)[2])e, ne, "taskgraph", tasks);
  free(e);
  if (rc != LB_SUCCESS) {
    free(w);
    return rc;
  }
  double tot = 0;
  for (size_t p = 0; p < P; p++) {
    w[p] = 1 + lb_rng_range(r, -spread, spread);
    tot += w[p];
  }
  /* Block boundaries at rounded cumulative shares, each block >= 1. */
  size_t start = 0;
  double cum = 0;
  for (size_t p = 0; p < P; p++) {
    cum += w[p];
    size_t end = p + 1 == P ? n : (size_t)llround(cum / tot * (double)n);
    if (end <= start) end = start + 1;
    if (end > n - (P - 1 - p)) end = n - (P - 1 - p);
    for (size_t t = start; t < end; t++) owner[t] = p;
    start = end;
  }
  free(w);
  return LB_SUCCESS;
}

int lb_taskgraph_quotient(const lb_topo *tasks, const size_t *owner, size_t P, lb_topo **proc)
{
  char *adj = calloc(P * P, 1);
  size_t(*e)[2] = malloc((P * (P - 1) / 2 + 1) * sizeof *e), ne = 0;
  if (!adj || !e) {
    free(adj);
    free(e);
    return lb_error(LB_ENOMEM, "processor graph");
  }
  for (size_t k = 0; k < tasks->m; k++) {
    size_t a = owner[tasks->edge[k][0]], b = owner[tasks->edge[k][1]];
    if (a >= P || b >= P) {
      free(adj);
      free(e);
      return lb_error(LB_EINVAL, "owner >= P=%zu", P);
    }
    if (a != b) adj[(a < b ? a : b) * P + (a < b ? b : a)] = 1;
  }
  for (size_t a = 0; a < P; a++)
    for (size_t b = a + 1; b < P; b++)
      if (adj[a * P + b]) {
        e[ne][0] = a;
        e[ne][1] = b;
        ne++;
      }
  int rc = lb_topo_from_edges(P, (const size_t(*)[2])e, ne, "quotient", proc);
  free(adj);
  free(e);
  if (rc == LB_SUCCESS && !lb_topo_is_connected(*proc)) {
    lb_topo_free(*proc);
    *proc = NULL;
    return lb_error(LB_ETOPO, "processor graph of the placement is not connected");
  }
  return rc;
}

void lb_taskgraph_loads(const size_t *owner, size_t ntasks, size_t P, long *load)
{
  memset(load, 0, P * sizeof *load);
  for (size_t t = 0; t < ntasks; t++) load[owner[t]]++;
}

/* Lower is better: class first (home, in transit, own), then gain. */
static long rank(const lb_topo *g, const size_t *owner, const size_t *origin, size_t t, size_t u, size_t v)
{
  if (origin[t] == v) return -3000000000L;
  if (origin[t] != u) return -2000000000L;
  long gain = 0;
  const size_t *nb = lb_topo_neighbours(g, t);
  for (size_t e = 0; e < lb_topo_degree(g, t); e++) {
    if (owner[nb[e]] == v) gain++;
    else if (owner[nb[e]] == u) gain--;
  }
  return -gain;
}

int lb_taskgraph_migrate(const lb_topo *tasks, size_t *owner, const size_t *origin, const lb_transfer *tr, size_t ntr)
{
  size_t n = tasks->n;
  long *key = malloc(n * sizeof *key);
  size_t *cand = malloc(n * sizeof *cand), *pos = malloc(n * sizeof *pos);
  size_t *arrived = calloc(n, sizeof *arrived); /* round + 1 of last arrival */
  int rc = LB_SUCCESS;
  if (!key || !cand || !pos || !arrived) {
    rc = lb_error(LB_ENOMEM, "migration of %zu tasks", n);
    goto done;
  }
  for (size_t q = 0; q < ntr; q++) {
    size_t u = tr[q].from, v = tr[q].to, nc = 0;
    /* A task that reached u in this round cannot leave it in the same
     * round: u sends only what it held when the round began. */
    for (size_t t = 0; t < n; t++) {
      pos[t] = n;
      if (owner[t] == u && arrived[t] != tr[q].round + 1) {
        pos[t] = nc;
        cand[nc] = t;
        key[nc++] = rank(tasks, owner, origin, t, u, v);
      }
    }
    if ((long)nc < tr[q].amount) {
      rc = lb_error(LB_ERANGE, "transfer %zu: processor %zu holds %zu tasks, asked for %ld", q, u, nc, tr[q].amount);
      goto done;
    }
    /* Greedy, one task at a time: moving a task changes its
     * neighbours' gains, so those are re-ranked before the next pick. */
    for (long k = 0; k < tr[q].amount; k++) {
      size_t best = nc;
      for (size_t i = 0; i < nc; i++)
        if (cand[i] < n && (best == nc || key[i] < key[best])) best = i;
      size_t t = cand[best];
      owner[t] = v;
      arrived[t] = tr[q].round + 1;
      cand[best] = n; /* taken */
      const size_t *nb = lb_topo_neighbours(tasks, t);
      for (size_t e = 0; e < lb_topo_degree(tasks, t); e++) {
        size_t w = nb[e];
        if (pos[w] < n && cand[pos[w]] == w) key[pos[w]] = rank(tasks, owner, origin, w, u, v);
      }
    }
  }
done:
  free(key);
  free(cand);
  free(pos);
  free(arrived);
  return rc;
}
