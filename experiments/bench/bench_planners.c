/* bench_planners: our transport solver against GLPK's primal and dual
 * simplex on random transport problems whose costs are shortest-path hop
 * counts, and Hu-Blake CG against a dense LU solve on a 2-D torus.
 * Every figure is a ratio measured in the same run; transport times are
 * CPU seconds, medians of REPS (GLPK: GREPS) runs, alternating.
 * --dump DIR writes each instance to DIR/tp-SIZE-K.bin (uint64 m, n;
 * m*n doubles; m then n int64 amounts) for the LEMON and HiGHS
 * comparisons (experiments/bench/transport.sh).
 * Usage: bench_planners [--dump DIR] [--reps R] [--glpk-reps G]
 *                       [SIZE [INSTANCES [TORUS_SIDE]]]
 * (G = 0: no GLPK; TORUS_SIDE = 0: no CG) */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <gsl/gsl_linalg.h>
#include "lb_topo_matrix.h"
#include "lb_errno.h"
#include "lb_rng.h"
#include "lb_topo.h"
#include "lb_paths.h"
#include "lb_transport.h"
#include "lb_hublake.h"
#include "tp_glpk.h"
#include "cli.h"

static void die(const char *what)
{
  fprintf(stderr, "bench_planners: %s: %s\n", what, lb_errmsg());
  exit(1);
}

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, size_t k)
{
  qsort(v, k, sizeof *v, cmp_double);
  return k % 2 ? v[k / 2] : 0.5 * (v[k / 2 - 1] + v[k / 2]);
}

static void dump(const char *dir, size_t m, size_t k, const double *c, const long *s, const long *d)
{
  char path[4096];
  snprintf(path, sizeof path, "%s/tp-%zu-%zu.bin", dir, m, k);
  FILE *f = fopen(path, "wb");
  uint64_t mn[2] = {m, m};
  int ok = f && fwrite(mn, sizeof mn, 1, f) == 1 && fwrite(c, sizeof *c, m * m, f) == m * m;
  for (size_t i = 0; ok && i < m; i++) {
    int64_t v = s[i];
    ok = fwrite(&v, sizeof v, 1, f) == 1;
  }
  for (size_t j = 0; ok && j < m; j++) {
    int64_t v = d[j];
    ok = fwrite(&v, sizeof v, 1, f) == 1;
  }
  if (!f || fclose(f) || !ok) {
    fprintf(stderr, "bench_planners: cannot write %s\n", path);
    exit(1);
  }
}

