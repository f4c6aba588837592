/* pvm_intruder: a task in the test's virtual machine that is not one of
 * the farm's, for tests/farm_intruder.sh.
 *
 *   pvm_intruder exited
 *     joins the running VM (PVM_TMP, PVM_VMID), finds lbmaster and one of
 *     its workers, and sends lbmaster a 4-byte message with the tag of a
 *     pvmd's task-exit notice (EXITED) naming that worker.
 *
 * Every wait is bounded (30 s); exit 0 when all went as expected. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <pvm3.h>
#include "farm_msg.h"
#include "cli.h"

#define WAIT_S 30.0

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int named(const struct pvmtaskinfo *t, const char *name)
{
  const char *s = strrchr(t->ti_a_out, '/');
  return !strcmp(s ? s + 1 : t->ti_a_out, name);
}

static int exited(void)
{
  if (pvm_mytid() < 0) { fprintf(stderr, "pvm_intruder: no virtual machine to join\n"); return 1; }
  int master = 0, worker = 0;
  for (double end = now() + WAIT_S; !(master && worker) && now() < end; usleep(50000)) {
    int n;
    struct pvmtaskinfo *ti;
    if (pvm_tasks(0, &n, &ti) < 0) continue;
    for (int i = 0; i < n; i++)
      if (named(&ti[i], "lbworker")) { worker = ti[i].ti_tid; master = ti[i].ti_ptid; }
    for (int i = 0; i < n; i++)
      if (named(&ti[i], "lbmaster")) master = ti[i].ti_tid;
  }
  if (!(master && worker)) {
    fprintf(stderr, "pvm_intruder: no lbmaster with workers within %g s\n", WAIT_S);
    pvm_exit();
    return 1;
  }
  pvm_initsend(PvmDataDefault);
  pvm_pkint(&worker, 1, 1);
  int rc = pvm_send(master, FARM_EXITED) < 0;
  printf("pvm_intruder: t%x sent lbmaster t%x an EXITED notice naming worker t%x%s\n", pvm_mytid(), master, worker,
         rc ? ": send failed" : "");
  pvm_exit();
  return rc;
}

int main(int argc, char **argv)
{
  cli_init(argv[0]);
  pvm_setopt(PvmAutoErr, 0);
  if (argc == 2 && !strcmp(argv[1], "exited")) return exited();
  fprintf(stderr, "usage: pvm_intruder exited\n");
  return 2;
}
