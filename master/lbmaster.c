/* lbmaster: the lbfarm PVM master.  The run itself is master/master_run.c
 * over the PVM transport (lbpvm_xport.h); here, the virtual machine and
 * the workers' spawn. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <time.h>
#include <pvm3.h>
#include "lbpvm_catchout.h"
#include "master_cli.h"
#include "master_ctx.h"
#include "master_out.h"
#include "lbpvm_xport.h"
#include "app_blas.h"
#include "app_mem.h"
#include "lbpvm_vm.h"
#include "lbpvm_tmp.h"
#include "lbpvm_guard.h"
#include "farm_throttle.h"
#include "lb_errno.h"
#include "cli.h"

static void usage(void)
{
  master_cli_help("Usage: lbmaster [OPTION]...\n"
                  "Run the lbfarm task farm on the PVM virtual machine: spawn one worker per\n"
                  "logical host, hand out the processes of a workload, let the policy balance\n"
                  "them, collect and verify the results, and write one CSV row.  If no pvmd\n"
                  "is running, lbmaster starts a private one and halts it at the end; from the\n"
                  "PVM console (spawn -> lbmaster ...) it uses the running virtual machine.\n\n",
                  "6",
                  "Environment: LBFARM_WORKER overrides the worker executable's path;\n"
                  "PVM_TMP and PVM_VMID select a private virtual machine.\n"
                  "Exit status: 0 verified, 1 a run that failed, 2 bad input.\n");
}

#define SPAWN_S     15.0
#define HEARTBEAT_S 2.0 /* a stopped pvmd is noticed within this + the guard's bound */

/* Spawn n workers, one per PVM host while the VM has enough; tell the
 * master when one exits or its host leaves the VM.  A worker's
 * arguments, which any task of its host can read, hold the run id and
 * the commitment to the run's key, never the key (farm_auth.h). */
static int spawn_workers(const lbpvm_vm *vm, uint32_t run, const farm_auth *auth, int n, int *tids)
{
  char path[PATH_MAX], runarg[16], commit[FARM_COMMIT_HEX];
  if (lbpvm_worker_path(path, sizeof path)) return -1;
  snprintf(runarg, sizeof runarg, "%u", run);
  farm_auth_commit_hex(auth, commit);
  char *wargv[] = {runarg, commit, NULL};
  int nhost, narch;
  struct pvmhostinfo *hi;
  lbpvm_guard_begin("asking the pvmd for its host table", LBPVM_GUARD_S);
  if (pvm_config(&nhost, &narch, &hi) < 0) nhost = 0;
  lbpvm_guard_end();
  /* Passed on, so that no worker has to start again for it
   * (app_blas_one_thread); pvm_export only edits PVM_EXPORT here. */
  pvm_export("OPENBLAS_NUM_THREADS");
  for (int i = 0; i < n; i++) {
    int one = vm->nhosts >= n && nhost >= n;
    /* A pvmd starts a task in milliseconds; on another host, a few. */
    lbpvm_guard_begin("spawning a worker", SPAWN_S);
    int got = pvm_spawn(path, wargv, one ? PvmTaskHost : PvmTaskDefault, one ? hi[i].hi_name : NULL, 1, &tids[i]);
    lbpvm_guard_end();
    if (got != 1) {
      fprintf(stderr, "%s: cannot spawn worker %d from %s (PVM error %d)\n", cli_prog(), i, path, tids[i]);
      tids[i] = 0;
      return -1;
    }
  }
  lbpvm_guard_begin("asking the pvmd for exit notices", LBPVM_GUARD_S);
  pvm_notify(PvmTaskExit, FARM_EXITED, n, tids);
  lbpvm_guard_end();
  /* A host that leaves the VM (its pvmd stopped or lost) is reported
   * too; the workers on it are gone with it. */
  if (nhost > 1) {
    int *dtids = malloc((size_t)nhost * sizeof *dtids);
    if (dtids) {
      for (int i = 0; i < nhost; i++) dtids[i] = hi[i].hi_tid;
      lbpvm_guard_begin("asking the pvmd for host notices", LBPVM_GUARD_S);
      pvm_notify(PvmHostDelete, FARM_HOSTDEL, nhost, dtids);
      lbpvm_guard_end();
      free(dtids);
    }
  }
  return 0;
}

/* Emulated hosts that ask for more CPU than the machine they share has
 * (six of speed 1.0 on two cores, the default from the console) cannot
 * reach the ideal, which counts their speeds: say so, once, with the
 * speed that fits. */
