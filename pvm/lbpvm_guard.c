/* lbpvm_guard.c: the bound on libpvm calls and its clean-up (see the
 * header).  Everything reachable from a handler uses async-signal-safe
 * calls only: no stdio, no malloc, no opendir (getdents64 instead). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdarg.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <time.h>
#include <unistd.h>
#include <dirent.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include "lbpvm_guard.h"
#include "lbpvm_tmp.h"
#include "farm_throttle.h"
#include "cli.h"

#define MAX_PIDS  4096
#define CG_WAIT_S 2.0 /* a killed worker leaves its cgroup in milliseconds */

static timer_t timer;
static int have_timer;
static volatile sig_atomic_t in_call, signals, giving_up, have_said;
static volatile sig_atomic_t expiry_status = 1;
static volatile sig_atomic_t *flag;
static int flag_set;
static const char *volatile what;
static volatile long bound_ds; /* the call's bound, tenths of a second */
static char said[512];
static char prog[64];
static char tmpdir[PATH_MAX];
static char vmfiles[4][PATH_MAX];
static volatile pid_t own_pvmd;
static pid_t workers[MAX_PIDS];
static unsigned long long workers_start[MAX_PIDS];
static volatile sig_atomic_t nworkers;
static pid_t killed[MAX_PIDS]; /* the handler's list */
static int nkilled;

/* ---- async-signal-safe pieces ---- */

typedef struct line {
  char b[1024];
  size_t n;
} line;

static void put(line *l, const char *s)
{
  while (*s && l->n < sizeof l->b - 1) l->b[l->n++] = *s++;
}

