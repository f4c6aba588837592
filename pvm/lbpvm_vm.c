/* lbpvm_vm.c: start, join and halt the PVM virtual machine, and recognise
 * one that an earlier lbmaster left behind. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <unistd.h>
#include <limits.h>
#include <setjmp.h>
#include <time.h>
#include <netdb.h>
#include <sys/socket.h>
#include <pvm3.h>
#include "lbpvm_vm.h"
#include "lbpvm_tmp.h"
#include "farm_throttle.h"
#include "cli.h"

#define PROBE_S 5          /* a live pvmd answers in milliseconds */
#define MAX_TASKS 1024     /* a pvmd dies past ~1000 tasks anyway */

/* Our pvmd and its tasks: a pvmd3 on some installs. */
static int pvmd_alive(pid_t pid)
{
  char path[64], comm[32] = "";
  snprintf(path, sizeof path, "/proc/%d/comm", (int)pid);
  FILE *f = fopen(path, "r");
  if (f) {
    if (!fgets(comm, sizeof comm, f)) comm[0] = '\0';
    fclose(f);
  }
  comm[strcspn(comm, "\n")] = '\0';
  return lbpvm_tmp_alive(pid, 0) && (!strcmp(comm, "pvmd") || !strcmp(comm, "pvmd3"));
}

/* Wait until every pid has gone (or is a zombie), at most `secs`, then
 * SIGKILL what is left: they all belong to a VM that is ending. */
static void end_all(const pid_t *pids, int n, double secs)
{
  struct timespec step = { 0, 20 * 1000 * 1000 };
  for (double t = 0;; t += 0.02) {
    int left = 0;
    for (int i = 0; i < n; i++) left += lbpvm_tmp_alive(pids[i], 0);
    if (!left) return;
    if (t >= secs) break;
    nanosleep(&step, NULL);
  }
  for (int i = 0; i < n; i++)
    if (lbpvm_tmp_alive(pids[i], 0)) kill(pids[i], SIGKILL);
}

static sigjmp_buf probe_jmp;
static void probe_alarm(int sig)
{
  (void)sig;
  siglongjmp(probe_jmp, 1);
}

/* pvm_mytid() waits for ever on a stopped or hung pvmd: bound it.
 * After a timeout libpvm is unusable, and the caller gives up. */
static int bounded_mytid(int *timed_out)
{
  struct sigaction sa, old;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = probe_alarm;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGALRM, &sa, &old);
  volatile int tid = PvmSysErr;
  *timed_out = 1;
  if (!sigsetjmp(probe_jmp, 1)) {
    alarm(PROBE_S);
    tid = pvm_mytid();
    *timed_out = 0;
  }
  alarm(0);
  sigaction(SIGALRM, &old, NULL);
  return tid;
}

/* The pvmd's tasks (its children), then everything goes: the pvmd
 * (given `secs` to end them itself), the tasks, their files, and the
 * cgroups of workers that had no time to remove their own. */
static void end_vm(pid_t pvmd, const pid_t *kids, int n, double secs)
{
  if (pvmd > 0) end_all(&pvmd, 1, secs);
  end_all(kids, n, 1.0);
  for (int i = 0; i < n; i++) {
    lbpvm_tmp_remove_sockets(kids[i]);
    farm_throttle_forget(kids[i]);
  }
  lbpvm_tmp_remove_vm(pvmd);
}

/* A VM an lbmaster started and left behind (it crashed or was killed):
 * on SIGTERM the pvmd kills its tasks and removes its files. */
static void stop_pvmd(pid_t pvmd)
{
  pid_t kids[MAX_TASKS];
  int n = lbpvm_tmp_children(pvmd, kids, MAX_TASKS);
  kill(pvmd, SIGTERM);
  kill(pvmd, SIGCONT);   /* a stopped one too */
  end_vm(pvmd, kids, n, 3.0);
}

static int resolves(const char *name)
{
  struct addrinfo hints, *res;
  memset(&hints, 0, sizeof hints);
  hints.ai_family = AF_INET;
  if (getaddrinfo(name, NULL, &hints, &res)) return 0;
  freeaddrinfo(res);
  return 1;
}