static void note_oversubscribed(const master_opts *o, const int *tids, int n)
{
  cpu_set_t set;
  int cores = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 0;
  int me = pvm_tidtohost(pvm_mytid()), here = 0;
  double ask = 0;
  for (int i = 0; i < n; i++)
    if (tids[i] > 0 && pvm_tidtohost(tids[i]) == me) {
      here++;
      ask += o->speed[i];
    }
  if (cores <= 0 || here < 2 || ask <= cores + 1e-9) return;
  double fit = floor(0.9 * cores / here * 100) / 100;
  fprintf(master_out_people(o),
          "lbmaster: note: the %d workers on this host ask for %.2f cores (speeds summed) "
          "of its %d: sharing them, they cannot reach the ideal, which counts those speeds (ratio >= %.1f; the "
          "ideal at the CPU share received is the fair reference); --speeds %.2f fits this machine, as "
          "scripts/main.sh does\n",
          here, ask, cores, ask / cores, fit > 0.01 ? fit : 0.01);
  fflush(master_out_people(o));
}

int main(int argc, char **argv)
{
  app_blas_one_thread(argv);
  cli_init(argv[0]);
  cli_version_opt(argc, argv);
  app_mem_setup(); /* the master receives every result */
  master_cli o;
  master_cli_parse(argc, argv, 6, usage, &o);
  o.f.driver = "lbmaster";
  /* Ctrl-C and SIGTERM: the run stops at its next short wait; if it is
   * still there after a grace period (in a libpvm call, say), the guard
   * ends it, the VM it started and the workers (lbpvm_guard.h). */
  master_catch_signals();
  lbpvm_guard_init();
  lbpvm_guard_signals(&master_interrupted);
  lbpvm_vm vm;
  if (lbpvm_vm_join(&vm)) return CLI_EXIT_FAIL;
  uint32_t run = ((uint32_t)vm.mytid ^ (uint32_t)time(NULL)) & 0x7fffffffu;
  farm_throttle_set_run(run); /* the workers' cgroups it may remove: this run's */
  if (vm.started && lbpvm_tmp_run_write(run)) cli_die(CLI_EXIT_FAIL, "cannot write in PVM_TMP (%s)", lbpvm_tmp_dir());
  fprintf(master_out_people(&o.f), "lbmaster: t%x on a %d-host virtual machine (%s), run %u, %lu workers\n", vm.mytid,
          vm.nhosts, vm.started ? "started here" : "already running", run, o.hosts);
  /* A bound that expires ends the process with _exit: nothing buffered
   * may be left behind then. */
  fflush(master_out_people(&o.f));
  int *tids = calloc(o.hosts, sizeof *tids);
  farm_auth *auth;
  if (farm_auth_alloc((uint32_t)vm.mytid, &auth)) cli_die(CLI_EXIT_FAIL, "%s", lb_errmsg());
  farm_auth_draw(auth);
  farm_xport xp;
  if (!tids || lbpvm_xport_init(&xp, run, auth)) cli_die(CLI_EXIT_FAIL, "out of memory");
  lbpvm_xport_heartbeat(&xp, HEARTBEAT_S);
  int rc = CLI_EXIT_FAIL;
  /* Children's output (e.g. a dropped message) shows up here. */
  if (!o.selftest) pvm_catchout(lbpvm_catchout_stream(stderr));
  int spawned = spawn_workers(&vm, run, auth, (int)o.hosts, tids) == 0;
  lbpvm_xport_learn_pids(&xp, tids, (int)o.hosts);
  if (spawned && !o.selftest) note_oversubscribed(&o.f, tids, (int)o.hosts);
  if (o.selftest) {
    if (spawned) rc = master_selftest(&xp, &o, tids) == 0 ? CLI_EXIT_OK : CLI_EXIT_FAIL;
    /* Also after a partial spawn: leave no orphans. */
    for (unsigned long i = 0; i < o.hosts; i++)
      if (tids[i] > 0) master_send_quit(&xp, tids[i]);
  } else {
    /* Results reach the master by direct links, not through its pvmd;
     * after a partial spawn, master_run stops the workers and reports. */
    if (spawned) pvm_setopt(PvmRoute, PvmRouteDirect);
    int r = master_run(&xp, tids, &o.f);
    rc = r == 0 ? CLI_EXIT_OK : r == 130 ? 130 : CLI_EXIT_FAIL;
  }
  free(tids);
  lbpvm_xport_free(&xp);
  farm_auth_free(auth);
  master_cli_free(&o);
  fflush(stdout);
  int started = vm.started;
  vm.status = master_interrupted ? 130 : rc;
  lbpvm_vm_leave(&vm);
  if (master_interrupted) {
    fprintf(stderr, "%s: interrupted: the workers were stopped%s\n", cli_prog(),
            started ? " and the virtual machine this run started was halted" : "");
    rc = 130;
  }
  return rc;
}
