/* master_out.h: what lbmaster prints and writes at the end of a run: the
 * per-host table, the summary line, the run's CSV row and the per-host
 * CSV. */
#ifndef MASTER_OUT_H
#define MASTER_OUT_H

#include <stdio.h>
#include "master_run.h"
#include "farm_wire.h"

typedef struct master_host {
  int tid, initial, got, down;
  int excluded;    /* down because its results failed verification */
  int fenced;      /* down because its lease ran out */
  farm_report rep; /* its trace is not kept */
} master_host;

typedef struct master_tally {
  double tstart, tend;                  /* wall clock: processes sent, last result verified */
  double work;                          /* CPU seconds of every verified process */
  unsigned long accepted, bad, dropped; /* bad: results rejected (each ran again) */
  unsigned long excluded;               /* hosts excluded for them */
  unsigned long hosts_down, reruns, duplicates;
  unsigned long fenced;     /* hosts whose lease ran out */
  unsigned long late;       /* messages dropped from hosts already out */
  unsigned long journalled; /* results taken from the journal (--resume) */
  int verified;
  long hops_optimal; /* fewest process-hops that balance the start, -1 unknown */
} master_tally;

/* Where lines for people go: stdout, or stderr under --csv, which keeps
 * stdout to the CSV. */
FILE *master_out_people(const master_opts *o);
void master_out_print(const master_opts *o, const master_host *hs, const master_tally *t);
/* 0 if o->out can take this version's rows (absent, empty or the same
 * header); else -1 with a message.  lbmaster checks before it starts. */
int master_out_check(const master_opts *o);
/* Append the run's row to o->out (header if new) or print it; 0 or -1. */
int master_out_csv(const master_opts *o, const master_host *hs, const master_tally *t);
/* Write o->hosts_csv, one row per host (no-op without it); 0 or -1. */
int master_out_hosts_csv(const master_opts *o, const master_host *hs);

#endif