/* pvmd looks up this host's name at start-up and gives up if it does not
 * resolve (no /etc/hosts line, as in a bare Debian root).  A private
 * one-host VM needs no real name, so then name it localhost (pvmd -n). */
static int host_name_opt(char *opt, size_t size)
{
  char name[256] = "";
  if (gethostname(name, sizeof name - 1) == 0 && resolves(name)) return 0;
  const char *alt = resolves("localhost") ? "localhost" : "127.0.0.1";
  fprintf(stderr, "%s: this host's name '%s' does not resolve, so the pvmd started here is "
          "named %s (for the real name, add the line '127.0.1.1 %s' to /etc/hosts)\n",
          cli_prog(), name, alt, name);
  snprintf(opt, size, "-n%s", alt);
  return 1;
}

static int start_pvmd(lbpvm_vm *vm)
{
  char log[PATH_MAX], opt[300];
  lbpvm_tmp_path(log, sizeof log, "pvml");
  unlink(log);   /* pvmd never writes into an existing log */
  char *argv[2] = { NULL, NULL };
  int argc = host_name_opt(opt, sizeof opt);
  if (argc) argv[0] = opt;
  int s = pvm_start_pvmd(argc, argc ? argv : NULL, 1);
  if (s == PvmDupHost) return 0;   /* one started just now: join it */
  if (s < 0) {
    fprintf(stderr, "%s: cannot start a pvmd (PVM error %d); ", cli_prog(), s);
    if (access(log, R_OK) == 0) {
      fprintf(stderr, "its log %s says:\n", log);
      lbpvm_tmp_log_tail("  ");
    } else {
      fprintf(stderr, "it left no log in %s\n", lbpvm_tmp_dir());
    }
    lbpvm_tmp_remove_vm(lbpvm_tmp_pvmd_pid());
    return s;
  }
  vm->started = 1;
  lbpvm_tmp_mark_write(lbpvm_tmp_pvmd_pid());
  return 0;
}

int lbpvm_vm_join(lbpvm_vm *vm)
{
  memset(vm, 0, sizeof *vm);
  pvm_setopt(PvmAutoErr, 0);
  /* As root, libpvm prints a refusal on stdout and exits unless told. */
  if (geteuid() == 0) setenv("PVM_ALLOW_ROOT", "yes", 0);
  char addr[PATH_MAX];
  lbpvm_tmp_path(addr, sizeof addr, "pvmd");
  pid_t pvmd = lbpvm_tmp_pvmd_pid();
  lbpvm_tmp_mark m;
  int ours = pvmd > 0 && lbpvm_tmp_mark_read(&m) == 0 && m.pvmd == pvmd;
  if (pvmd && !pvmd_alive(pvmd)) {
    /* Files of a pvmd killed with SIGKILL: left there, they make the
     * next start wait ~44 s and fail with PvmDupHost. */
    if (ours) lbpvm_tmp_remove_sockets(m.owner);
    lbpvm_tmp_remove_vm(pvmd);
    pvmd = 0;
  } else if (ours) {
    if (lbpvm_tmp_alive(m.owner, m.owner_start)) {
      fprintf(stderr, "%s: the virtual machine of %s (pvmd pid %d) was started by lbmaster "
              "pid %d, which is still running and will halt it when done: wait for it, or "
              "give this run a VM of its own, e.g. PVM_VMID=mine %s ...\n",
              cli_prog(), addr, (int)pvmd, (int)m.owner, cli_prog());
      return PvmDupHost;
    }
    fprintf(stderr, "%s: stopping the virtual machine (pvmd pid %d) that lbmaster pid %d "
            "started and left running\n", cli_prog(), (int)pvmd, (int)m.owner);
    stop_pvmd(pvmd);
    lbpvm_tmp_remove_sockets(m.owner);
    pvmd = 0;
  }
  int tid, timed_out = 0;
  if (pvmd) {   /* somebody else's virtual machine: join it */
    tid = bounded_mytid(&timed_out);
    if (tid < 0) {
      char how[128];
      if (lbpvm_tmp_state(pvmd) == 'T')
        snprintf(how, sizeof how, "It is stopped: resume it (kill -CONT %d) or end it (kill %d)", (int)pvmd, (int)pvmd);
      else
        snprintf(how, sizeof how, "End it (echo halt | pvm, or kill %d)", (int)pvmd);
      if (timed_out)
        fprintf(stderr, "%s: the pvmd (pid %d) of %s did not answer within %d s; lbmaster did not "
                "start it.  %s, then run again\n", cli_prog(), (int)pvmd, addr, PROBE_S, how);
      else
        fprintf(stderr, "%s: the pvmd (pid %d) of %s refused us (PVM error %d); lbmaster did not "
                "start it.  %s, then run again\n", cli_prog(), (int)pvmd, addr, tid, how);
      lbpvm_tmp_remove_sockets(getpid());
      return tid;
    }
  } else {
    int s = start_pvmd(vm);
    if (s) return s;
    tid = bounded_mytid(&timed_out);
    if (tid < 0) {
      fprintf(stderr, "%s: cannot join the pvmd started here (PVM error %d%s)\n",
              cli_prog(), tid, timed_out ? ", no answer in time" : "");
      lbpvm_tmp_remove_sockets(getpid());
      return tid;
    }
  }
  vm->mytid = tid;
  int nhost, narch;
  struct pvmhostinfo *hosts;
  vm->nhosts = pvm_config(&nhost, &narch, &hosts) < 0 ? 1 : nhost;
  return 0;
}

