/* lbmpi: the lbfarm task farm over MPI.  Rank 0 is the master
 * (master/master_run.c), every other rank one logical host
 * (worker/worker_host.c), both over the MPI transport (mpi_xport.h): the
 * same engine, workloads, verification and CSV row as lbmaster. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>
#include <mpi.h>
#include "master_cli.h"
#include "master_ctx.h"
#include "worker_host.h"
#include "master_out.h"
#include "mpi_xport.h"
#include "farm_throttle.h"
#include "app_blas.h"
#include "app_mem.h"
#include "lb_errno.h"
#include "cli.h"

/* A send still under way this long after the run is a peer that left. */
#define DRAIN_S 10.0

static void usage(void)
{
  master_cli_help("Usage: mpirun -np HOSTS+1 lbmpi [OPTION]...\n"
                  "Run the lbfarm task farm over MPI: rank 0 is the master, every other rank\n"
                  "one logical host.  The master hands out the processes of a workload, the\n"
                  "policy balances them, and the master collects and verifies the results and\n"
                  "writes one CSV row, as lbmaster does on PVM.\n\n",
                  "the ranks less one",
                  "Run with as many ranks as hosts plus one; on one machine add\n"
                  "--oversubscribe, as root --allow-run-as-root.  A rank that dies ends the\n"
                  "job: MPI has no failure recovery of its own.\n"
                  "Exit status: 0 verified, 1 a run that failed, 2 bad input.\n");
}

/* This process's rank and the job's size as the launcher tells them
 * before MPI_Init (Open MPI, PMIx, Slurm, MPICH), or -1. */
static long env_long(const char *const *names)
{
  for (; *names; names++) {
    const char *v = getenv(*names);
    if (v && *v) return strtol(v, NULL, 10);
  }
  return -1;
}

/* Parse on every rank before MPI_Init, so bad input or --help ends the
 * job without starting MPI; only rank 0 speaks. */
static void parse(int argc, char **argv, master_cli *o)
{
  static const char *const ranks[] = {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "SLURM_PROCID", "PMI_RANK", NULL};
  static const char *const sizes[] = {"OMPI_COMM_WORLD_SIZE", "SLURM_NTASKS", "PMI_SIZE", NULL};
  long rank = env_long(ranks), size = env_long(sizes);
  int quiet = rank > 0, saved[2] = {-1, -1};
  if (quiet) {
    int null = open("/dev/null", O_WRONLY);
    fflush(stdout);
    for (int fd = 1; fd <= 2 && null >= 0; fd++) {
      saved[fd - 1] = dup(fd);
      dup2(null, fd);
    }
    if (null >= 0) close(null);
  }
  master_cli_parse(argc, argv, size > 1 ? (unsigned long)(size - 1) : 6, usage, o);
  if (quiet) {
    fflush(stdout);
    for (int fd = 1; fd <= 2; fd++)
      if (saved[fd - 1] >= 0) {
        dup2(saved[fd - 1], fd);
        close(saved[fd - 1]);
      }
  }
}

static int master(const farm_xport *xp, master_cli *o, int size)
{
  int n = size - 1, rc;
  int *ranks = malloc((size_t)n * sizeof *ranks);
  if (!ranks) cli_die(CLI_EXIT_FAIL, "out of memory");
  for (int i = 0; i < n; i++) ranks[i] = i + 1;
  fprintf(master_out_people(&o->f), "lbmpi: rank 0 of %d, run %u, %d hosts\n", size, xp->run, n);
  if (o->selftest) {
    rc = master_selftest(xp, o, ranks) == 0 ? CLI_EXIT_OK : CLI_EXIT_FAIL;
    for (int i = 0; i < n; i++) master_send_quit(xp, ranks[i]);
  } else {
    int r = master_run(xp, ranks, &o->f);
    rc = r == 0 ? CLI_EXIT_OK : r == 130 ? 130 : CLI_EXIT_FAIL;
  }
  free(ranks);
  fflush(stdout);
  return rc;
}

int main(int argc, char **argv)
{
  app_blas_one_thread(argv);
  cli_init(argv[0]);
  cli_version_opt(argc, argv);
  app_mem_setup();
  master_cli o;
  parse(argc, argv, &o);
  o.f.driver = "lbmpi";
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int rc = CLI_EXIT_USAGE;
  if (size < 2 || o.hosts != (unsigned long)(size - 1)) {
    if (rank == 0)
      fprintf(stderr, "%s: %lu hosts need %lu MPI ranks (one master and one per host), not %d\n", cli_prog(), o.hosts,
              o.hosts + 1, size);
  } else {
    uint32_t run = ((uint32_t)time(NULL) ^ ((uint32_t)getpid() << 8)) & 0x7fffffffu;
    MPI_Bcast(&run, 1, MPI_UINT32_T, 0, MPI_COMM_WORLD);
    /* The run's key: drawn by rank 0, sent to the others by MPI, which
     * only the job's ranks take part in. */
    farm_auth *auth;
    unsigned char key[FARM_KEY_LEN];
    if (farm_auth_alloc((uint32_t)rank, &auth)) cli_die(CLI_EXIT_FAIL, "%s", lb_errmsg());
    if (rank == 0) {
      farm_auth_draw(auth);
      memcpy(key, farm_auth_key(auth), FARM_KEY_LEN);
    }
    MPI_Bcast(key, FARM_KEY_LEN, MPI_UNSIGNED_CHAR, 0, MPI_COMM_WORLD);
    farm_auth_set_key(auth, key);
    farm_auth_wipe(key, sizeof key);
    farm_xport xp;
    if (mpi_xport_init(&xp, run, auth)) cli_die(CLI_EXIT_FAIL, "out of memory");
    if (rank == 0) {
      master_catch_signals();
      rc = master(&xp, &o, size);
    } else {
      rc = worker_host_run(&xp, 0);
    }
    int ended = rank == 0 ? mpi_xport_ended(&xp) : 0;
    if (ended) {
      /* A rank taken for failed may be frozen: it would never reach
       * MPI_Finalize.  The run is written; end the job with its status. */
      fprintf(stderr, "%s: %d rank(s) taken for failed, which MPI cannot end alone: ending the job (exit %d)\n",
              cli_prog(), ended, rc);
      fflush(stdout);
      fflush(stderr);
      /* A frozen rank dies in its cgroup with SIGKILL and cannot remove
       * it; this machine's are removed once empty (another machine's
       * stay, as a dead host's do under PVM: docs/FARM.md). */
      farm_throttle_forget_run_later(run, 10.0);
      MPI_Abort(MPI_COMM_WORLD, rc);
    }
    int left = mpi_xport_free(&xp, DRAIN_S);
    farm_auth_free(auth);
    if (left) {
      fprintf(stderr, "%s: rank %d: %d message(s) never received after %g s\n", cli_prog(), rank, left, DRAIN_S);
      MPI_Abort(MPI_COMM_WORLD, CLI_EXIT_FAIL);
    }
  }
  master_cli_free(&o);
  MPI_Finalize();
  return rc;
}
