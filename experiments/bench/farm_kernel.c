/* farm_kernel: GFLOP/s of the task farm's matmul kernel (a process run
 * through farm_task_run in quanta of q rows, as the worker does) against
 * one OpenBLAS dgemm of the whole product, single-threaded, alternating
 * in the same run; best of R repetitions each.
 * Usage: farm_kernel N [Q1,Q2,...] [REPS]   CSV on stdout. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <cblas.h>
#include "farm_app.h"
#include "farm_mem.h"
#include "cli.h"

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double run_farm(unsigned long n, unsigned long q)
{
  farm_workload w = { FARM_APP_MATMUL, n, 1, 1 };
  farm_task *t;
  if (farm_task_alloc(&w, 0, &t)) cli_die(1, "alloc");
  unsigned long ran;
  farm_task_run(t, 1, &ran);  /* builds the shared B outside the timing */
  farm_task_free(t);
  if (farm_task_alloc(&w, 0, &t)) cli_die(1, "alloc");
  double t0 = now();
  while (!farm_task_finished(t)) farm_task_run(t, q, &ran);
  double dt = now() - t0;
  farm_task_free(t);
  return dt;
}

static double run_dgemm(unsigned long n, const double *a, const double *b, double *c)
{
  double t0 = now();
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)n, (int)n, (int)n, 1.0, a, (int)n, b,
              (int)n, 0.0, c, (int)n);
  return now() - t0;
}

int main(int argc, char **argv)
{
  cli_init(argv[0]);
  if (argc < 2 || argc > 4) cli_usage_error("usage: farm_kernel N [Q1,Q2,...] [REPS]");
  unsigned long n = cli_ulong("N", argv[1], 16, 8192);
  double qs[16];
  size_t nq = argc > 2 ? cli_doubles("Q", argv[2], qs, 16, 1, 8192) : 0;
  if (!nq) { qs[0] = 1; qs[1] = 16; qs[2] = 128; qs[3] = (double)n; nq = 4; }
  unsigned long reps = argc > 3 ? cli_ulong("REPS", argv[3], 1, 100) : 3;
  openblas_set_num_threads(1);
  farm_mem_setup();   /* as the worker does */
  double *a = malloc(n * n * sizeof *a), *b = malloc(n * n * sizeof *b), *c = malloc(n * n * sizeof *c);
  if (!a || !b || !c) cli_die(1, "out of memory");
  for (unsigned long i = 0; i < n; i++) {
    farm_matmul_row_a(n, 1, i, a + i * n);
    farm_matmul_row_b(n, 1, i, b + i * n);
  }
  double flop = 2.0 * (double)n * (double)n * (double)n;
  printf("n,quantum_rows,farm_gflops,dgemm_gflops,ratio\n");
  for (size_t k = 0; k < nq; k++) {
    unsigned long q = (unsigned long)qs[k];
    double bf = 1e30, bd = 1e30;
    for (unsigned long r = 0; r < reps; r++) {
      double d = run_dgemm(n, a, b, c), f = run_farm(n, q);
      if (d < bd) bd = d;
      if (f < bf) bf = f;
    }
    printf("%lu,%lu,%.3f,%.3f,%.3f\n", n, q, flop / bf * 1e-9, flop / bd * 1e-9, bd / bf);
  }
  free(a);
  free(b);
  free(c);
  return 0;
}
