/* master_cli.h: what lbmaster and lbmpi share before and around a run:
 * their command line (the same options), the self-test, and the
 * signals that stop a run (not installed). */
#ifndef MASTER_CLI_H
#define MASTER_CLI_H

#include "master_run.h"
#include "farm_xport.h"

typedef struct master_cli {
  int selftest;
  unsigned long hosts;
  int have_hosts; /* --hosts given */
  unsigned long ints;
  unsigned long seed;
  double timeout;
  master_opts f;
  unsigned long size, procs;
  int have_size, have_procs;
  char topo[64];
  const char *speeds, *capacities;
} master_cli;

/* The program's usage: `intro`, the options (--hosts defaulting to
 * `hosts_default`), `outro`. */
void master_cli_help(const char *intro, const char *hosts_default, const char *outro);
/* Parse and check everything, before any VM or job is touched; `usage`
 * answers --help.  Bad input exits 2. */
void master_cli_parse(int argc, char **argv, unsigned long hosts, void (*usage)(void), master_cli *o);
void master_cli_free(master_cli *o);
/* Send each host a packed int array and check the sums they return:
 * 0 when every host answered right. */
int master_selftest(const farm_xport *xp, const master_cli *o, const int *tids);
/* SIGINT and SIGTERM set master_interrupted; every wait checks it. */
void master_catch_signals(void);

#endif
