/* farm_kernel: GFLOP/s of the task farm's matmul kernel against
 * OpenBLAS dgemm, single-threaded, alternating in the same run; best of
 * R repetitions each.  Two references: one dgemm of the whole product,
 * and one dgemm per block of rows (the shape of a farm process), which
 * separates the cost of cutting the product into processes (every block
 * streams all of B) from the farm's own overhead.
 *
 * The farm side computes C = A x B as the workers do: cut into P
 * processes (blocks of rows), each run through app_task_run in quanta
 * of k columns of its block, one process after another as on one host.
 * Its time includes building each block's rows of A; B is built, panel
 * by panel, by the first repetition and kept, as on a worker host.
 * BLOCKS (default P) runs only the first BLOCKS processes, and the first
 * reference is then one dgemm of their rows (at n = 8000 the whole
 * product is a 1 TFLOP reference); times are CPU seconds.
 * Usage: farm_kernel N [P] [K1,K2,...] [REPS] [BLOCKS]   CSV on stdout. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <cblas.h>
#include "app.h"
#include "app_mem.h"
#include "cli.h"

/* Times are CPU seconds of this process (cli_cpu): single-threaded, so
 * the work itself, whatever else the shared machine runs. */
static double run_farm(unsigned long n, unsigned long procs, unsigned long blocks, unsigned long k)
{
  app_workload w = { APP_MATMUL, n, procs, 1 };
  double t0 = cli_cpu();
  for (unsigned long p = 0; p < blocks; p++) {
    app_task *t;
    if (app_task_alloc(&w, p, &t)) cli_die(1, "alloc");
    unsigned long ran, rows = app_task_units_total(t) / n;
    while (!app_task_finished(t))
      if (app_task_run(t, k * rows, &ran)) cli_die(1, "run");
    app_task_free(t);
  }
  return cli_cpu() - t0;
}

/* The first `blocks` of `procs` blocks of rows as one dgemm call each,
 * or (procs = 0) the rows of those blocks as a single call. */
static double run_dgemm(unsigned long n, unsigned long procs, unsigned long blocks, unsigned long allrows,
                        const double *a, const double *b, double *c)
{
  double t0 = cli_cpu();
  if (procs == 0) {
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)allrows, (int)n, (int)n, 1.0, a, (int)n, b,
                (int)n, 0.0, c, (int)n);
    return cli_cpu() - t0;
  }
  for (unsigned long p = 0; p < blocks; p++) {
    unsigned long r0, rows;
    app_split(n, procs, p, &r0, &rows);
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)rows, (int)n, (int)n, 1.0, a + r0 * n,
                (int)n, b, (int)n, 0.0, c + r0 * n, (int)n);
  }
  return cli_cpu() - t0;
}

int main(int argc, char **argv)
{
  cli_init(argv[0]);
  if (argc < 2 || argc > 6) cli_usage_error("usage: farm_kernel N [P] [K1,K2,...] [REPS] [BLOCKS]");
  unsigned long n = cli_ulong("N", argv[1], 16, 8192);
  unsigned long procs = argc > 2 ? cli_ulong("P", argv[2], 1, n) : (n + 63) / 64;
  double ks[16];
  size_t nk = argc > 3 ? cli_doubles("K", argv[3], ks, 16, 1, 8192) : 0;
  if (!nk) { ks[0] = 1; ks[1] = 16; ks[2] = 128; ks[3] = (double)n; nk = 4; }
  unsigned long reps = argc > 4 ? cli_ulong("REPS", argv[4], 1, 100) : 3;
  unsigned long blocks = argc > 5 ? cli_ulong("BLOCKS", argv[5], 1, procs) : procs, r0, allrows;
  app_split(n, procs, blocks - 1, &r0, &allrows);
  allrows += r0;   /* rows of the first `blocks` blocks */
  openblas_set_num_threads(1);
  app_mem_setup();   /* as the worker does */
  double *a = app_mem_big(n * n * sizeof *a), *b = app_mem_big(n * n * sizeof *b),
         *c = app_mem_big(n * n * sizeof *c);
  if (!a || !b || !c) cli_die(1, "out of memory");
  for (unsigned long i = 0; i < n; i++) {
    app_matmul_row_a(n, 1, i, a + i * n);
    app_matmul_row_b(n, 1, i, b + i * n);
  }
  double flop = 2.0 * (double)allrows * (double)n * (double)n;
  printf("n,procs,rows_per_proc,blocks,quantum_cols,farm_gflops,dgemm_gflops,dgemm_blocks_gflops,"
         "ratio,ratio_blocks\n");
  for (size_t q = 0; q < nk; q++) {
    unsigned long k = (unsigned long)ks[q];
    double bf = 1e30, bd = 1e30, bb = 1e30;
    for (unsigned long r = 0; r < reps; r++) {
      double d = run_dgemm(n, 0, blocks, allrows, a, b, c), e = run_dgemm(n, procs, blocks, allrows, a, b, c),
             f = run_farm(n, procs, blocks, k);
      if (d < bd) bd = d;
      if (e < bb) bb = e;
      if (f < bf) bf = f;
    }
    printf("%lu,%lu,%.1f,%lu,%lu,%.3f,%.3f,%.3f,%.3f,%.3f\n", n, procs, (double)n / (double)procs, blocks, k,
           flop / bf * 1e-9, flop / bd * 1e-9, flop / bb * 1e-9, bd / bf, bb / bf);
  }
  app_mem_free(a);
  app_mem_free(b);
  app_mem_free(c);
  return 0;
}
