/* pvm_intruder: a task in the test's virtual machine that is not one of
 * the farm's, for tests/farm_intruder.sh.
 *
 *   pvm_intruder forge
 *     joins the running VM (PVM_TMP, PVM_VMID), finds lbmaster and its
 *     workers, reads the run id from a worker's command line (as any task
 *     of the host can), and sends farm messages that claim another
 *     sender: libpvm writes its own idea of the task's tid (pvmmytid)
 *     into a message it sends over a direct route, and the receiver's
 *     pvm_bufinfo reports that.  Each is well formed, of the right run,
 *     and sealed with a key of the intruder's own:
 *       to lbmaster, as worker 1: a RESULT of process 0 and a LOST of
 *         process 0;
 *       to lbmaster, as its pvmd: an EXITED notice naming worker 1 and a
 *         HOSTDEL naming the host of them all;
 *       to worker 1, as lbmaster: STOP and QUIT (with a key of its own);
 *       to worker 1, as worker 0: a TRANSFER of process 0 (LBMSG);
 *       to worker 1, as its pvmd: an EXITED notice naming lbmaster.
 *     Before them, one message with a foreign tag to each of the two
 *     opens the direct route as the intruder itself.  Prints "sent N
 *     messages" (every one of them must be dropped).
 *   pvm_intruder setup-t0
 *     starts a VM of its own and spawns lbworker three times, as a master
 *     does, with SETUPs whose start time is two days behind this clock,
 *     two days ahead, and now, each followed by STOP: the first two must
 *     be refused (the worker says so and exits without a report), the
 *     last accepted (it reports).
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
#include "lb_codec.h"
#include "lb_errno.h"
#include "cli.h"

#define WAIT_S 30.0
#define RUN    4242u

/* libpvm's own tid, which it writes into every message it sends. */
extern int pvmmytid;

static int named(const struct pvmtaskinfo *t, const char *name)
{
  const char *s = strrchr(t->ti_a_out, '/');
  return !strcmp(s ? s + 1 : t->ti_a_out, name);
}

