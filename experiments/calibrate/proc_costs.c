/* proc_costs: the CPU seconds of each process of a farm workload, run
 * alone, one after another as on one host, in quanta of about 10 ms of
 * CPU as the worker sizes them.  The calibration scales these to the
 * farm run's own total (experiments/calibrate/calibrate.sh): what it
 * needs from here is how the cost is shared among the processes (the
 * primes' ranges cost more the higher they lie).
 * Usage: proc_costs [--units] WORKLOAD SIZE PROCS [SEED]   CSV on stdout:
 * index,units,cpu_s (--units: units only, nothing run, cpu_s empty). */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <cblas.h>
#include "app.h"
#include "app_mem.h"
#include "cli.h"

int main(int argc, char **argv)
{
  cli_init(argv[0]);
  if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
    printf("Usage: proc_costs [--units] WORKLOAD SIZE PROCS [SEED]\n"
           "CPU seconds of each process of the workload (matmul or primes), run alone\n"
           "in quanta of ~10 ms of CPU.  CSV on stdout: index,units,cpu_s.\n"
           "--units: print the units of work only (cpu_s empty), run nothing.\n");
    return 0;
  }
  int units_only = argc > 1 && !strcmp(argv[1], "--units");
  if (units_only) {
    argv++;
    argc--;
  }
  if (argc < 4 || argc > 5) cli_usage_error("usage: proc_costs [--units] WORKLOAD SIZE PROCS [SEED]");
  app_workload w = {0, 0, 0, 1};
  if (app_kind_parse(argv[1], &w.kind)) cli_usage_error("WORKLOAD: matmul or primes, not '%s'", argv[1]);
  w.size = cli_ulong("SIZE", argv[2], 1, 1ul << 40);
  w.nproc = cli_ulong("PROCS", argv[3], 1, 1000000);
  if (argc > 4) w.seed = cli_ulong("SEED", argv[4], 0, ~0ul);
  if (app_workload_check(&w)) cli_usage_error("%s", "bad workload");
  app_mem_setup(); /* as the worker does */
  printf("index,units,cpu_s\n");
  double uq = 1; /* units per quantum, adapted to ~10 ms as the worker does */
  for (unsigned long k = 0; k < w.nproc; k++) {
    app_task *t;
    if (app_task_alloc(&w, k, &t)) cli_die(1, "process %lu", k);
    if (units_only) {
      printf("%lu,%lu,\n", k, app_task_units_total(t));
      app_task_free(t);
      continue;
    }
    double c0 = cli_cpu();
    while (!app_task_finished(t)) {
      unsigned long ran;
      double q0 = cli_cpu();
      if (app_task_run(t, uq > 1e9 ? 1000000000ul : (unsigned long)(uq < 1 ? 1 : uq), &ran)) cli_die(1, "run");
      double dc = cli_cpu() - q0, f = dc > 0 ? 0.01 / dc : 2;
      if (!app_task_finished(t)) uq = (double)ran * (f > 2 ? 2 : f < 0.5 ? 0.5 : f);
    }
    printf("%lu,%lu,%.6f\n", k, app_task_units_total(t), cli_cpu() - c0);
    app_task_free(t);
  }
  return 0;
}