void lbpvm_vm_leave(lbpvm_vm *vm)
{
  if (vm->started) {
    pid_t pvmd = lbpvm_tmp_pvmd_pid(), kids[MAX_TASKS];
    int n = pvmd > 0 ? lbpvm_tmp_children(pvmd, kids, MAX_TASKS) : 0;
    /* pvm_halt() also SIGTERMs its caller. */
    signal(SIGTERM, SIG_IGN);
    pvm_halt();
    /* The pvmd ends its tasks and removes its address file; PVM leaves
     * the log and the tasks' sockets, which go with the VM. */
    end_vm(pvmd, kids, n, 3.0);
    vm->started = 0;
  } else if (vm->mytid > 0) {
    /* With pvm_catchout, pvm_exit waits for every child; after a host
     * died it can wait for ever: bound it. */
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = probe_alarm;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, &old);
    if (!sigsetjmp(probe_jmp, 1)) {
      alarm(10);
      pvm_exit();
    } else {
      fprintf(stderr, "%s: leaving the virtual machine took over 10 s: gave up waiting\n", cli_prog());
    }
    alarm(0);
    sigaction(SIGALRM, &old, NULL);
  }
  lbpvm_tmp_remove_sockets(getpid());
  vm->mytid = 0;
}

static int usable(const char *p)
{
  return access(p, X_OK) == 0;
}

int lbpvm_worker_path(char *buf, unsigned long size)
{
  const char *env = getenv("LBFARM_WORKER");
  if (env && *env) {
    if (env[0] != '/' || !usable(env)) {
      fprintf(stderr, "%s: LBFARM_WORKER='%s' is not an absolute path to an executable\n",
              cli_prog(), env);
      return -1;
    }
    snprintf(buf, size, "%s", env);
    return 0;
  }
  char self[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n > 0) {
    self[n] = '\0';
    char *slash = strrchr(self, '/');
    if (slash) *slash = '\0';
    const char *rel[] = { "/lbworker", "/../worker/lbworker", "/../libexec/lbfarm/lbworker" };
    for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
      char cand[PATH_MAX];
      snprintf(cand, sizeof cand, "%s%s", self, rel[i]);
      char real[PATH_MAX];
      if (usable(cand) && realpath(cand, real)) {
        snprintf(buf, size, "%s", real);
        return 0;
      }
    }
  }
  if (usable(LBFARM_PKGLIBEXECDIR "/lbworker")) {
    snprintf(buf, size, "%s", LBFARM_PKGLIBEXECDIR "/lbworker");
    return 0;
  }
  fprintf(stderr, "%s: cannot find the worker executable 'lbworker'; set LBFARM_WORKER\n",
          cli_prog());
  return -1;
}
