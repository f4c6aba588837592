/* farm_out.h: what lbmaster prints and writes at the end of a run: the
 * per-host table, the summary line, the run's CSV row and the per-host
 * CSV. */
#ifndef FARM_OUT_H
#define FARM_OUT_H

#include <stdio.h>
#include "farm_run.h"
#include "farm_wire.h"

typedef struct farm_host {
  int tid, initial, got, down;
  farm_report rep;           /* its trace is not kept */
} farm_host;

typedef struct farm_tally {
  double tstart, tend;       /* wall clock: processes sent, last result verified */
  double work;               /* CPU seconds of every verified process */
  unsigned long accepted, bad, dropped;
  unsigned long hosts_down, reruns, duplicates;
  int verified;
  long hops_optimal;         /* fewest process-hops that balance the start, -1 unknown */
} farm_tally;

/* Where lines for people go: stdout, or stderr under --csv, which keeps
 * stdout to the CSV. */
FILE *farm_out_people(const farm_opts *o);
void farm_out_print(const farm_opts *o, const farm_host *hs, const farm_tally *t);
/* 0 if o->out can take this version's rows (absent, empty or the same
 * header); else -1 with a message.  lbmaster checks before it starts. */
int farm_out_check(const farm_opts *o);
/* Append the run's row to o->out (header if new) or print it; 0 or -1. */
int farm_out_csv(const farm_opts *o, const farm_host *hs, const farm_tally *t);
/* Write o->hosts_csv, one row per host (no-op without it); 0 or -1. */
int farm_out_hosts_csv(const farm_opts *o, const farm_host *hs);

#endif
