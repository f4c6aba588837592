/* farm_kernel: GFLOP/s of the task farm's matmul processes against
 * OpenBLAS dgemm, single-threaded, alternating in the same run, and the
 * cost of the master's verification beside them.
 *
 * The farm side computes C = A x B as the workers do: cut into P
 * processes (blocks of rows), each run through app_task_run in quanta
 * of K values of the inner index (panels of k, each one or more
 * cblas_dgemm calls), one process after another as on one host.  Its
 * time includes building each panel's slice of A; B is built once, by
 * an untimed first run of the first block, and kept, as on a worker
 * host, where building it (n^2 hash values, once per host and run) is
 * spread over the host's processes.  Two references, both OpenBLAS on operands already
 * built: one dgemm per block of rows (the same block: the kernel's
 * target), and one dgemm of all those rows.  BLOCKS (default P) runs
 * only the first BLOCKS processes (at n = 8000 the whole product is a
 * 1 TFLOP reference).  Each repetition runs the three in turn; the
 * ratios are taken pair by pair (farm against the reference of the same
 * repetition) and their median printed, with the smallest and largest.
 * Times are CPU seconds of this process.
 *
 * Verification: the master's verifier is made (the secret r and B r,
 * once per run) and judges the blocks' results; verify_share is what
 * that costs for the whole run of P blocks against the run's compute
 * (P blocks at the farm's median speed here).
 *
 * The BLAS that cblas_dgemm resolved to is printed on stderr; anything
 * but OpenBLAS is an error (exit 1): a reference that is not the one
 * named would make every ratio meaningless.
 *
 * --only farm|dgemm runs one side once, operands built from nothing
 * included (the farm side's B as a host builds it; the reference's
 * block rows of A and B), for timing the two as whole processes, in
 * turn, from outside (e.g. /usr/bin/time -v); it prints its GFLOP/s.
 * Usage: farm_kernel [--only farm|dgemm] N [P] [K1,K2,...] [REPS] [BLOCKS]
 * CSV on stdout. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cblas.h>
#include "app.h"
#include "app_blas.h"
#include "app_mem.h"
#include "app_verify.h"
#include "cli.h"
#include "lb_errno.h"

/* Times are CPU seconds of this process (cli_cpu): single-threaded, so
 * the work itself, whatever else the shared machine runs. */

/* The first `blocks` processes, in quanta of k values of k. */
static double run_farm(unsigned long n, unsigned long procs, unsigned long blocks, unsigned long k)
{
  app_workload w = {APP_MATMUL, n, procs, 1};
  double t0 = cli_cpu();
  for (unsigned long p = 0; p < blocks; p++) {
    app_task *t;
    if (app_task_alloc(&w, p, &t)) cli_die(1, "alloc: %s", lb_errmsg());
    unsigned long ran, rows = app_task_units_total(t) / n;
    while (!app_task_finished(t))
      if (app_task_run(t, k * rows, &ran)) cli_die(1, "run: %s", lb_errmsg());
    app_task_free(t);
  }
  return cli_cpu() - t0;
}

/* The master's costs: the verifier made (r, B r) and `blocks` results
 * judged.  *prep gets the first, the return value the second. */
static double run_verify(unsigned long n, unsigned long procs, unsigned long blocks, double *prep)
{
  app_workload w = {APP_MATMUL, n, procs, 1};
  app_verifier *v;
  double t0 = cli_cpu(), judged = 0;
  if (app_verify_alloc(&w, &v)) cli_die(1, "verifier: %s", lb_errmsg());
  *prep = cli_cpu() - t0;
  for (unsigned long p = 0; p < blocks; p++) {
    app_task *t;
    unsigned long ran;
    if (app_task_alloc(&w, p, &t) || app_task_run(t, app_task_units_total(t), &ran)) cli_die(1, "run");
    size_t len = app_task_result_size(t);
    unsigned char *blob = malloc(len);
    app_result r;
    if (!blob || app_task_result(t, blob, len) || app_result_decode(blob, len, &r)) cli_die(1, "result");
    app_task_free(t);
    t0 = cli_cpu();
    if (app_verify_result(v, &r)) cli_die(1, "a right result failed verification: %s", lb_errmsg());
    judged += cli_cpu() - t0;
    app_result_clear(&r);
    free(blob);
  }
  app_verify_free(v);
  return judged;
}

/* The first `blocks` of `procs` blocks of rows as one dgemm call each,
 * or (procs = 0) the rows of those blocks as a single call. */
static double run_dgemm(unsigned long n, unsigned long procs, unsigned long blocks, unsigned long allrows,
                        const double *a, const double *b, double *c)
{
  double t0 = cli_cpu();
  if (procs == 0) {
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)allrows, (int)n, (int)n, 1.0, a, (int)n, b, (int)n, 0.0,
                c, (int)n);
    return cli_cpu() - t0;
  }
  for (unsigned long p = 0; p < blocks; p++) {
    unsigned long r0, rows;
    app_split(n, procs, p, &r0, &rows);
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)rows, (int)n, (int)n, 1.0, a + r0 * n, (int)n, b,
                (int)n, 0.0, c + r0 * n, (int)n);
  }
  return cli_cpu() - t0;
}

static int cmp(const void *x, const void *y)
{
  double a = *(const double *)x, b = *(const double *)y;
  return (a > b) - (a < b);
}

static double median(double *v, unsigned long k)
{
  qsort(v, k, sizeof *v, cmp);
  return k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
}

