/* lbworker: the lbfarm PVM worker, one per logical host.  Spawned by
 * lbmaster; not meant to be run by hand.  The host itself is
 * worker_host.c, here run over the PVM transport (lbpvm_xport.h). */
#include <stdio.h>
#include <string.h>
#include <pvm3.h>
#include "worker_host.h"
#include "lbpvm_xport.h"
#include "lbpvm_guard.h"
#include "app_blas.h"
#include "app_mem.h"
#include "lb_errno.h"
#include "cli.h"

static void usage(void)
{
  printf("Usage: lbworker RUN-ID KEY-COMMITMENT\n"
         "The lbfarm PVM worker.  lbmaster spawns one per logical host and\n"
         "talks to it through PVM messages; running it by hand does nothing\n"
         "useful.  KEY-COMMITMENT (64 hexadecimal digits) names the run's key,\n"
         "which only the master's SETUP carries.\n\n"
         "      --version print the version and the commit it was built from\n"
         "  -h, --help   show this help and exit\n");
}

int main(int argc, char **argv)
{
  app_blas_one_thread(argv);
  cli_init(argv[0]);
  cli_version_opt(argc, argv);
  if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
    usage();
    return 0;
  }
  if (argc != 3) cli_usage_error("expected two arguments, the run id and the key's commitment");
  uint32_t run = (uint32_t)cli_ulong("RUN-ID", argv[1], 0, 0x7fffffff);
  unsigned char commit[FARM_KEY_LEN];
  if (farm_auth_commit_parse(argv[2], commit)) cli_usage_error("KEY-COMMITMENT: %s", lb_errmsg());
  app_mem_setup();
  /* Every libpvm call that can wait has a bound; past it, or on SIGTERM
   * (pvm_kill) or SIGINT, the worker leaves its cgroup and removes its
   * sockets before it ends (lbpvm_guard.h). */
  lbpvm_guard_init();
  lbpvm_guard_signals(NULL);
  pvm_setopt(PvmAutoErr, 0);
  lbpvm_guard_begin("joining the virtual machine", LBPVM_GUARD_S);
  int me = pvm_mytid();
  lbpvm_guard_end();
  if (me < 0) cli_die(CLI_EXIT_USAGE, "not running under PVM");
  /* Messages between workers go through the pvmd, which buffers them:
   * a direct send of a large result would block this throttled sender
   * until the throttled receiver drained it (docs/PERFORMANCE.md).  The
   * master asks for a direct link, which a worker grants. */
  pvm_setopt(PvmRoute, PvmAllowDirect);
  /* Fragments of 256 KB instead of PVM's 4 KB: fewer system calls per
   * relayed byte on a throttled host. */
  pvm_setopt(PvmFragSize, 262144);
  farm_auth *auth;
  if (farm_auth_alloc((uint32_t)me, &auth)) cli_die(CLI_EXIT_FAIL, "%s", lb_errmsg());
  farm_auth_expect(auth, commit);
  farm_xport xp;
  if (lbpvm_xport_init(&xp, run, auth)) cli_die(CLI_EXIT_FAIL, "out of memory");
  int parent = pvm_parent();
  /* The worker leaves when its master does, whatever happens to it. */
  if (parent > 0) {
    lbpvm_guard_begin("asking the pvmd for the master's exit notice", LBPVM_GUARD_S);
    pvm_notify(PvmTaskExit, FARM_EXITED, 1, &parent);
    lbpvm_guard_end();
  }
  int rc = worker_host_run(&xp, parent);
  lbpvm_xport_free(&xp);
  farm_auth_free(auth);
  lbpvm_guard_begin("leaving the virtual machine", LBPVM_GUARD_S);
  pvm_exit();
  lbpvm_guard_end();
  return rc;
}
