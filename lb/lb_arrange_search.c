/* lb_arrange_search.c: exhaustive and Monte Carlo arrangement search,
 * spread over threads.  Each thread owns a workspace; results are merged
 * so that they do not depend on the number of threads. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <unistd.h>
#include "lb_arrange.h"
#include "lb_arrange_ws.h"
#include "lb_hetero.h"
#include "lb_rng.h"
#include "lb_errno.h"

#define MAXT 64

static unsigned thread_count(unsigned want)
{
  if (want == 0) {
    long c = sysconf(_SC_NPROCESSORS_ONLN);
    want = c > 0 ? (unsigned)c : 1;
  }
  return want > MAXT ? MAXT : want;
}

/* Running summary of one thread's share. */
typedef struct part {
  lb_arrange_stats st;
  size_t amin[LB_ARRANGE_EXHAUSTIVE_MAX], amax[LB_ARRANGE_EXHAUSTIVE_MAX];
} part;

static int lex_less(const size_t *a, const size_t *b, size_t n)
{
  for (size_t i = 0; i < n; i++)
    if (a[i] != b[i]) return a[i] < b[i];
  return 0;
}

static void tally(lb_arrange_stats *st, double p)
{
  double r = st->p_ref;
  if (p < r * (1 - LB_ARRANGE_TIE)) st->n_below++;
  else if (p > r * (1 + LB_ARRANGE_TIE)) st->n_above++;
  else st->n_equal++;
  st->n_total++;
}

static void stats_init(lb_arrange_stats *st, double p_ref)
{
  memset(st, 0, sizeof *st);
  st->p_min = INFINITY;
  st->p_max = -INFINITY;
  st->p_ref = p_ref;
}

/* ---- exhaustive ---- */

typedef struct ex_job {
  const double *speed;
  size_t n;
  lb_arrange_ws *ws[MAXT];
  part parts[MAXT];
  size_t next_task, ntasks; /* task = (first, second) element pair */
} ex_job;

typedef struct ex_arg {
  ex_job *job;
  unsigned id;
} ex_arg;

static void consider(part *pt, double p, const size_t *arr, size_t n)
{
  tally(&pt->st, p);
  if (p < pt->st.p_min || (p == pt->st.p_min && lex_less(arr, pt->amin, n))) {
    pt->st.p_min = p;
    memcpy(pt->amin, arr, n * sizeof *arr);
  }
  if (p > pt->st.p_max || (p == pt->st.p_max && lex_less(arr, pt->amax, n))) {
    pt->st.p_max = p;
    memcpy(pt->amax, arr, n * sizeof *arr);
  }
}

/* Arrangements wait in lanes until LB_ARRANGE_LANES are ready (or the
 * task ends), then are evaluated together and considered in order. */
typedef struct lanes {
  size_t fill, arr[LB_ARRANGE_LANES][LB_ARRANGE_EXHAUSTIVE_MAX];
  double s[LB_ARRANGE_LANES * LB_ARRANGE_EXHAUSTIVE_MAX];
} lanes;

static void lanes_flush(lb_arrange_ws *ws, part *pt, lanes *ln, size_t n)
{
  if (ln->fill == 0) return;
  double p[LB_ARRANGE_LANES];
  for (size_t l = ln->fill; l < LB_ARRANGE_LANES; l++) /* idle lanes: any valid speeds */
    memcpy(ln->s + l * n, ln->s, n * sizeof *ln->s);
  lb_arrange_ratio_lanes(ws, ln->s, p);
  for (size_t l = 0; l < ln->fill; l++) consider(pt, p[l], ln->arr[l], n);
  ln->fill = 0;
}

static void lanes_add(lb_arrange_ws *ws, part *pt, lanes *ln, const size_t *arr, const double *speed, size_t n)
{
  size_t l = ln->fill++;
  for (size_t i = 0; i < n; i++) {
    ln->arr[l][i] = arr[i];
    ln->s[l * n + i] = speed[arr[i]];
  }
  if (ln->fill == LB_ARRANGE_LANES) lanes_flush(ws, pt, ln, n);
}