/* --only: one side, once, from nothing. */
static int only(const char *side, unsigned long n, unsigned long procs, unsigned long blocks, unsigned long allrows,
                unsigned long k)
{
  double t0 = cli_cpu(), flop = 2.0 * (double)allrows * (double)n * (double)n;
  if (!strcmp(side, "farm")) {
    run_farm(n, procs, blocks, k);
  } else {
    double *a = app_mem_big(allrows * n * sizeof *a), *b = app_mem_big(n * n * sizeof *b),
           *c = app_mem_big(allrows * n * sizeof *c);
    if (!a || !b || !c) cli_die(1, "out of memory");
    for (unsigned long i = 0; i < n; i++) {
      if (i < allrows) app_matmul_row_a(n, 1, i, a + i * n);
      app_matmul_row_b(n, 1, i, b + i * n);
    }
    run_dgemm(n, procs, blocks, allrows, a, b, c);
  }
  printf("%s,%lu,%lu,%lu,%lu,%.3f\n", side, n, procs, blocks, k, flop / (cli_cpu() - t0) * 1e-9);
  return fflush(stdout) || ferror(stdout) ? 1 : 0;
}

int main(int argc, char **argv)
{
  cli_init(argv[0]);
  const char *side = NULL;
  if (argc > 2 && !strcmp(argv[1], "--only")) {
    side = argv[2];
    if (strcmp(side, "farm") && strcmp(side, "dgemm")) cli_usage_error("--only farm or dgemm, not '%s'", side);
    argv += 2;
    argc -= 2;
  }
  if (argc < 2 || argc > 6) cli_usage_error("usage: farm_kernel [--only farm|dgemm] N [P] [K1,K2,...] [REPS] [BLOCKS]");
  unsigned long n = cli_ulong("N", argv[1], 16, APP_MATMUL_ORDER_MAX);
  unsigned long procs = argc > 2 ? cli_ulong("P", argv[2], 1, n) : (n + 63) / 64;
  double ks[16];
  size_t nk = argc > 3 ? cli_doubles("K", argv[3], ks, 16, 1, APP_MATMUL_ORDER_MAX) : 0;
  if (!nk) {
    ks[0] = 16;
    ks[1] = 64;
    ks[2] = 256;
    ks[3] = (double)n;
    nk = 4;
  }
  unsigned long reps = argc > 4 ? cli_ulong("REPS", argv[4], 1, 100) : 3;
  unsigned long blocks = argc > 5 ? cli_ulong("BLOCKS", argv[5], 1, procs) : procs, r0, allrows;
  app_split(n, procs, blocks - 1, &r0, &allrows);
  allrows += r0; /* rows of the first `blocks` blocks */
  char blas[512];
  if (app_blas_check(blas, sizeof blas)) cli_die(1, "the reference is not OpenBLAS: %s", lb_errmsg());
  fprintf(stderr, "farm_kernel: BLAS: %s\n", blas);
  if (app_blas_unused_avx512()) fprintf(stderr, "farm_kernel: note: %s\n", app_blas_unused_avx512());
  app_blas_setup(); /* one thread, as the worker */
  app_mem_setup();  /* as the worker does */
  if (side) return only(side, n, procs, blocks, allrows, (unsigned long)ks[0]);
  double *a = app_mem_big(n * n * sizeof *a), *b = app_mem_big(n * n * sizeof *b), *c = app_mem_big(n * n * sizeof *c);
  double *rd = malloc(reps * sizeof *rd), *rb = malloc(reps * sizeof *rb), *tf = malloc(reps * sizeof *tf),
         *td = malloc(reps * sizeof *td), *tb = malloc(reps * sizeof *tb);
  if (!a || !b || !c || !rd || !rb || !tf || !td || !tb) cli_die(1, "out of memory");
  for (unsigned long i = 0; i < n; i++) {
    app_matmul_row_a(n, 1, i, a + i * n);
    app_matmul_row_b(n, 1, i, b + i * n);
  }
  double flop = 2.0 * (double)allrows * (double)n * (double)n;
  run_farm(n, procs, 1, (unsigned long)ks[0]); /* builds B */
  printf("n,procs,rows_per_proc,blocks,quantum_k,reps,farm_gflops,dgemm_gflops,dgemm_blocks_gflops,"
         "ratio,ratio_blocks,ratio_blocks_min,ratio_blocks_max,verify_s,compute_s,verify_share\n");
  for (size_t q = 0; q < nk; q++) {
    unsigned long k = (unsigned long)ks[q];
    for (unsigned long r = 0; r < reps; r++) {
      td[r] = run_dgemm(n, 0, blocks, allrows, a, b, c);
      tb[r] = run_dgemm(n, procs, blocks, allrows, a, b, c);
      tf[r] = run_farm(n, procs, blocks, k);
      rd[r] = td[r] / tf[r];
      rb[r] = tb[r] / tf[r];
    }
    double mf = median(tf, reps), md = median(td, reps), mb = median(tb, reps), ratio = median(rd, reps);
    double rmid = median(rb, reps), rmin = rb[0], rmax = rb[reps - 1];
    double prep, judged = run_verify(n, procs, blocks, &prep);
    /* The whole run: B r once, P blocks judged, against P blocks' compute. */
    double vs = prep + judged / (double)blocks * (double)procs, cs = mf / (double)blocks * (double)procs;
    printf("%lu,%lu,%.1f,%lu,%lu,%lu,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.4f,%.4f,%.4f\n", n, procs,
           (double)n / (double)procs, blocks, k, reps, flop / mf * 1e-9, flop / md * 1e-9, flop / mb * 1e-9, ratio,
           rmid, rmin, rmax, vs, cs, vs / cs);
    fflush(stdout);
  }
  if (ferror(stdout) || fflush(stdout)) cli_die(1, "cannot write the results");
  app_mem_free(a);
  app_mem_free(b);
  app_mem_free(c);
  free(rd);
  free(rb);
  free(tf);
  free(td);
  free(tb);
  return 0;
}
