/* pvmd_hol: how long a pvmd holds messages between live hosts once one
 * packet of it goes to a host whose pvmd is dead (docs/FARM.md, "Why
 * results were held up after a pvmd was killed").  Plain libpvm, no
 * farm code.  Run by experiments/faults/hol.sh on the six-namespace
 * cluster:
 *
 *   pvmd_hol SECONDS POKE_S [DELETE_S]    (on h1) spawns a sink on h3
 *       and a sender on h2; the sender sends this task a small message
 *       every 0.1 s, stamped with the calendar clock (one machine: one
 *       clock), and at POKE_S one message to the sink; at DELETE_S this
 *       task deletes h3 from the virtual machine (pvm_delhosts, as
 *       lbmaster does for a fenced host; the console cannot: it syncs
 *       clocks with every host as it starts, and waits for a dead one).
 *       Prints "t_s,latency_s" per message received, t from the start;
 *       ends after SECONDS.
 *
 * Every process ends itself by alarm() (SECONDS + 30): a libpvm call
 * that waits on a dead pvmd has no bound of its own. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <pvm3.h>

enum { TAG_TICK = 1, TAG_POKE = 2, TAG_SINK = 3 };

static double now(void)
{
  struct timespec t;
  clock_gettime(CLOCK_REALTIME, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int sender(int master, int sink, double secs, double poke)
{
  double t0 = now(), next = t0;
  int poked = 0;
  while (now() - t0 < secs) {
    if (!poked && now() - t0 >= poke) {
      pvm_initsend(PvmDataRaw);
      pvm_pkint(&master, 1, 1);
      pvm_send(sink, TAG_SINK);
      poked = 1;
    }
    double t = now();
    pvm_initsend(PvmDataRaw);
    pvm_pkdouble(&t, 1, 1);
    pvm_send(master, TAG_TICK);
    next += 0.1;
    double w = next - now();
    if (w > 0) usleep((useconds_t)(w * 1e6));
  }
  return 0;
}

int main(int argc, char **argv)
{
  pvm_setopt(PvmAutoErr, 0);
  if (argc == 2 && !strcmp(argv[1], "--help")) {
    printf("Usage: pvmd_hol SECONDS POKE_S [DELETE_S]   (on h1 of the six-namespace cluster; see hol.sh)\n");
    return 0;
  }
  if (argc >= 2 && !strcmp(argv[1], "sink")) {
    alarm(600);
    pvm_recv(-1, -1);
    pvm_exit();
    return 0;
  }
  if (argc == 6 && !strcmp(argv[1], "send")) {
    double secs = atof(argv[4]);
    alarm((unsigned)secs + 30);
    /* The pvmds' route, as the farm's workers use between each other. */
    pvm_setopt(PvmRoute, PvmDontRoute);
    int rc = sender((int)strtol(argv[2], NULL, 16), (int)strtol(argv[3], NULL, 16), secs, atof(argv[5]));
    pvm_exit();
    return rc;
  }
  if (argc != 3 && argc != 4) {
    fprintf(stderr, "pvmd_hol: expected SECONDS POKE_S [DELETE_S] (see --help)\n");
    return 2;
  }
  double secs = atof(argv[1]), poke = atof(argv[2]), del = argc == 4 ? atof(argv[3]) : -1;
  if (!(secs > 0 && secs < 3600) || !(poke >= 0 && poke < secs) || (argc == 4 && !(del > 0 && del < secs))) {
    fprintf(stderr, "pvmd_hol: SECONDS in (0, 3600), POKE_S and DELETE_S in [0, SECONDS)\n");
    return 2;
  }
  alarm((unsigned)secs + 30);
  int me = pvm_mytid(), sink, snd;
  if (me < 0) {
    fprintf(stderr, "pvmd_hol: no pvmd\n");
    return 1;
  }
  char *self = realpath("/proc/self/exe", NULL), a2[32], a3[32], a4[32], a5[32];
  char *sargs[] = {"sink", NULL};
  if (!self || pvm_spawn(self, sargs, PvmTaskHost, "h3", 1, &sink) != 1) {
    fprintf(stderr, "pvmd_hol: cannot spawn the sink on h3\n");
    return 1;
  }
  snprintf(a2, sizeof a2, "%x", me);
  snprintf(a3, sizeof a3, "%x", sink);
  snprintf(a4, sizeof a4, "%g", secs);
  snprintf(a5, sizeof a5, "%g", poke);
  char *args[] = {"send", a2, a3, a4, a5, NULL};
  if (pvm_spawn(self, args, PvmTaskHost, "h2", 1, &snd) != 1) {
    fprintf(stderr, "pvmd_hol: cannot spawn the sender on h2\n");
    return 1;
  }
  free(self);
  printf("# sink t%x on h3, sender t%x on h2\nt_s,latency_s\n", sink, snd);
  fflush(stdout);
  double t0 = now();
  while (now() - t0 < secs + 2) {
    if (del > 0 && now() - t0 >= del) {
      char *h[] = {"h3"};
      int info = 0, s = pvm_delhosts(h, 1, &info);
      printf("# h3 deleted at %.3f s: %d %d\n", now() - t0, s, info);
      del = -1;
    }
    struct timeval tv = {0, 100000};
    int b = pvm_trecv(snd, TAG_TICK, &tv);
    if (b <= 0) continue;
    double sent;
    pvm_upkdouble(&sent, 1, 1);
    double t = now();
    printf("%.3f,%.3f\n", t - t0, t - sent);
    fflush(stdout);
  }
  return 0;
}
