/* farm_cli.h: what lbmaster and lbmpi share before and around a run:
 * their command line (the same options), the self-test, and the
 * signals that stop a run (not installed). */
#ifndef FARM_CLI_H
#define FARM_CLI_H

#include "farm_run.h"
#include "farm_xport.h"

typedef struct farm_cli {
  int selftest;
  unsigned long hosts;
  int have_hosts;              /* --hosts given */
  unsigned long ints;
  unsigned long seed;
  double timeout;
  farm_opts f;
  unsigned long size, procs;
  int have_size, have_procs;
  char topo[64];
  const char *speeds, *capacities;
} farm_cli;

/* The program's usage: `intro`, the options (--hosts defaulting to
 * `hosts_default`), `outro`. */
void farm_cli_help(const char *intro, const char *hosts_default, const char *outro);
/* Parse and check everything, before any VM or job is touched; `usage`
 * answers --help.  Bad input exits 2. */
void farm_cli_parse(int argc, char **argv, unsigned long hosts, void (*usage)(void), farm_cli *o);
void farm_cli_free(farm_cli *o);
/* Send each host a packed int array and check the sums they return:
 * 0 when every host answered right. */
int farm_selftest(const farm_xport *xp, const farm_cli *o, const int *tids);
/* SIGINT and SIGTERM set farm_interrupted; every wait checks it. */
void farm_catch_signals(void);

#endif