static void bench_transport(size_t m, size_t inst, size_t reps, size_t greps, const char *dumpdir)
{
  int greps_on = greps > 0; /* 0: no GLPK (instances for other references) */
  if (!greps) greps = 1;
  lb_rng *r;
  if (lb_rng_alloc(2024, &r)) die("rng");
  double *c = malloc(m * m * sizeof *c), *tt = malloc(4 * (reps + greps) * sizeof *tt);
  long *x = malloc(m * m * sizeof *x), *s = malloc(m * sizeof *s), *d = malloc(m * sizeof *d);
  if (!c || !tt || !x || !s || !d) die("memory");
  double sum[4] = {0, 0, 0, 0};
  size_t piv_nwc = 0, piv_vog = 0;
  printf("# transport, %zu x %zu, costs = hop distances on random:%zu graphs; CPU s, medians of %zu (GLPK %zu)\n", m, m,
         2 * m, reps, greps);
  printf("size,instance,cost_nwc,cost_vogel,cost_glpk_primal,cost_glpk_dual,pivots_nwc,pivots_vogel,"
         "cpu_nwc,cpu_vogel,cpu_glpk_primal,cpu_glpk_dual\n");
  for (size_t k = 0; k < inst; k++) {
    lb_topo *t;
    lb_paths *p;
    if (lb_topo_random(2 * m, 2 * m, r, &t) || lb_paths_alloc(2 * m, &p) || lb_paths_bfs(t, p)) die("graph");
    for (size_t i = 0; i < m; i++)
      for (size_t j = 0; j < m; j++) c[i * m + j] = lb_paths_dist(p, i, m + j);
    for (size_t i = 0; i < m; i++) {
      s[i] = 1 + (long)lb_rng_below(r, 100);
      d[i] = 1 + (long)lb_rng_below(r, 100);
    }
    if (dumpdir) dump(dumpdir, m, k + 1, c, s, d);
    double z1 = 0, z2 = 0, zp = 0, zd = 0, *t1 = tt, *t2 = tt + reps, *tp = tt + 2 * reps, *td = tp + greps;
    lb_tp_stats st1, st2;
    for (size_t q = 0; q < reps || q < greps; q++) {
      double t0 = cli_cpu();
      if (q < reps) {
        if (lb_tp_solve(m, m, c, s, d, LB_TP_NWC, x, &z1, &st1)) die("transport, north-west corner");
        t1[q] = cli_cpu() - t0;
        t0 = cli_cpu();
        if (lb_tp_solve(m, m, c, s, d, LB_TP_VOGEL, x, &z2, &st2)) die("transport, Vogel");
        t2[q] = cli_cpu() - t0;
      }
      if (q < greps && greps_on) {
        t0 = cli_cpu();
        if (tp_glpk_solve(m, m, c, s, d, 0, &zp)) {
          fprintf(stderr, "GLPK primal failed\n");
          exit(1);
        }
        tp[q] = cli_cpu() - t0;
        t0 = cli_cpu();
        if (tp_glpk_solve(m, m, c, s, d, 1, &zd)) {
          fprintf(stderr, "GLPK dual failed\n");
          exit(1);
        }
        td[q] = cli_cpu() - t0;
      }
    }
    double mt[4] = {median(t1, reps), median(t2, reps), greps_on ? median(tp, greps) : 0,
                    greps_on ? median(td, greps) : 0};
    if (!greps_on) zp = zd = z1;
    for (int a = 0; a < 4; a++) sum[a] += mt[a];
    piv_nwc += st1.pivots;
    piv_vog += st2.pivots;
    printf("%zu,%zu,%.0f,%.0f,%.0f,%.0f,%zu,%zu,%.6f,%.6f,%.6f,%.6f\n", m, k + 1, z1, z2, zp, zd, st1.pivots,
           st2.pivots, mt[0], mt[1], mt[2], mt[3]);
    if (fabs(z1 - zp) > 1e-6 || fabs(z2 - zp) > 1e-6 || fabs(zd - zp) > 1e-6) {
      fprintf(stderr, "optimal costs differ\n");
      exit(1);
    }
    lb_paths_free(p);
    lb_topo_free(t);
  }
  printf("# summary: identical optimal cost on %zu instances; GLPK primal / ours: %.1fx (Vogel start), %.1fx"
         " (north-west corner); GLPK dual / ours: %.1fx (Vogel), %.1fx (NWC); mean pivots %.0f (Vogel), %.0f (NWC)\n",
         inst, sum[2] / sum[1], sum[2] / sum[0], sum[3] / sum[1], sum[3] / sum[0], (double)piv_vog / (double)inst,
         (double)piv_nwc / (double)inst);
  free(c);
  free(tt);
  free(x);
  free(s);
  free(d);
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
  for (size_t i = 0; i < n; i++) {
    l[i] = lb_rng_range(r, 0, 1000);
    avg += l[i];
  }
  avg /= (double)n;
  double t0 = cli_cpu();
  for (size_t k = 0; k < reps; k++)
    if (lb_hublake_solve(t, l, 1e-10, lam, &it)) die("CG");
  double tcg = (cli_cpu() - t0) / (double)reps;
  /* Reference: dense LU of L + J/n (non-singular; same solution). */
  gsl_matrix *L = gsl_matrix_alloc(n, n);
  gsl_vector *b = gsl_vector_alloc(n), *x = gsl_vector_alloc(n);
  gsl_permutation *perm = gsl_permutation_alloc(n);
  t0 = cli_cpu();
  lb_topo_laplacian(t, L);
  for (size_t i = 0; i < n; i++) {
    gsl_vector_set(b, i, l[i] - avg);
    for (size_t j = 0; j < n; j++) gsl_matrix_set(L, i, j, gsl_matrix_get(L, i, j) + 1.0 / (double)n);
  }
  int sg;
  gsl_linalg_LU_decomp(L, perm, &sg);
  gsl_linalg_LU_solve(L, perm, b, x);
  double tlu = cli_cpu() - t0, err = 0;
  for (size_t i = 0; i < n; i++) err = fmax(err, fabs(gsl_vector_get(x, i) - lam[i]));
  printf("# Hu-Blake CG on torus:%zux%zu (n = %zu), relative residual 1e-10\n", side, side, n);
  printf("cg_iterations,cg_time,lu_time,max_abs_diff\n%zu,%.6f,%.6f,%.2e\n", it, tcg, tlu, err);
  printf("# summary: CG %zu iterations (n = %zu); dense LU time / CG time: %.0fx\n", it, n, tlu / tcg);
  gsl_matrix_free(L);
  gsl_vector_free(b);
  gsl_vector_free(x);
  gsl_permutation_free(perm);
  free(l);
  free(lam);
  lb_rng_free(r);
  lb_topo_free(t);
}

int main(int argc, char **argv)
{
  const char *dumpdir = NULL;
  size_t reps = 5, greps = 3;
  int a = 1;
  for (; a + 1 < argc && argv[a][0] == '-'; a += 2) {
    if (!strcmp(argv[a], "--dump")) dumpdir = argv[a + 1];
    else if (!strcmp(argv[a], "--reps")) reps = strtoul(argv[a + 1], NULL, 10);
    else if (!strcmp(argv[a], "--glpk-reps")) greps = strtoul(argv[a + 1], NULL, 10);
    else break;
  }
  size_t m = argc > a ? strtoul(argv[a], NULL, 10) : 200;
  size_t inst = argc > a + 1 ? strtoul(argv[a + 1], NULL, 10) : 5;
  size_t side = argc > a + 2 ? strtoul(argv[a + 2], NULL, 10) : 32;
  if (m == 0 || inst == 0 || reps == 0 || (side != 0 && side < 3) || (argc > a && argv[a][0] == '-')) {
    fprintf(stderr, "usage: bench_planners [--dump DIR] [--reps R] [--glpk-reps G] [SIZE [INSTANCES [TORUS_SIDE]]]\n");
    return 2;
  }
  bench_transport(m, inst, reps, greps, dumpdir);
  if (side) bench_cg(side);
  return 0;
}
