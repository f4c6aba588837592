/* sim_cli.h: lbsim's command line (options, checks, text and CSV
 * output) for any driver of a simulated run, so that lbsim and the
 * SimGrid driver (simgrid/lbsimgrid) take the same options and print
 * the same report and CSV. */
#ifndef SIM_CLI_H
#define SIM_CLI_H

#include <stdio.h>
#include "lb_sim.h"

typedef struct sim_cli_driver {
  const char *name; /* the program, as its help names it */
  /* Run the configured simulation (lb_sim_run's contract). */
  int (*run)(const lb_sim_config *c, lb_sim_result *r, void *ctx);
  void *ctx;
  void (*usage)(FILE *f); /* the driver's own lines of --help, or NULL */
} sim_cli_driver;

/* Parse argv as lbsim does, run, report; returns the exit status. */
int sim_cli_main(int argc, char **argv, const sim_cli_driver *d);

#endif
