/* farm_pingpong: round-trip time and bandwidth between two peers
 * through the farm's own transport (farm_xport.h: envelope, checks,
 * copies, and the waits the hosts use), built twice from this file:
 *
 *   farm_pingpong [--pvmd] HOST_A HOST_B [MAXBYTES]   PVM (a pvmd must
 *       run; "." means anywhere): spawns a ping and an echo task, on the
 *       direct task-to-task route the master uses (rows "pvm-farm") or,
 *       with --pvmd, through the pvmds, as workers send to each other
 *       (rows "pvm-pvmd");
 *   mpirun -np 2 farm_pingpong_mpi [MAXBYTES]   MPI: rank 0 pings rank 1,
 *       through the farm's MPI transport (rows "farm") and with plain
 *       blocking MPI_Send/MPI_Recv (rows "raw", for reference).
 *
 * Every message is sealed and checked as the farm's are (farm_auth.h:
 * MAC, sequence number), under a fixed key: a benchmark has no secret.
 * CSV on stdout: transport,bytes,rtt_us (median),mb_per_s (one way). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <limits.h>
#include "farm_xport.h"
#include "cli.h"
#ifdef LBFARM_MPI
#include <mpi.h>
#include "mpi_xport.h"
#else
#include <pvm3.h>
#include "lbpvm_xport.h"
#endif

#define RUN  77
#define PING FARM_LBMSG /* authenticated tags, as a run's messages are */
#define PONG FARM_REPORT

/* Every task's message keys: its transport id, the benchmark's key. */
static farm_auth *bench_auth(uint32_t self)
{
  static const unsigned char key[FARM_KEY_LEN] = {0};
  farm_auth *a;
  if (farm_auth_alloc(self, &a)) cli_die(1, "libsodium cannot start");
  farm_auth_set_key(a, key);
  return a;
}
static int cmp(const void *x, const void *y)
{
  double a = *(const double *)x, b = *(const double *)y;
  return a < b ? -1 : a > b;
}

/* Echo: return every PING body to its sender until QUIT. */
static void echo(const farm_xport *xp)
{
  for (;;) {
    farm_in in;
    if (xp->recv(xp->ctx, -1, -1, 60, &in) <= 0) break;
    int quit = in.tag == FARM_QUIT;
    if (!quit) xp->send(xp->ctx, in.src, PONG, in.body, in.len);
    xp->clear(xp->ctx, &in);
    if (quit) break;
  }
}

static double rtt_farm(const farm_xport *xp, int peer, const char *buf, int len)
{
  double t0 = cli_now();
  xp->send(xp->ctx, peer, PING, buf, (size_t)len);
  farm_in in;
  if (xp->recv(xp->ctx, peer, PONG, 30, &in) <= 0 || in.len != (size_t)len) cli_die(1, "no echo");
  xp->clear(xp->ctx, &in);
  return cli_now() - t0;
}

/* Median round trip of len bytes, n times after one warm-up; first,
 * 0.5 s of small round trips, so that start-up (connections, the
 * launcher's own work) is not measured. */
static void series(const char *name, double (*rtt)(const farm_xport *, int, const char *, int), const farm_xport *xp,
                   int peer, int maxbytes)
{
  char *buf = calloc((size_t)maxbytes, 1);
  if (!buf) cli_die(1, "out of memory");
  for (double t0 = cli_now(); cli_now() - t0 < 0.5;) rtt(xp, peer, buf, 8);
  for (int len = 8; len <= maxbytes; len *= 8) {
    int n = len < 65536 ? 200 : 20;
    double *t = malloc((size_t)n * sizeof *t);
    rtt(xp, peer, buf, len);
    for (int i = 0; i < n; i++) t[i] = rtt(xp, peer, buf, len);
    qsort(t, (size_t)n, sizeof *t, cmp);
    double med = t[n / 2];
    printf("%s,%d,%.1f,%.1f\n", name, len, med * 1e6, 2.0 * len / med / 1e6);
    fflush(stdout);
    free(t);
  }
  free(buf);
}

