/* lbpvm_vm.c: start, join and halt the PVM virtual machine, and recognise
 * one that an earlier lbmaster left behind. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <unistd.h>
#include <limits.h>
#include <time.h>
#include <netdb.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <pvm3.h>
#include "lbpvm_vm.h"
#include "lbpvm_tmp.h"
#include "lbpvm_guard.h"
#include "farm_throttle.h"
#include "cli.h"

#define PROBE_S   5    /* a live pvmd answers in milliseconds */
#define START_S   30   /* pvmd resolves its name, binds, writes its files */
#define EXIT_S    10   /* with pvm_catchout, pvm_exit waits for the workers' output */
#define MAX_TASKS 1024 /* a pvmd dies past ~1000 tasks anyway */

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
  struct timespec step = {0, 20 * 1000 * 1000};
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
  farm_throttle_forget_run(1.0); /* workers gone before, unreported */
  lbpvm_tmp_remove_vm(pvmd);
}

/* A VM an lbmaster started and left behind (it crashed or was killed):
 * on SIGTERM the pvmd kills its tasks and removes its files. */
static void stop_pvmd(pid_t pvmd)
{
  pid_t kids[MAX_TASKS];
  int n = lbpvm_tmp_children(pvmd, kids, MAX_TASKS);
  kill(pvmd, SIGTERM);
  kill(pvmd, SIGCONT); /* a stopped one too */
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

/* The note on an unresolvable host name is worth reading once, not on
 * every run: a stamp per user and host name in the user's cache
 * directory ($XDG_CACHE_HOME/lbfarm, else ~/.cache/lbfarm) says it was
 * shown.  Where there is no such directory, it is shown every time. */
static int note_shown_before(const char *name)
{
  char dir[PATH_MAX], stamp[PATH_MAX + 300];
  const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
  if (xdg && *xdg == '/') snprintf(dir, sizeof dir, "%s/lbfarm", xdg);
  else if (home && *home == '/') snprintf(dir, sizeof dir, "%s/.cache/lbfarm", home);
  else return 0;
  snprintf(stamp, sizeof stamp, "%s/hostname-note.%u.%s", dir, (unsigned)getuid(), name);
  if (access(stamp, F_OK) == 0) return 1;
  char parent[PATH_MAX];
  snprintf(parent, sizeof parent, "%s", dir);
  char *slash = strrchr(parent, '/');
  if (slash) {
    *slash = '\0';
    mkdir(parent, 0700);
  }
  mkdir(dir, 0700);
  FILE *f = fopen(stamp, "w");
  if (f) {
    fprintf(f, "lbmaster told this user once that the host name '%s' does not resolve\n", name);
    fclose(f);
  }
  return 0;
}

/* pvmd looks up this host's name at start-up and gives up if it does not
 * resolve (no /etc/hosts line, as in a bare Debian root).  A private
 * one-host VM needs no real name, so then name it localhost (pvmd -n). */
static int host_name_opt(char *opt, size_t size)
{
  char name[256] = "";
  if (gethostname(name, sizeof name - 1) == 0 && resolves(name)) return 0;
  const char *alt = resolves("localhost") ? "localhost" : "127.0.0.1";
  if (!note_shown_before(name))
    fprintf(stderr,
            "%s: this host's name '%s' does not resolve, so the pvmd started here is "
            "named %s (for the real name, add the line '127.0.1.1 %s' to /etc/hosts; "
            "this note is shown once)\n",
            cli_prog(), name, alt, name);
  snprintf(opt, size, "-n%s", alt);
  return 1;
}

/* The pid of the pvmd at the address file's socket: asked of the
 * kernel; for a pvmd started here the socket's name says it too. */
static pid_t pvmd_pid(void)
{
  char addr[PATH_MAX];
  pid_t p = 0;
  if (lbpvm_tmp_address(addr, sizeof addr) == 0 && addr[0] == '/') p = lbpvm_tmp_socket_owner(addr);
  if (p <= 0) p = lbpvm_tmp_pvmd_pid();
  return p > 0 && pvmd_alive(p) ? p : 0;
}

static int start_pvmd(lbpvm_vm *vm)
{
  char log[PATH_MAX], opt[300];
  lbpvm_tmp_path(log, sizeof log, "pvml");
  unlink(log); /* pvmd never writes into an existing log */
  char *argv[2] = {NULL, NULL};
  int argc = host_name_opt(opt, sizeof opt);
  if (argc) argv[0] = opt;
  /* If the bound expires, the pvmd that is starting goes too. */
  lbpvm_guard_own_vm(-1);
  lbpvm_guard_begin("starting a pvmd", START_S);
  int s = pvm_start_pvmd(argc, argc ? argv : NULL, 1);
  lbpvm_guard_end();
  lbpvm_guard_own_vm(0);
  if (s == PvmDupHost) return 0; /* one started just now: join it */
  if (s < 0) {
    fprintf(stderr, "%s: cannot start a pvmd (PVM error %d); ", cli_prog(), s);
    if (access(log, R_OK) == 0) {
      fprintf(stderr, "its log %s says:\n", log);
      lbpvm_tmp_log_tail("  ");
    } else {
      fprintf(stderr, "it left no log in %s\n", lbpvm_tmp_dir());
    }
    lbpvm_tmp_remove_vm(pvmd_pid());
    return s;
  }
  vm->started = 1;
  vm->pvmd = pvmd_pid();
  lbpvm_guard_own_vm(vm->pvmd);
  lbpvm_tmp_mark_write(vm->pvmd);
  return 0;
}

/* Join the VM whose pvmd listens at `addr` (or spawned us), with a
 * bound: a pvmd that does not answer is reported, never removed. */
static int join_running(lbpvm_vm *vm, const char *addr, int spawned)
{
  char path[PATH_MAX];
  lbpvm_tmp_path(path, sizeof path, "pvmd");
  pid_t pvmd = addr[0] == '/' ? lbpvm_tmp_socket_owner(addr) : 0;
  char who[PATH_MAX + 64], how[160];
  if (pvmd > 0) snprintf(who, sizeof who, "the pvmd (pid %d) of %s", (int)pvmd, spawned ? addr : path);
  else snprintf(who, sizeof who, "the pvmd of %s", spawned ? addr : path);
  if (pvmd > 0 && lbpvm_tmp_state(pvmd) == 'T')
    snprintf(how, sizeof how, "It is stopped: resume it (kill -CONT %d) or end it (kill %d)", (int)pvmd, (int)pvmd);
  else if (pvmd > 0) snprintf(how, sizeof how, "End it (echo halt | pvm, or kill %d)", (int)pvmd);
  else snprintf(how, sizeof how, "End it (echo halt | pvm)");
  lbpvm_guard_say("%s did not answer within %d s; lbmaster did not start it%s.  %s, then run again", who, PROBE_S,
                  spawned ? " (it spawned lbmaster)" : "", how);
  lbpvm_guard_begin("joining the virtual machine", PROBE_S);
  int tid = pvm_mytid();
  lbpvm_guard_end();
  if (tid < 0) {
    fprintf(stderr, "%s: %s refused us (PVM error %d); lbmaster did not start it.  %s, then run again\n", cli_prog(),
            who, tid, how);
    lbpvm_tmp_remove_sockets(getpid());
    return tid;
  }
  vm->mytid = tid;
  return 0;
}

/* Spawned by a pvmd (pvm_spawn, or the console's spawn): that pvmd set
 * PVMEPID to this process's pid.  Its VM is the one to join, on
 * whatever host this is. */
static int spawned_by_pvmd(const char **sock)
{
  const char *e = getenv("PVMEPID");
  *sock = getenv("PVMSOCK");
  if (!*sock) *sock = "";
  return e && strtol(e, NULL, 10) == (long)getpid();
}

int lbpvm_vm_join(lbpvm_vm *vm)
{
  memset(vm, 0, sizeof *vm);
  lbpvm_guard_init();
  pvm_setopt(PvmAutoErr, 0);
  /* As root, libpvm prints a refusal on stdout and exits unless told. */
  if (geteuid() == 0) setenv("PVM_ALLOW_ROOT", "yes", 0);
  char path[PATH_MAX], addr[PATH_MAX];
  lbpvm_tmp_path(path, sizeof path, "pvmd");
  const char *sock;
  int rc;
  if (spawned_by_pvmd(&sock)) {
    rc = join_running(vm, sock, 1);
  } else {
    lbpvm_tmp_mark m;
    if (lbpvm_tmp_mark_read(&m) == 0) {
      if (pvmd_alive(m.pvmd) && lbpvm_tmp_start_time(m.pvmd) == m.pvmd_start) {
        if (lbpvm_tmp_alive(m.owner, m.owner_start)) {
          fprintf(stderr,
                  "%s: the virtual machine of %s (pvmd pid %d) was started by lbmaster "
                  "pid %d, which is still running and will halt it when done: wait for it, or "
                  "give this run a VM of its own, e.g. PVM_VMID=mine %s ...\n",
                  cli_prog(), path, (int)m.pvmd, (int)m.owner, cli_prog());
          return PvmDupHost;
        }
        fprintf(stderr,
                "%s: stopping the virtual machine (pvmd pid %d) that lbmaster pid %d "
                "started and left running\n",
                cli_prog(), (int)m.pvmd, (int)m.owner);
        stop_pvmd(m.pvmd);
      }
      /* Its pvmd is gone: so is the lbmaster that started it. */
      lbpvm_tmp_remove_sockets(m.owner);
      char mark[PATH_MAX];
      lbpvm_tmp_path(mark, sizeof mark, "lbfarm");
      unlink(mark);
    }
    int have = lbpvm_tmp_address(addr, sizeof addr) == 0;
    if (have && !lbpvm_tmp_listening(addr)) {
      /* Files of a pvmd that died (SIGKILL): nothing listens at its
       * address.  Left there, they make the next start wait ~44 s and
       * fail with PvmDupHost. */
      struct stat st;
      if (addr[0] == '/' && lstat(addr, &st) == 0 && S_ISSOCK(st.st_mode) && st.st_uid == getuid()) unlink(addr);
      lbpvm_tmp_remove_vm(0);
      have = 0;
    }
    if (have) {
      rc = join_running(vm, addr, 0); /* somebody else's virtual machine */
    } else {
      rc = start_pvmd(vm);
      if (!rc) {
        lbpvm_guard_say("the pvmd started here did not answer within %d s", PROBE_S);
        lbpvm_guard_begin("joining the virtual machine started here", PROBE_S);
        int tid = pvm_mytid();
        lbpvm_guard_end();
        if (tid < 0) {
          fprintf(stderr, "%s: cannot join the pvmd started here (PVM error %d)\n", cli_prog(), tid);
          lbpvm_vm_leave(vm);
          return tid;
        }
        vm->mytid = tid;
      }
    }
  }
  if (rc) return rc;
  int nhost, narch;
  struct pvmhostinfo *hosts;
  lbpvm_guard_begin("asking the pvmd for its host table", PROBE_S);
  vm->nhosts = pvm_config(&nhost, &narch, &hosts) < 0 ? 1 : nhost;
  lbpvm_guard_end();
  return 0;
}

void lbpvm_vm_leave(lbpvm_vm *vm)
{
  if (vm->started) {
    pid_t pvmd = vm->pvmd > 0 ? vm->pvmd : pvmd_pid(), kids[MAX_TASKS];
    int n = pvmd > 0 ? lbpvm_tmp_children(pvmd, kids, MAX_TASKS) : 0;
    /* pvm_halt() also SIGTERMs its caller. */
    signal(SIGTERM, SIG_IGN);
    if (vm->mytid > 0) {
      lbpvm_guard_begin("halting the virtual machine", PROBE_S);
      pvm_halt();
      lbpvm_guard_end();
    } else if (pvmd > 0) {
      kill(pvmd, SIGTERM);
    }
    /* The pvmd ends its tasks and removes its address file; PVM leaves
     * the log and the tasks' sockets, which go with the VM. */
    end_vm(pvmd, kids, n, 3.0);
    lbpvm_guard_own_vm(0);
    vm->started = 0;
  } else if (vm->mytid > 0) {
    /* With pvm_catchout, pvm_exit waits for every child's output to
     * end; after a host died it can wait for ever: bound it.  The run
     * is decided by then, and its status stands. */
    lbpvm_guard_say("leaving the virtual machine took over %d s (pvm_exit waits for the output of every "
                    "worker, also one on a host that is gone): gave up waiting",
                    EXIT_S);
    lbpvm_guard_status(vm->status);
    lbpvm_guard_begin("leaving the virtual machine", EXIT_S);
    pvm_exit();
    lbpvm_guard_end();
  }
  lbpvm_tmp_remove_sockets(getpid());
  vm->mytid = 0;
}

static int usable(const char *p) { return access(p, X_OK) == 0; }

int lbpvm_worker_path(char *buf, unsigned long size)
{
  const char *env = getenv("LBFARM_WORKER");
  if (env && *env) {
    if (env[0] != '/' || !usable(env)) {
      fprintf(stderr, "%s: LBFARM_WORKER='%s' is not an absolute path to an executable\n", cli_prog(), env);
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
    const char *rel[] = {"/lbworker", "/../worker/lbworker", "/../libexec/lbfarm/lbworker"};
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
  fprintf(stderr, "%s: cannot find the worker executable 'lbworker'; set LBFARM_WORKER\n", cli_prog());
  return -1;
}
