/* pvm_intruder: a task in the test's virtual machine that is not one of
 * the farm's, for tests/farm_intruder.sh.
 *
 *   pvm_intruder exited
 *     joins the running VM (PVM_TMP, PVM_VMID), finds lbmaster and one of
 *     its workers, and sends lbmaster a 4-byte message with the tag of a
 *     pvmd's task-exit notice (EXITED) naming that worker.
 *   pvm_intruder setup-t0
 *     starts a VM of its own and spawns lbworker three times, with SETUPs
 *     whose start time is two days behind this clock, two days ahead, and
 *     now, each followed by STOP: the first two must be refused (the
 *     worker says so and exits without a report), the last accepted (it
 *     reports).
 *
 * Every wait is bounded (30 s); exit 0 when all went as expected. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/time.h>
#include <unistd.h>
#include <pvm3.h>
#include "lbpvm_msg.h"
#include "farm_throttle.h"
#include "lbpvm_vm.h"
#include "lb_errno.h"
#include "cli.h"

#define WAIT_S 30.0
#define RUN 4242u

static int named(const struct pvmtaskinfo *t, const char *name)
{
  const char *s = strrchr(t->ti_a_out, '/');
  return !strcmp(s ? s + 1 : t->ti_a_out, name);
}

static int exited(void)
{
  if (pvm_mytid() < 0) { fprintf(stderr, "pvm_intruder: no virtual machine to join\n"); return 1; }
  int master = 0, worker = 0;
  for (double end = cli_now() + WAIT_S; !(master && worker) && cli_now() < end; usleep(50000)) {
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

/* The workers' output, caught: a worker's ends with "[tTID] EOF". */
static FILE *caught;

static int has_eof(int tid)
{
  char mark[32], line[512];
  snprintf(mark, sizeof mark, "[t%x] EOF", tid);
  fflush(caught);
  rewind(caught);
  while (fgets(line, sizeof line, caught))
    if (!strncmp(line, mark, strlen(mark))) return 1;
  return 0;
}

/* Wait for the end of a worker's output; libpvm takes it in while it
 * waits for a message (of a tag nobody sends). */
static void wait_eof(int tid)
{
  for (double end = cli_now() + WAIT_S; !has_eof(tid) && cli_now() < end;) {
    struct timeval tv = { 0, 100000 };
    pvm_trecv(-1, 9999, &tv);
  }
  fseek(caught, 0, SEEK_END);
}

/* SETUP of a one-host farm with start time t0, then STOP; 1 if the
 * worker reported (accepted), 0 if it exited without (refused), -1 if
 * neither happened in time. */
static int one_setup(const char *path, double t0)
{
  char runarg[16];
  snprintf(runarg, sizeof runarg, "%u", RUN);
  char *argv[] = { runarg, NULL };
  int tid;
  if (pvm_spawn((char *)path, argv, PvmTaskDefault, NULL, 1, &tid) != 1) {
    fprintf(stderr, "pvm_intruder: cannot spawn %s (PVM error %d)\n", path, tid);
    return -1;
  }
  pvm_notify(PvmTaskExit, FARM_EXITED, 1, &tid);
  uint32_t edges[1][2];
  farm_setup s = { .me = 0, .nhosts = 1, .policy = LB_POLICY_NONE, .w = { APP_PRIMES, 1000, 1, 1 },
                   .throttle = FARM_THROTTLE_OFF, .quantum_s = 0.01, .t0 = t0, .tids = &tid, .edges = edges };
  lb_node_params_default(&s.par);
  unsigned char *buf;
  size_t len;
  if (farm_setup_encode(&s, &buf, &len)) { fprintf(stderr, "pvm_intruder: %s\n", lb_errmsg()); return -1; }
  lbpvm_send(tid, FARM_SETUP, RUN, buf, len);
  lbpvm_send(tid, FARM_STOP, RUN, NULL, 0);
  free(buf);
  int reported = 0;
  for (double end = cli_now() + WAIT_S; cli_now() < end;) {
    farm_in in;
    int r = lbpvm_recv(RUN, -1, -1, end - cli_now(), &in);
    if (r <= 0) break;
    int tag = in.tag, src = in.src, gone = tag == FARM_EXITED && in.notice == tid;
    lbpvm_in_clear(&in);
    if (tag == FARM_REPORT && src == tid) reported = 1;
    if (gone) {
      wait_eof(tid);
      return reported;
    }
  }
  fprintf(stderr, "pvm_intruder: worker t%x neither reported nor exited within %g s\n", tid, WAIT_S);
  pvm_kill(tid);
  return -1;
}

static int setup_t0(void)
{
  char path[4096];
  lbpvm_vm vm;
  if (lbpvm_worker_path(path, sizeof path) || lbpvm_vm_join(&vm)) return 1;
  /* The workers' output: their refusals are part of the check. */
  if (!(caught = tmpfile())) { lbpvm_vm_leave(&vm); return 1; }
  pvm_catchout(caught);
  static const struct { const char *what; double off; int accept; } cases[] = {
    { "two days behind", -2 * 86400.0, 0 }, { "two days ahead", 2 * 86400.0, 0 }, { "now", 0, 1 },
  };
  int bad = 0;
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    int got = one_setup(path, cli_epoch() + cases[k].off);
    const char *verdict = got < 0 ? "no answer" : got ? "accepted" : "refused";
    printf("pvm_intruder: SETUP with a start time %s: %s\n", cases[k].what, verdict);
    bad += got != cases[k].accept;
  }
  lbpvm_vm_leave(&vm);
  rewind(caught);
  for (int c; (c = getc(caught)) != EOF;) putchar(c);
  fclose(caught);
  return bad != 0;
}

int main(int argc, char **argv)
{
  cli_init(argv[0]);
  pvm_setopt(PvmAutoErr, 0);
  if (argc == 2 && !strcmp(argv[1], "exited")) return exited();
  if (argc == 2 && !strcmp(argv[1], "setup-t0")) return setup_t0();
  fprintf(stderr, "usage: pvm_intruder exited|setup-t0\n");
  return 2;
}