static void *ex_thread(void *vp)
{
  ex_arg *a = vp;
  ex_job *job = a->job;
  lb_arrange_ws *ws = job->ws[a->id];
  part *pt = &job->parts[a->id];
  size_t n = job->n, arr[LB_ARRANGE_EXHAUSTIVE_MAX], c[LB_ARRANGE_EXHAUSTIVE_MAX];
  const double *speed = job->speed;
  lanes ln = {0};
  for (;;) {
    size_t task = __atomic_fetch_add(&job->next_task, 1, __ATOMIC_RELAXED);
    if (task >= job->ntasks) break;
    /* Fix arr[0], arr[1] from the task; Heap's algorithm permutes the
     * remaining k = n - 2 entries, one swap per arrangement.  A task's
     * arrangements fill the lanes in the same order whatever thread
     * runs it, and each lane's p depends on its own speeds only. */
    size_t f0 = task / (n - 1), f1 = task % (n - 1), m = 2;
    if (f1 >= f0) f1++;
    arr[0] = f0;
    arr[1] = f1;
    for (size_t v = 0; v < n; v++)
      if (v != f0 && v != f1) arr[m++] = v;
    size_t k = n - 2, *q = arr + 2;
    memset(c, 0, sizeof c);
    lanes_add(ws, pt, &ln, arr, speed, n);
    for (size_t i = 0; i < k;) {
      if (c[i] < i) {
        size_t j = (i % 2 == 0) ? 0 : c[i];
        size_t tv = q[j];
        q[j] = q[i];
        q[i] = tv;
        lanes_add(ws, pt, &ln, arr, speed, n);
        c[i]++;
        i = 0;
      } else {
        c[i] = 0;
        i++;
      }
    }
    lanes_flush(ws, pt, &ln, n);
  }
  return NULL;
}

static void merge(part *into, const part *from, size_t n)
{
  lb_arrange_stats *a = &into->st;
  const lb_arrange_stats *b = &from->st;
  if (b->n_total == 0) return;
  if (b->p_min < a->p_min || (b->p_min == a->p_min && lex_less(from->amin, into->amin, n))) {
    a->p_min = b->p_min;
    memcpy(into->amin, from->amin, n * sizeof *into->amin);
  }
  if (b->p_max > a->p_max || (b->p_max == a->p_max && lex_less(from->amax, into->amax, n))) {
    a->p_max = b->p_max;
    memcpy(into->amax, from->amax, n * sizeof *into->amax);
  }
  a->n_below += b->n_below;
  a->n_equal += b->n_equal;
  a->n_above += b->n_above;
  a->n_total += b->n_total;
}

int lb_arrange_exhaustive(const lb_topo *t, const double *speed, double p_ref, unsigned nthreads, size_t *arg_min,
                          size_t *arg_max, lb_arrange_stats *st)
{
  size_t n = t->n;
  if (n > LB_ARRANGE_EXHAUSTIVE_MAX)
    return lb_error(LB_ERANGE, "exhaustive search over %zu! arrangements: P = %zu > %d", n, n,
                    LB_ARRANGE_EXHAUSTIVE_MAX);
  int rc = lb_hetero_check_speeds(speed, n);
  if (rc) return rc;
  unsigned nt = thread_count(nthreads);
  ex_job *job = calloc(1, sizeof *job);
  if (!job) return lb_error(LB_ENOMEM, "out of memory");
  job->speed = speed;
  job->n = n;
  job->ntasks = n * (n - 1);
  if (nt > job->ntasks) nt = (unsigned)job->ntasks;
  for (unsigned i = 0; i < nt && !rc; i++) {
    rc = lb_arrange_ws_alloc(t, &job->ws[i]);
    stats_init(&job->parts[i].st, p_ref);
  }
  pthread_t th[MAXT];
  ex_arg args[MAXT];
  unsigned started = 0;
  for (unsigned i = 0; i < nt && !rc; i++) {
    args[i].job = job;
    args[i].id = i;
    if (i == 0) continue; /* the caller's thread does share 0 */
    if (pthread_create(&th[i], NULL, ex_thread, &args[i])) break;
    started = i;
  }
  if (!rc) {
    ex_thread(&args[0]);
    for (unsigned i = 1; i <= started; i++) pthread_join(th[i], NULL);
    part all;
    stats_init(&all.st, p_ref);
    for (unsigned i = 0; i < nt; i++) merge(&all, &job->parts[i], n);
    *st = all.st;
    if (arg_min) memcpy(arg_min, all.amin, n * sizeof *arg_min);
    if (arg_max) memcpy(arg_max, all.amax, n * sizeof *arg_max);
  }
  for (unsigned i = 0; i < nt; i++) lb_arrange_ws_free(job->ws[i]);
  free(job);
  return rc;
}

/* ---- Monte Carlo ---- */

#define MC_BLOCK 2048

typedef struct mc_job {
  const double *speed;
  size_t n, count;     /* arrangements in this block */
  const size_t *perms; /* count x n */
  double *p;           /* count */
  lb_arrange_ws *ws[MAXT];
  unsigned nt;
} mc_job;

typedef struct mc_arg {
  mc_job *job;
  unsigned id;
} mc_arg;

