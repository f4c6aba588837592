/* master_run.h: one task-farm run, the master's side, over any farm
 * transport (farm_xport.h): PVM for lbmaster, MPI for lbmpi. */
#ifndef MASTER_RUN_H
#define MASTER_RUN_H

#include <stdio.h>
#include <stdint.h>
#include "app.h"
#include "farm_xport.h"
#include "lb_node.h"

enum { FARM_INIT_ONE, FARM_INIT_EVEN, FARM_INIT_SKEWED, FARM_INIT_RANDOM, FARM_INIT_SHARE };

typedef struct master_opts {
  app_workload w;
  lb_policy policy;
  lb_node_params par; /* every host's, prepared; speed and capacity per host below */
  int hosts;
  const char *topo_spec;
  struct lb_topo *topo;     /* parsed from topo_spec, --hosts nodes */
  double *speed, *capacity; /* hosts values each */
  int capacity_given;       /* --capacity set every host's C */
  int work_mean_given;      /* --rmtlb-work-mean given */
  const char *driver;       /* "lbmaster" or "lbmpi", for the CSV */
  int init;
  const char *init_name;
  unsigned long seed;
  double quantum_s;
  int throttle;
  const char *out, *trace, *hosts_csv;
  int csv; /* stdout holds only the CSV; lines for people go to stderr */
  double timeout;
  int order; /* test path: processes moved per neighbour */
  double order_delay;
  int junk;             /* test path: send junk to every worker */
  unsigned long damage; /* test path: damage this many contexts at the start */
  int wrong;            /* test path: host wrong - 1 makes every result wrong (0: none) */
  int silent;           /* test path: host silent - 1 stops itself at STOP (0: none) */
  const char *journal;  /* --journal or --resume FILE: every verified result is kept there */
  int resume;           /* --resume: the journal's results count, and only the rest runs */
} master_opts;

/* Set up the o->hosts hosts tids[0..hosts-1] (started and waiting for
 * SETUP), hand out the processes, collect and verify every result,
 * gather the reports, print and write the outputs.  0 verified, 1 failed
 * or unverified, 130 interrupted. */
int master_run(const farm_xport *xp, const int *tids, const master_opts *o);
/* QUIT to a worker: its body is the run's key, so that a worker that has
 * not had its SETUP yet can tell it from a forged one (farm_auth.h). */
int master_send_quit(const farm_xport *xp, int id);

#endif
