/* sim_load.c: the workload.  Each process's origin and work are drawn
 * at the start (skew, random, all on one node, or a trace), and the
 * process is made when it arrives; outside orders and failures are
 * events from the start.  Also the load CSV's samples and the trace
 * reader. */
#include <stdlib.h>
#include <string.h>
#include "sim_impl.h"
#include "lb_load.h"
#include "lb_optimum.h"
#include "lb_errno.h"

int sim_new_proc(sim *S, uint64_t pid, size_t node, lb_proc **out)
{
  /* its context: the work it starts with, then zeros */
  size_t len = sim_ctx_len(S), head = len < sizeof(double) ? len : sizeof(double);
  memcpy(S->ctxbuf, &S->pr[pid].work0, head);
  int rc = lb_proc_alloc_head(pid, node, S->pr[pid].work0, S->ctxbuf, head, len, out);
  /* A trace may declare each process's estimated work (RMTLB-drain's). */
  if (!rc && S->c->load == LB_SIM_LOAD_TRACE) (*out)->est = (float)S->c->trace[pid].est;
  return rc;
}

/* Initial placement: returns the node of process k. */
static size_t place(const lb_sim_config *c, lb_rng *r, size_t k, const size_t *hot, size_t nhot, size_t n)
{
  switch (c->load) {
  case LB_SIM_LOAD_ONE: return 0;
  case LB_SIM_LOAD_RANDOM: return lb_rng_below(r, n);
  default:
    /* 80 % of the processes on the hot nodes (an eighth of the nodes),
     * the rest anywhere. */
    return lb_rng_uniform(r) < 0.8 ? hot[k % nhot] : lb_rng_below(r, n);
  }
}

typedef struct timed {
  double t;
  size_t k;
} timed;

static int by_time(const void *a, const void *b)
{
  const timed *x = a, *y = b;
  if (x->t != y->t) return x->t < y->t ? -1 : 1;
  return x->k < y->k ? -1 : x->k > y->k;
}

/* A trace's arrivals in order of time (equal times by id), unless they
 * are in that order already. */
static int order_trace(sim *S)
{
  const lb_sim_arrival *a = S->c->trace;
  size_t np = S->np, k = 1;
  while (k < np && a[k - 1].t <= a[k].t) k++;
  if (k >= np) return LB_SUCCESS;
  timed *v = malloc(np * sizeof *v);
  if (!v || !(S->arr_order = malloc(np * sizeof *S->arr_order))) {
    free(v);
    return lb_error(LB_ENOMEM, "arrival order");
  }
  for (k = 0; k < np; k++) v[k] = (timed){a[k].t, k};
  qsort(v, np, sizeof *v, by_time);
  for (k = 0; k < np; k++) S->arr_order[k] = v[k].k;
  free(v);
  return LB_SUCCESS;
}

int sim_setup_load(sim *S, lb_sim_result *res)
{
  const lb_sim_config *c = S->c;
  lb_rng *r;
  int rc = lb_rng_alloc_stream(c->seed, 1u << 20, &r);
  if (rc) return rc;
  size_t n = S->n, nhot = n / 8 ? n / 8 : 1;
  size_t *perm = malloc(n * sizeof *perm);
  if (!perm) {
    lb_rng_free(r);
    return lb_error(LB_ENOMEM, "placement");
  }
  for (size_t i = 0; i < n; i++) perm[i] = i;
  lb_rng_shuffle(r, perm, n);
  /* Each process is made when it arrives (sim_new_proc). */
  for (size_t k = 0; k < S->np; k++) {
    double w;
    size_t i;
    if (c->load == LB_SIM_LOAD_TRACE) {
      i = c->trace[k].node;
      w = c->trace[k].work;
    } else {
      i = place(c, r, k, perm, nhot, n);
      w = c->work * lb_rng_range(r, 0.5, 1.5);
    }
    S->pr[k].origin = i;
    S->pr[k].work0 = w;
    res->total_work += w;
  }
  if (c->load == LB_SIM_LOAD_TRACE) rc = order_trace(S);
  S->h.seq = S->np;
  for (size_t k = 0; k < c->norders && !rc; k++)
    rc = sim_queue_push(&S->h, (sim_ev){.t = c->orders[k].t,
                                        .kind = SIM_EV_ORDER,
                                        .node = c->orders[k].node,
                                        .id = c->orders[k].dst,
                                        .work = (double)c->orders[k].count});
  double delay = c->detect > 0 ? c->detect : 2 * c->latency + 1;
  for (size_t k = 0; k < c->ncrashes && !rc; k++) {
    rc = sim_queue_push(&S->h, (sim_ev){.t = c->crashes[k].t, .kind = SIM_EV_CRASH, .node = c->crashes[k].node});
    if (!rc)
      rc = sim_queue_push(&S->h,
                          (sim_ev){.t = c->crashes[k].t + delay, .kind = SIM_EV_DETECT, .node = c->crashes[k].node});
  }
  free(perm);
  lb_rng_free(r);
  return rc;
}