static void *mc_thread(void *vp)
{
  mc_arg *a = vp;
  mc_job *job = a->job;
  lb_arrange_ws *ws = job->ws[a->id];
  size_t n = job->n;
  if (!ws->lane_a) {
    /* Interleaved shares: neighbouring draws cost about the same. */
    for (size_t i = a->id; i < job->count; i += job->nt)
      job->p[i] = lb_arrange_ratio_of(ws, job->speed, job->perms + i * n);
    return NULL;
  }
  /* The same, by groups of LB_ARRANGE_LANES draws. */
  const size_t W = LB_ARRANGE_LANES;
  double p[LB_ARRANGE_LANES];
  for (size_t i = a->id * W; i < job->count; i += job->nt * W) {
    size_t cnt = job->count - i < W ? job->count - i : W;
    for (size_t l = 0; l < W; l++) {
      const size_t *arr = job->perms + (i + (l < cnt ? l : 0)) * n;
      for (size_t v = 0; v < n; v++) ws->lane_s[l * n + v] = job->speed[arr[v]];
    }
    lb_arrange_ratio_lanes(ws, ws->lane_s, p);
    memcpy(job->p + i, p, cnt * sizeof *p);
  }
  return NULL;
}

static int mc_block(mc_job *job)
{
  pthread_t th[MAXT];
  mc_arg args[MAXT];
  unsigned started = 0;
  for (unsigned i = 0; i < job->nt; i++) {
    args[i].job = job;
    args[i].id = i;
  }
  for (unsigned i = 1; i < job->nt; i++) {
    if (pthread_create(&th[i], NULL, mc_thread, &args[i])) break;
    started = i;
  }
  /* Shares whose thread did not start run here. */
  mc_thread(&args[0]);
  for (unsigned i = started + 1; i < job->nt; i++) mc_thread(&args[i]);
  for (unsigned i = 1; i <= started; i++) pthread_join(th[i], NULL);
  return LB_SUCCESS;
}

int lb_arrange_monte_carlo(const lb_topo *t, const double *speed, size_t count, lb_rng *r, double p_ref,
                           unsigned nthreads, size_t *arg_min, size_t *arg_max, double *p_all, size_t *hist,
                           size_t nbins, lb_arrange_stats *st)
{
  size_t n = t->n;
  int rc = lb_hetero_check_speeds(speed, n);
  if (rc) return rc;
  if (count == 0) return lb_error(LB_EINVAL, "Monte Carlo with 0 arrangements");
  if (hist && nbins == 0) return lb_error(LB_EINVAL, "histogram with 0 bins");
  mc_job job = {.speed = speed, .n = n, .nt = thread_count(nthreads)};
  size_t *order = malloc(n * sizeof *order);
  size_t *perms = malloc(MC_BLOCK * n * sizeof *perms);
  double *p = malloc(MC_BLOCK * sizeof *p);
  if (!order || !perms || !p) rc = lb_error(LB_ENOMEM, "out of memory");
  for (unsigned i = 0; i < job.nt && !rc; i++) rc = lb_arrange_ws_alloc(t, &job.ws[i]);
  if (!rc) {
    lb_arrange_order_desc(speed, n, order);
    if (hist) memset(hist, 0, nbins * sizeof *hist);
    stats_init(st, p_ref);
    job.perms = perms;
    job.p = p;
    for (size_t done = 0; done < count; done += job.count) {
      job.count = count - done < MC_BLOCK ? count - done : MC_BLOCK;
      /* Draws are made here, in order, so the stream fixes the result. */
      for (size_t i = 0; i < job.count; i++) lb_arrange_random(r, order, n, perms + i * n);
      mc_block(&job);
      for (size_t i = 0; i < job.count; i++) {
        double q = p[i];
        const size_t *a = perms + i * n;
        tally(st, q);
        if (q < st->p_min) {
          st->p_min = q;
          if (arg_min) memcpy(arg_min, a, n * sizeof *a);
        }
        if (q > st->p_max) {
          st->p_max = q;
          if (arg_max) memcpy(arg_max, a, n * sizeof *a);
        }
        if (p_all) p_all[done + i] = q;
        if (hist) {
          double b = ceil(q) - 1; /* (k, k+1] -> k */
          size_t k = b < 0 ? 0 : b >= (double)(nbins - 1) ? nbins - 1 : (size_t)b;
          hist[k]++;
        }
      }
    }
  }
  for (unsigned i = 0; i < job.nt; i++) lb_arrange_ws_free(job.ws[i]);
  free(order);
  free(perms);
  free(p);
  return rc;
}