#ifdef LBFARM_MPI
/* Plain MPI: blocking send and receive of the bytes alone. */
static double rtt_raw(const farm_xport *xp, int peer, const char *buf, int len)
{
  (void)xp;
  double t0 = cli_now();
  MPI_Send(buf, len, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
  MPI_Recv((char *)buf, len, MPI_BYTE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return cli_now() - t0;
}

static void echo_raw(int maxbytes)
{
  char *buf = malloc((size_t)maxbytes);
  for (;;) {
    MPI_Status st;
    int n;
    MPI_Recv(buf, maxbytes, MPI_BYTE, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    if (st.MPI_TAG == 2) break;
    MPI_Get_count(&st, MPI_BYTE, &n);
    MPI_Send(buf, n, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
  }
  free(buf);
}

int main(int argc, char **argv)
{
  cli_init(argv[0]);
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2) cli_die(2, "run with 2 ranks: mpirun -np 2 %s [MAXBYTES]", argv[0]);
  int maxbytes = argc > 1 ? (int)cli_ulong("MAXBYTES", argv[1], 8, 64 << 20) : 8 << 20;
  farm_xport xp;
  farm_auth *auth = bench_auth((uint32_t)rank);
  if (mpi_xport_init(&xp, RUN, auth)) cli_die(1, "out of memory");
  if (rank == 0) {
    printf("transport,bytes,rtt_us,mb_per_s\n");
    series("mpi-farm", rtt_farm, &xp, 1, maxbytes);
    xp.send(xp.ctx, 1, FARM_QUIT, NULL, 0);
    series("mpi-raw", rtt_raw, &xp, 1, maxbytes);
    MPI_Send(NULL, 0, MPI_BYTE, 1, 2, MPI_COMM_WORLD);
  } else {
    echo(&xp);
    echo_raw(maxbytes);
  }
  mpi_xport_free(&xp, 10);
  farm_auth_free(auth);
  MPI_Finalize();
  return 0;
}
#else
int main(int argc, char **argv)
{
  cli_init(argv[0]);
  pvm_setopt(PvmAutoErr, 0);
  int via_pvmd = argc > 1 && !strcmp(argv[1], "--pvmd");
  if (via_pvmd) {
    argv++;
    argc--;
  }
  farm_xport xp;
  farm_auth *auth = bench_auth((uint32_t)pvm_mytid());
  if (lbpvm_xport_init(&xp, RUN, auth)) cli_die(1, "out of memory");
  if (argc >= 2 && (!strcmp(argv[1], "--echo") || !strcmp(argv[1], "--ping"))) {
    pvm_setopt(PvmRoute, via_pvmd ? PvmAllowDirect : PvmRouteDirect);
    if (!strcmp(argv[1], "--echo")) {
      echo(&xp);
    } else {
      farm_in in;
      int32_t peer = 0;
      if (argc != 3 || xp.recv(xp.ctx, pvm_parent(), FARM_SETUP, 30, &in) <= 0 || in.len != sizeof peer)
        cli_die(1, "no peer");
      memcpy(&peer, in.body, sizeof peer);
      xp.clear(xp.ctx, &in);
      printf("transport,bytes,rtt_us,mb_per_s\n");
      series(via_pvmd ? "pvm-pvmd" : "pvm-farm", rtt_farm, &xp, peer, atoi(argv[2]));
      xp.send(xp.ctx, peer, FARM_QUIT, NULL, 0);
    }
    lbpvm_xport_free(&xp);
    farm_auth_free(auth);
    pvm_exit();
    return 0;
  }
  if (argc < 3 || argc > 4) cli_usage_error("usage: farm_pingpong [--pvmd] HOST_A HOST_B [MAXBYTES]");
  int maxbytes = argc > 3 ? (int)cli_ulong("MAXBYTES", argv[3], 8, 64 << 20) : 8 << 20;
  if ((int)farm_auth_self(auth) < 0) cli_die(1, "no pvmd running");
  char self[PATH_MAX];
  ssize_t k = readlink("/proc/self/exe", self, sizeof self - 1);
  if (k <= 0) cli_die(1, "cannot find myself");
  self[k] = '\0';
  char mb[16];
  snprintf(mb, sizeof mb, "%d", maxbytes);
  /* the children see --pvmd first, as main expects */
  char *eargv[] = {"--pvmd", "--echo", NULL}, *pargv[] = {"--pvmd", "--ping", mb, NULL};
  char **ea = via_pvmd ? eargv : eargv + 1, **pa = via_pvmd ? pargv : pargv + 1;
  int te, tp;
  int fa = strcmp(argv[1], ".") ? PvmTaskHost : PvmTaskDefault,
      fb = strcmp(argv[2], ".") ? PvmTaskHost : PvmTaskDefault;
  if (pvm_spawn(self, ea, fb, argv[2], 1, &te) != 1) cli_die(1, "cannot spawn the echo task (%d)", te);
  pvm_catchout(stdout);
  if (pvm_spawn(self, pa, fa, argv[1], 1, &tp) != 1) cli_die(1, "cannot spawn the ping task (%d)", tp);
  int32_t peer = te;
  xp.send(xp.ctx, tp, FARM_SETUP, &peer, sizeof peer);
  lbpvm_xport_free(&xp);
  farm_auth_free(auth);
  pvm_exit(); /* waits for the ping task's output */
  return 0;
}
#endif