static void put_ul(line *l, unsigned long v)
{
  char d[24];
  int k = 0;
  do {
    d[k++] = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  while (k && l->n < sizeof l->b - 1) l->b[l->n++] = d[--k];
}

static void put_secs(line *l, long ds)
{
  put_ul(l, (unsigned long)(ds / 10));
  if (ds % 10) {
    put(l, ".");
    put_ul(l, (unsigned long)(ds % 10));
  }
}

/* "<base><pid><tail>" into buf. */
static void pid_path(char *buf, size_t size, const char *base, long pid, const char *tail)
{
  line l = {.n = 0};
  put(&l, base);
  put_ul(&l, (unsigned long)pid);
  put(&l, tail);
  l.b[l.n] = '\0';
  size_t n = l.n < size - 1 ? l.n : size - 1;
  memcpy(buf, l.b, n);
  buf[n] = '\0';
}

static void nap_ms(long ms)
{
  struct timespec ts = {0, ms * 1000000L};
  nanosleep(&ts, NULL);
}

/* The parent pid in /proc/PID/stat, or -1. */
static long stat_ppid(const char *pid)
{
  char path[64], buf[512];
  line l = {.n = 0};
  put(&l, "/proc/");
  put(&l, pid);
  put(&l, "/stat");
  l.b[l.n] = '\0';
  memcpy(path, l.b, l.n + 1);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (n <= 0) return -1;
  buf[n] = '\0';
  char *p = strrchr(buf, ')'); /* the name may hold spaces and parentheses */
  if (!p || !p[1] || !p[2] || !p[3]) return -1;
  p += 4; /* ") S " */
  long v = 0;
  if (*p < '0' || *p > '9') return -1;
  while (*p >= '0' && *p <= '9') v = v * 10 + (*p++ - '0');
  return v;
}

/* While a pvmd is starting, its pid is only in its address file: the
 * socket's own name, which for a pvmd started here is its pid (only a
 * slave pvmd forks after making it), checked against /proc. */
static pid_t starting_pvmd(void)
{
  char buf[PATH_MAX], comm[32];
  int fd = open(vmfiles[0], O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (n <= 0) return 0;
  buf[n] = '\0';
  char *p = strrchr(buf, '/');
  p = p ? p + 1 : buf;
  if (strncmp(p, "pvmtmp", 6)) return 0;
  long pid = 0;
  for (p += 6; *p >= '0' && *p <= '9'; p++) pid = pid * 10 + (*p - '0');
  if (*p != '.' || pid <= 0) return 0;
  char path[64];
  pid_path(path, sizeof path, "/proc/", pid, "/comm");
  fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  n = read(fd, comm, sizeof comm - 1);
  close(fd);
  if (n <= 0) return 0;
  comm[n] = '\0';
  return !strcmp(comm, "pvmd\n") || !strcmp(comm, "pvmd3\n") ? (pid_t)pid : 0;
}

/* Field 22 of /proc/PID/stat, the start time: a pid that ended and was
 * reused has another. */
static unsigned long long stat_start(pid_t pid)
{
  char path[64], buf[1024];
  pid_path(path, sizeof path, "/proc/", (long)pid, "/stat");
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (n <= 0) return 0;
  buf[n] = '\0';
  char *p = strrchr(buf, ')');
  if (!p) return 0;
  /* Field n follows the (n - 2)th space after the name. */
  for (int f = 0; f < 20 && *p; p++)
    if (*p == ' ') f++;
  unsigned long long v = 0;
  while (*p >= '0' && *p <= '9') v = v * 10 + (unsigned long long)(*p++ - '0');
  return v;
}

typedef void (*entry_fn)(int dirfd, const char *name, void *arg);

/* Every entry of a directory, without opendir (it allocates). */
static void each_entry(const char *dir, entry_fn fn, void *arg)
{
  int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  char buf[8192] __attribute__((aligned(8)));
  for (;;) {
    long n = syscall(SYS_getdents64, fd, buf, sizeof buf);
    if (n <= 0) break;
    for (long off = 0; off < n;) {
      struct dirent64 *d = (struct dirent64 *)(buf + off);
      off += d->d_reclen;
      if (d->d_name[0] != '.') fn(fd, d->d_name, arg);
    }
  }
  close(fd);
}

static void kill_child(int dirfd, const char *name, void *arg)
{
  (void)dirfd;
  pid_t parent = *(pid_t *)arg;
  if (name[0] < '1' || name[0] > '9' || nkilled >= MAX_PIDS) return;
  if (stat_ppid(name) != parent) return;
  long pid = 0;
  for (const char *p = name; *p >= '0' && *p <= '9'; p++) pid = pid * 10 + (*p - '0');
  kill((pid_t)pid, SIGKILL);
  killed[nkilled++] = (pid_t)pid;
}

/* pvmtmp<pid>.* sockets of ours for every pid killed, ours, the pvmd's. */
static void unlink_socket(int dirfd, const char *name, void *arg)
{
  (void)arg;
  if (strncmp(name, "pvmtmp", 6)) return;
  long pid = 0;
  const char *p = name + 6;
  while (*p >= '0' && *p <= '9') pid = pid * 10 + (*p++ - '0');
  if (*p != '.') return;
  int ours = pid == (long)getpid() || (own_pvmd > 0 && pid == (long)own_pvmd);
  for (int i = 0; i < nkilled && !ours; i++) ours = pid == (long)killed[i];
  struct stat st;
  if (ours && fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISSOCK(st.st_mode) && st.st_uid == getuid())
    unlinkat(dirfd, name, 0);
}

/* A cgroup goes once its last task has left: a killed one leaves it as
 * it exits, so try again for a while.  Our own: move out first. */
static void remove_cgroups(void)
{
  static char done[MAX_PIDS];
  farm_throttle_leave_now();
  for (int i = 0; i < nkilled; i++) done[i] = 0;
  for (int tries = 0; tries < (int)(CG_WAIT_S * 100); tries++) {
    int left = 0;
    for (int i = 0; i < nkilled; i++) {
      if (done[i] || !killed[i]) continue;
      if (farm_throttle_forget_now((long)killed[i]) == 0) done[i] = 1;
      else left++;
    }
    /* and the run's others: workers that died before we heard */
    left += farm_throttle_forget_run_now();
    if (!left) return;
    nap_ms(10);
  }
}

/* Say why, end what this process started, remove its files, exit. */
static void give_up(int code, int quiet)
{
  if (giving_up) return;
  giving_up = 1;
  line l = {.n = 0};
  put(&l, prog);
  put(&l, ": ");
  const char *w = in_call ? what : NULL;
  if (code >= 128) {
    put(&l, "interrupted");
    if (w) {
      put(&l, " while ");
      put(&l, w);
    }
  } else if (have_said) {
    put(&l, said);
  } else {
    put(&l, "no answer from the pvmd for ");
    put_secs(&l, bound_ds);
    put(&l, " s while ");
    put(&l, w ? w : "waiting");
  }
  int nw = nworkers;
  pid_t pvmd = own_pvmd;
  if (pvmd < 0) pvmd = starting_pvmd();
  if (pvmd > 0) put(&l, "; ending the virtual machine this run started and its tasks");
  else if (nw > 0) put(&l, "; ending this run's workers here");
  put(&l, "\n");
  if (!quiet) {
    ssize_t r = write(2, l.b, l.n);
    (void)r;
  }
  nkilled = 0;
  for (int i = 0; i < nw && nkilled < MAX_PIDS; i++)
    if (workers[i] > 0 && workers_start[i] && stat_start(workers[i]) == workers_start[i]) {
      kill(workers[i], SIGKILL);
      killed[nkilled++] = workers[i];
    }
  if (pvmd > 0) {
    pid_t p = pvmd;
    each_entry("/proc", kill_child, &p);
    kill(pvmd, SIGKILL); /* also when it is stopped */
  }
  remove_cgroups();
  own_pvmd = pvmd; /* for unlink_socket */
  if (tmpdir[0]) each_entry(tmpdir, unlink_socket, NULL);
  if (pvmd > 0)
    for (int i = 0; i < 4; i++) unlink(vmfiles[i]);
  cli_out_remove_pending();
  _exit(code);
}

static void on_alarm(int sig)
{
  (void)sig;
  if (signals) give_up(130, 0);
  if (in_call) give_up(expiry_status, 0);
  /* else: a bound that ended with its call */
}

static void arm(double secs)
{
  if (!have_timer) {
    alarm(secs > 0 ? (unsigned)(secs + 0.999) : 0);
    return;
  }
  struct itimerspec it;
  memset(&it, 0, sizeof it);
  if (secs > 0) {
    it.it_value.tv_sec = (time_t)secs;
    it.it_value.tv_nsec = (long)((secs - (double)(time_t)secs) * 1e9);
    if (!it.it_value.tv_sec && !it.it_value.tv_nsec) it.it_value.tv_nsec = 1;
  }
  timer_settime(timer, 0, &it, NULL);
}

static void on_signal(int sig)
{
  if (!flag_set) {
    give_up(128 + sig, 1); /* nobody to tell: end now */
    return;
  }
  *flag = 1;
  if (signals++) give_up(130, 0); /* the second one */
  arm(LBPVM_GUARD_GRACE_S);
}

void lbpvm_guard_init(void)
{
  static int done;
  if (done) return;
  done = 1;
  snprintf(prog, sizeof prog, "%s", cli_prog());
  snprintf(tmpdir, sizeof tmpdir, "%s", lbpvm_tmp_dir());
  const char *stems[4] = {"pvmd", "pvml", "lbfarm", LBPVM_TMP_RUN};
  for (int i = 0; i < 4; i++) lbpvm_tmp_path(vmfiles[i], sizeof vmfiles[i], stems[i]);
  struct sigevent sev;
  memset(&sev, 0, sizeof sev);
  sev.sigev_notify = SIGEV_SIGNAL;
  sev.sigev_signo = SIGALRM;
  have_timer = timer_create(CLOCK_MONOTONIC, &sev, &timer) == 0;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_alarm;
  sigemptyset(&sa.sa_mask);
  sigaddset(&sa.sa_mask, SIGINT);
  sigaddset(&sa.sa_mask, SIGTERM);
  sigaction(SIGALRM, &sa, NULL);
}

void lbpvm_guard_signals(volatile sig_atomic_t *f)
{
  flag = f;
  flag_set = f != NULL;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sigaddset(&sa.sa_mask, SIGALRM);
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
}

void lbpvm_guard_begin(const char *w, double secs)
{
  what = w;
  bound_ds = (long)(secs * 10 + 0.5);
  in_call = 1;
  if (!signals) arm(secs);
}

void lbpvm_guard_end(void)
{
  in_call = 0;
  have_said = 0;
  expiry_status = 1;
  if (!signals) arm(0);
}

void lbpvm_guard_say(const char *fmt, ...)
{
  have_said = 0;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(said, sizeof said, fmt, ap);
  va_end(ap);
  have_said = 1;
}

void lbpvm_guard_status(int status) { expiry_status = status; }

void lbpvm_guard_own_vm(pid_t pvmd) { own_pvmd = pvmd; }

void lbpvm_guard_workers(const pid_t *pids, int n)
{
  nworkers = 0;
  if (n > MAX_PIDS) n = MAX_PIDS;
  for (int i = 0; i < n; i++) {
    workers[i] = pids[i];
    workers_start[i] = pids[i] > 0 ? lbpvm_tmp_start_time(pids[i]) : 0;
  }
  nworkers = n;
}