static int by_tid(const void *a, const void *b)
{
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

/* The run id: a worker's first argument, as /proc shows it to any task
 * of the host. */
static long run_of(int pid)
{
  char path[64], buf[4096];
  snprintf(path, sizeof path, "/proc/%d/cmdline", pid);
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = '\0';
  size_t first = strlen(buf) + 1; /* after the program's name */
  return first < n ? strtol(buf + first, NULL, 10) : -1;
}

static int sent;
static unsigned char own_key[FARM_KEY_LEN];

/* Send body with tag to `to`, claiming to be `claim` (in PVM's header
 * and the envelope), sealed with the intruder's own key. */
static void forge(uint32_t run, int to, int claim, int tag, const void *body, size_t len)
{
  farm_auth *a;
  if (farm_auth_alloc((uint32_t)claim, &a)) return;
  farm_auth_set_key(a, own_key);
  int me = pvmmytid;
  pvmmytid = claim;
  int rc = lbpvm_send(a, to, tag, run, body, len);
  pvmmytid = me;
  farm_auth_free(a);
  printf("pvm_intruder: %s to t%x as t%x%s\n", farm_tag_name(tag), to, claim, rc < 0 ? ": send failed" : "");
  sent += rc >= 0;
}

/* A pvmd's notice (one int) naming `who`, claiming to come from `claim`. */
static void notice(int to, int claim, int tag, int who)
{
  int me = pvmmytid;
  pvmmytid = claim;
  pvm_initsend(PvmDataDefault);
  pvm_pkint(&who, 1, 1);
  int rc = pvm_send(to, tag);
  pvmmytid = me;
  printf("pvm_intruder: %s naming t%x to t%x as t%x%s\n", farm_tag_name(tag), who, to, claim,
         rc < 0 ? ": send failed" : "");
  sent += rc >= 0;
}

/* A message as itself, with a foreign tag: the direct route to `to` is
 * made for the intruder's own tid, then serves the forged ones. */
static void connect_to(int to)
{
  pvm_initsend(PvmDataDefault);
  int x = 0;
  pvm_pkint(&x, 1, 1);
  sent += pvm_send(to, 4242) >= 0;
}

static int forge_all(void)
{
  if (pvm_mytid() < 0) {
    fprintf(stderr, "pvm_intruder: no virtual machine to join\n");
    return 1;
  }
  int master = 0, workers[64], nw = 0, pid1 = 0;
  for (double end = cli_now() + WAIT_S; !(master && nw >= 2) && cli_now() < end; usleep(50000)) {
    int n;
    struct pvmtaskinfo *ti;
    master = nw = 0;
    if (pvm_tasks(0, &n, &ti) < 0) continue;
    for (int i = 0; i < n; i++) {
      /* lbmaster may have joined the VM by itself: its workers name it */
      if (named(&ti[i], "lbworker") && nw < 64) {
        workers[nw++] = ti[i].ti_tid;
        master = ti[i].ti_ptid;
      }
    }
  }
  if (!(master && nw >= 2)) {
    fprintf(stderr, "pvm_intruder: no lbmaster with two workers within %g s\n", WAIT_S);
    pvm_exit();
    return 1;
  }
  /* Spawned in host order, on one pvmd: tid order is host order. */
  qsort(workers, (size_t)nw, sizeof *workers, by_tid);
  /* A pvmd's notices come from its tid with the TIDPVMD bit set; a
   * HOSTDEL names a host by pvm_tidtohost. */
  int w0 = workers[0], w1 = workers[1], host = pvm_tidtohost(master), pvmd = (int)(0x80000000u | (unsigned)host);
  int n;
  struct pvmtaskinfo *ti;
  if (pvm_tasks(0, &n, &ti) >= 0)
    for (int i = 0; i < n; i++)
      if (ti[i].ti_tid == w1) pid1 = ti[i].ti_pid;
  long run = pid1 > 0 ? run_of(pid1) : -1;
  if (run < 0) {
    fprintf(stderr, "pvm_intruder: cannot read the run id of worker t%x\n", w1);
    pvm_exit();
    return 1;
  }
  printf("pvm_intruder: t%x: lbmaster t%x, worker 0 t%x, worker 1 t%x, run %ld\n", pvm_mytid(), master, w0, w1, run);
  pvm_setopt(PvmRoute, PvmRouteDirect);
  connect_to(master);
  connect_to(w1);

  farm_auth *a;
  if (farm_auth_alloc((uint32_t)w1, &a)) return 1;
  farm_auth_draw(a); /* a key of its own */
  memcpy(own_key, farm_auth_key(a), FARM_KEY_LEN);
  /* RESULT of process 0 as if worker 1 ran it; LOST of process 0. */
  unsigned char env[FARM_ENVELOPE], body[FARM_PAYLOAD_HEAD + 64] = {0};
  farm_payload_head h = {.pid = 0, .origin = 0, .exec = 1, .len = 64};
  farm_auth_seal_payload(a, env, body, (uint32_t)run, &h, body + FARM_PAYLOAD_HEAD);
  int me = pvmmytid;
  pvmmytid = w1;
  pvm_initsend(PvmDataRaw);
  pvm_pkbyte((char *)env, FARM_ENVELOPE, 1);
  pvm_pkbyte((char *)body, sizeof body, 1);
  int rc = pvm_send(master, FARM_RESULT);
  pvmmytid = me;
  printf("pvm_intruder: RESULT of process 0 to t%x as t%x%s\n", master, w1, rc < 0 ? ": send failed" : "");
  sent += rc >= 0;
  unsigned char lost[8];
  size_t len;
  farm_lost_encode(0, lost, sizeof lost, &len);
  forge((uint32_t)run, master, w1, FARM_LOST, lost, len);
  notice(master, pvmd, FARM_EXITED, w1);
  notice(master, pvmd, FARM_HOSTDEL, host);
  /* To worker 1: STOP and QUIT from "the master". */
  forge((uint32_t)run, w1, master, FARM_STOP, NULL, 0);
  forge((uint32_t)run, w1, master, FARM_QUIT, own_key, FARM_KEY_LEN);
  /* A TRANSFER of process 0 from "host 0" to host 1. */
  lb_msg *m;
  lb_proc *p;
  unsigned char ctx[16] = {0};
  unsigned char *buf;
  if (lb_msg_alloc(LB_MSG_TRANSFER, 0, 1, &m) || lb_proc_alloc(0, 0, 1.0, ctx, sizeof ctx, &p) ||
      lb_msg_add_proc(m, p)) {
    fprintf(stderr, "pvm_intruder: %s\n", lb_errmsg());
    return 1;
  }
  m->hop_src = 0;
  m->hop_dst = 1;
  if (lb_codec_encode_alloc(m, (uint32_t)run, &buf, &len)) {
    fprintf(stderr, "pvm_intruder: %s\n", lb_errmsg());
    return 1;
  }
  lb_msg_free(m);
  forge((uint32_t)run, w1, w0, FARM_LBMSG, buf, len);
  free(buf);
  notice(w1, pvmd, FARM_EXITED, master);
  farm_auth_free(a);
  printf("pvm_intruder: sent %d messages\n", sent);
  pvm_exit();
  return sent != 10;
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
    struct timeval tv = {0, 100000};
    pvm_trecv(-1, 9999, &tv);
  }
  fseek(caught, 0, SEEK_END);
}

