/* bench_planners: MODI against GLPK on random transport problems whose
 * costs are shortest-path hop counts, and Hu-Blake CG against a dense
 * LU solve on a 2-D torus.  Every figure is a ratio measured in the same
 * run.  Usage: bench_planners [SIZE [INSTANCES [TORUS_SIDE]]] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <gsl/gsl_linalg.h>
#include "lb_errno.h"
#include "lb_rng.h"
#include "lb_topo.h"
#include "lb_paths.h"
#include "lb_transport.h"
#include "lb_hublake.h"
#include "tp_glpk.h"

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void die(const char *what)
{
  fprintf(stderr, "bench_planners: %s: %s\n", what, lb_errmsg());
  exit(1);
}

static void bench_transport(size_t m, size_t reps)
{
  lb_rng *r;
  if (lb_rng_alloc(2024, &r)) die("rng");
  double t_nwc = 0, t_vog = 0, t_glpk = 0;
  size_t piv_nwc = 0, piv_vog = 0;
  double *c = malloc(m * m * sizeof *c);
  long *x = malloc(m * m * sizeof *x), *s = malloc(m * sizeof *s), *d = malloc(m * sizeof *d);
  printf("# MODI vs GLPK, %zu x %zu, costs = hop distances on random:%zu graphs\n", m, m, 2 * m);
  printf("instance,cost_nwc,cost_vogel,cost_glpk,pivots_nwc,pivots_vogel,t_nwc,t_vogel,t_glpk\n");
  for (size_t k = 0; k < reps; k++) {
    lb_topo *t;
    lb_paths *p;
    if (lb_topo_random(2 * m, 2 * m, r, &t) || lb_paths_alloc(2 * m, &p) || lb_paths_bfs(t, p)) die("graph");
    for (size_t i = 0; i < m; i++)
      for (size_t j = 0; j < m; j++) c[i * m + j] = lb_paths_dist(p, i, m + j);
    for (size_t i = 0; i < m; i++) { s[i] = 1 + (long)lb_rng_below(r, 100); d[i] = 1 + (long)lb_rng_below(r, 100); }
    double z1, z2, zg, t0;
    lb_tp_stats st1, st2;
    t0 = now();
    if (lb_tp_solve(m, m, c, s, d, LB_TP_NWC, x, &z1, &st1)) die("MODI nwc");
    double dn = now() - t0;
    t_nwc += dn;
    t0 = now();
    if (lb_tp_solve(m, m, c, s, d, LB_TP_VOGEL, x, &z2, &st2)) die("MODI vogel");
    double dv = now() - t0;
    t_vog += dv;
    t0 = now();
    if (tp_glpk_cost(m, m, c, s, d, &zg)) { fprintf(stderr, "GLPK failed\n"); exit(1); }
    double dg = now() - t0;
    t_glpk += dg;
    piv_nwc += st1.pivots;
    piv_vog += st2.pivots;
    printf("%zu,%.0f,%.0f,%.0f,%zu,%zu,%.4f,%.4f,%.4f\n", k + 1, z1, z2, zg, st1.pivots, st2.pivots,
           dn, dv, dg);
    if (fabs(z1 - zg) > 1e-6 || fabs(z2 - zg) > 1e-6) { fprintf(stderr, "optimal costs differ\n"); exit(1); }
    lb_paths_free(p);
    lb_topo_free(t);
  }
  printf("# summary: identical optimal cost on %zu instances; GLPK time / MODI time:"
         " %.1fx (Vogel start), %.1fx (north-west corner start); mean pivots %.0f (Vogel), %.0f (NWC)\n",
         reps, t_glpk / t_vog, t_glpk / t_nwc, (double)piv_vog / (double)reps, (double)piv_nwc / (double)reps);
  free(c); free(x); free(s); free(d);
  lb_rng_free(r);
}

static void bench_cg(size_t side)
{
  lb_topo *t;
  if (lb_topo_torus(side, side, &t)) die("torus");
  size_t n = t->n, it = 0, reps = 50;
  lb_rng *r;
  if (lb_rng_alloc(7, &r)) die("rng");
  double *l = malloc(n * sizeof *l), *lam = malloc(n * sizeof *lam), avg = 0;
  for (size_t i = 0; i < n; i++) { l[i] = lb_rng_range(r, 0, 1000); avg += l[i]; }
  avg /= (double)n;
  double t0 = now();
  for (size_t k = 0; k < reps; k++)
    if (lb_hublake_solve(t, l, 1e-10, lam, &it)) die("CG");
  double tcg = (now() - t0) / (double)reps;
  /* Reference: dense LU of L + J/n (non-singular; same solution). */
  gsl_matrix *L = gsl_matrix_alloc(n, n);
  gsl_vector *b = gsl_vector_alloc(n), *x = gsl_vector_alloc(n);
  gsl_permutation *perm = gsl_permutation_alloc(n);
  t0 = now();
  lb_topo_laplacian(t, L);
  for (size_t i = 0; i < n; i++) {
    gsl_vector_set(b, i, l[i] - avg);
    for (size_t j = 0; j < n; j++) gsl_matrix_set(L, i, j, gsl_matrix_get(L, i, j) + 1.0 / (double)n);
  }
  int sg;
  gsl_linalg_LU_decomp(L, perm, &sg);
  gsl_linalg_LU_solve(L, perm, b, x);
  double tlu = now() - t0, err = 0;
  for (size_t i = 0; i < n; i++) err = fmax(err, fabs(gsl_vector_get(x, i) - lam[i]));
  printf("# Hu-Blake CG on torus:%zux%zu (n = %zu), relative residual 1e-10\n", side, side, n);
  printf("cg_iterations,cg_time,lu_time,max_abs_diff\n%zu,%.6f,%.6f,%.2e\n", it, tcg, tlu, err);
  printf("# summary: CG %zu iterations (n = %zu); dense LU time / CG time: %.0fx\n", it, n, tlu / tcg);
  gsl_matrix_free(L); gsl_vector_free(b); gsl_vector_free(x); gsl_permutation_free(perm);
  free(l); free(lam);
  lb_rng_free(r);
  lb_topo_free(t);
}

int main(int argc, char **argv)
{
  size_t m = argc > 1 ? strtoul(argv[1], NULL, 10) : 200;
  size_t reps = argc > 2 ? strtoul(argv[2], NULL, 10) : 5;
  size_t side = argc > 3 ? strtoul(argv[3], NULL, 10) : 32;
  if (m == 0 || reps == 0 || side < 3) {
    fprintf(stderr, "usage: bench_planners [SIZE [INSTANCES [TORUS_SIDE]]]\n");
    return 2;
  }
  bench_transport(m, reps);
  bench_cg(side);
  return 0;
}
