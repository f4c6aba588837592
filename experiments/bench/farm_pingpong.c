/* farm_pingpong: PVM round-trip latency and bandwidth between two
 * tasks, through the farm's transport (envelope and checks included,
 * farm_msg.h), on the direct task-to-task route the master uses with
 * the workers, or with --pvmd through the pvmds, as workers send to
 * each other.
 * Usage: farm_pingpong [--pvmd] HOST_A HOST_B [MAXBYTES]   (a pvmd must
 * run; "." means anywhere).  CSV on stdout: bytes, round-trip µs
 * (median of many), one-way MB/s. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <limits.h>
#include <pvm3.h>
#include "farm_msg.h"
#include "cli.h"

#define RUN 77
static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp(const void *x, const void *y)
{
  double a = *(const double *)x, b = *(const double *)y;
  return a < b ? -1 : a > b;
}

/* Echo: return every SUM_REQ body to its sender until QUIT. */
static int echo(void)
{
  for (;;) {
    farm_in in;
    if (farm_recv(RUN, -1, -1, -1, &in) <= 0) break;
    int quit = in.tag == FARM_QUIT;
    if (!quit) farm_send(in.src, FARM_SUM_REP, RUN, in.body, in.len);
    farm_in_clear(&in);
    if (quit) break;
  }
  return 0;
}

static double rtt(int peer, const char *buf, int len)
{
  double t0 = now();
  farm_send(peer, FARM_SUM_REQ, RUN, buf, (size_t)len);
  farm_in in;
  if (farm_recv(RUN, peer, FARM_SUM_REP, 30, &in) <= 0) cli_die(1, "no echo");
  if (in.len != (size_t)len) cli_die(1, "echo of %zu bytes, not %d", in.len, len);
  farm_in_clear(&in);
  return now() - t0;
}

/* Ping: time round trips of growing size to the echo task. */
static int ping(int peer, int maxbytes)
{
  char *buf = calloc((size_t)maxbytes, 1);
  printf("bytes,rtt_us,mb_per_s\n");
  for (int len = 8; len <= maxbytes; len *= 8) {
    int n = len < 65536 ? 200 : 20;
    double *t = malloc((size_t)n * sizeof *t);
    rtt(peer, buf, len);
    for (int i = 0; i < n; i++) t[i] = rtt(peer, buf, len);
    qsort(t, (size_t)n, sizeof *t, cmp);
    double med = t[n / 2];
    printf("%d,%.1f,%.1f\n", len, med * 1e6, 2.0 * len / med / 1e6);
    free(t);
  }
  farm_send(peer, FARM_QUIT, RUN, NULL, 0);
  free(buf);
  return 0;
}

int main(int argc, char **argv)
{
  cli_init(argv[0]);
  pvm_setopt(PvmAutoErr, 0);
  int via_pvmd = argc > 1 && !strcmp(argv[1], "--pvmd");
  if (via_pvmd) { argv++; argc--; }
  int route = via_pvmd ? PvmAllowDirect : PvmRouteDirect;
  if (argc == 2 && !strcmp(argv[1], "--echo")) {
    pvm_mytid();
    pvm_setopt(PvmRoute, route);
    echo();
    pvm_exit();
    return 0;
  }
  if (argc == 3 && !strcmp(argv[1], "--ping")) {
    pvm_mytid();
    pvm_setopt(PvmRoute, route);
    farm_in in;
    int32_t peer = 0;
    if (farm_recv(RUN, pvm_parent(), FARM_SETUP, -1, &in) <= 0 || in.len != sizeof peer) cli_die(1, "no setup");
    memcpy(&peer, in.body, sizeof peer);
    farm_in_clear(&in);
    ping(peer, atoi(argv[2]));
    pvm_exit();
    return 0;
  }
  if (argc < 3 || argc > 4 || !strcmp(argv[1], "--help"))
    cli_usage_error("usage: farm_pingpong [--pvmd] HOST_A HOST_B [MAXBYTES]");
  int maxbytes = argc > 3 ? (int)cli_ulong("MAXBYTES", argv[3], 8, 64 << 20) : 8 << 20;
  if (pvm_mytid() < 0) cli_die(1, "no pvmd running");
  char self[PATH_MAX];
  ssize_t k = readlink("/proc/self/exe", self, sizeof self - 1);
  if (k <= 0) cli_die(1, "cannot find myself");
  self[k] = '\0';
  char mb[16];
  snprintf(mb, sizeof mb, "%d", maxbytes);
  char *eargv[] = { "--echo", NULL, NULL }, *pargv[] = { "--ping", mb, NULL, NULL };
  if (via_pvmd) {   /* the children see --pvmd first, as main expects */
    eargv[0] = "--pvmd"; eargv[1] = "--echo";
    pargv[0] = "--pvmd"; pargv[1] = "--ping"; pargv[2] = mb;
  }
  int te, tp;
  int fa = strcmp(argv[1], ".") ? PvmTaskHost : PvmTaskDefault, fb = strcmp(argv[2], ".") ? PvmTaskHost : PvmTaskDefault;
  if (pvm_spawn(self, eargv, fb, argv[2], 1, &te) != 1) cli_die(1, "cannot spawn the echo task (%d)", te);
  pvm_catchout(stdout);
  if (pvm_spawn(self, pargv, fa, argv[1], 1, &tp) != 1) cli_die(1, "cannot spawn the ping task (%d)", tp);
  int32_t t32 = te;
  farm_send(tp, FARM_SETUP, RUN, &t32, sizeof t32);
  pvm_exit();  /* waits for the ping task's output */
  return 0;
}