/* SETUP of a one-host farm with start time t0, then STOP; 1 if the
 * worker reported (accepted), 0 if it exited without (refused), -1 if
 * neither happened in time. */
static int one_setup(const char *path, farm_auth *a, double t0)
{
  char runarg[16], commit[FARM_COMMIT_HEX];
  snprintf(runarg, sizeof runarg, "%u", RUN);
  farm_auth_commit_hex(a, commit);
  char *argv[] = {runarg, commit, NULL};
  int tid;
  if (pvm_spawn((char *)path, argv, PvmTaskDefault, NULL, 1, &tid) != 1) {
    fprintf(stderr, "pvm_intruder: cannot spawn %s (PVM error %d)\n", path, tid);
    return -1;
  }
  pvm_notify(PvmTaskExit, FARM_EXITED, 1, &tid);
  uint32_t edges[1][2];
  farm_setup s = {.me = 0,
                  .nhosts = 1,
                  .policy = LB_POLICY_NONE,
                  .w = {APP_PRIMES, 1000, 1, 1},
                  .throttle = FARM_THROTTLE_OFF,
                  .quantum_s = 0.01,
                  .t0 = t0,
                  .tids = &tid,
                  .edges = edges};
  memcpy(s.key, farm_auth_key(a), FARM_KEY_LEN);
  lb_node_params_default(&s.par);
  unsigned char *buf;
  size_t len;
  if (farm_setup_encode(&s, &buf, &len)) {
    fprintf(stderr, "pvm_intruder: %s\n", lb_errmsg());
    return -1;
  }
  lbpvm_send(a, tid, FARM_SETUP, RUN, buf, len);
  lbpvm_send(a, tid, FARM_STOP, RUN, NULL, 0);
  free(buf);
  int reported = 0;
  for (double end = cli_now() + WAIT_S; cli_now() < end;) {
    farm_in in;
    int r = lbpvm_recv(a, RUN, -1, -1, end - cli_now(), &in);
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
  farm_auth *a;
  if (farm_auth_alloc((uint32_t)vm.mytid, &a)) {
    lbpvm_vm_leave(&vm);
    return 1;
  }
  farm_auth_draw(a);
  /* The workers' output: their refusals are part of the check. */
  if (!(caught = tmpfile())) {
    lbpvm_vm_leave(&vm);
    return 1;
  }
  pvm_catchout(caught);
  static const struct {
    const char *what;
    double off;
    int accept;
  } cases[] = {
      {"two days behind", -2 * 86400.0, 0},
      {"two days ahead", 2 * 86400.0, 0},
      {"now", 0, 1},
  };
  int bad = 0;
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    int got = one_setup(path, a, cli_epoch() + cases[k].off);
    const char *verdict = got < 0 ? "no answer" : got ? "accepted" : "refused";
    printf("pvm_intruder: SETUP with a start time %s: %s\n", cases[k].what, verdict);
    bad += got != cases[k].accept;
  }
  farm_auth_free(a);
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
  if (argc == 2 && !strcmp(argv[1], "forge")) return forge_all();
  if (argc == 2 && !strcmp(argv[1], "setup-t0")) return setup_t0();
  fprintf(stderr, "usage: pvm_intruder forge|setup-t0\n");
  return 2;
}