/* The transport optimum for every process at its origin; a problem too
 * large to solve quickly is reported as not computed. */
void sim_optimum(sim *S, lb_sim_result *res)
{
  unsigned long *load = calloc(S->n, sizeof *load);
  lb_optimum o;
  res->hops_optimal = -1;
  if (!S->c->optimum || !load) {
    free(load);
    return;
  }
  for (size_t k = 0; k < S->np; k++) load[S->pr[k].origin]++;
  if (!lb_optimum_hops(S->topo, load, S->c->speeds, &o)) res->hops_optimal = (long)o.hops;
  else lb_error_clear();
  free(load);
}

void sim_sample(sim *S, double t)
{
  size_t tot = 0, mx = 0, mn = (size_t)-1, heavy = 0, light = 0;
  for (size_t i = 0; i < S->n; i++) {
    const lb_node *nd = S->node[i].nd;
    size_t q = lb_node_queue_len(nd);
    tot += q;
    if (q > mx) mx = q;
    if (q < mn) mn = q;
    int s = lb_node_state(nd);
    heavy += s == LB_HEAVY;
    light += s == LB_LIGHT;
  }
  fprintf(S->c->load_csv, "%.17g,%zu,%zu,%zu,%zu,%zu\n", t, tot, mx, mn, heavy, light);
}

int lb_sim_read_trace(const char *path, size_t nnodes, lb_sim_arrival **out, size_t *n)
{
  *out = NULL;
  *n = 0;
  FILE *f = fopen(path, "r");
  if (!f) return lb_error(LB_EIO, "cannot open trace '%s'", path);
  lb_sim_arrival *v = NULL;
  size_t cap = 0, line = 0;
  char buf[512];
  int rc = LB_SUCCESS;
  while (fgets(buf, sizeof buf, f)) {
    line++;
    char *s = buf;
    while (*s == ' ' || *s == '\t') s++;
    if (*s == '#' || *s == '\n' || !*s) continue;
    double t, w, est = 0;
    unsigned long node;
    char extra;
    int got = sscanf(s, "%lf %lu %lf %lf %c", &t, &node, &w, &est, &extra);
    if ((got != 3 && got != 4) || !(t >= 0) || !(w > 0) || node >= nnodes || !(est >= 0 && est < 1e30)) {
      rc = lb_error(LB_EFORMAT,
                    "%s:%zu: expected 'time node work [estimate]' with time >= 0, node < %zu, "
                    "work > 0, estimate >= 0",
                    path, line, nnodes);
      break;
    }
    if (*n == cap) {
      cap = cap ? 2 * cap : 64;
      lb_sim_arrival *nv = realloc(v, cap * sizeof *nv);
      if (!nv) {
        rc = lb_error(LB_ENOMEM, "trace");
        break;
      }
      v = nv;
    }
    v[(*n)++] = (lb_sim_arrival){t, node, w, est};
  }
  fclose(f);
  if (!rc && !*n) rc = lb_error(LB_EFORMAT, "%s: no arrivals", path);
  if (rc) {
    free(v);
    *n = 0;
    return rc;
  }
  *out = v;
  return LB_SUCCESS;
}
