/* farm_throttle.c: a cgroup quota (farm_cgroup.c), or the duty timer. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>
#include "farm_throttle.h"
#include "farm_cgroup.h"

static farm_throttle_mode mode = FARM_THROTTLE_OFF;
static farm_cgroup cg;
static uint32_t forget_run = FARM_CGROUP_ANY_RUN;

static const char *names[FARM_THROTTLE_NMODES] = {"auto", "cgroup", "duty", "off", "cgroup-v1", "cgroup-v2"};

int farm_throttle_parse(const char *s, farm_throttle_mode *m)
{
  for (int i = 0; i < FARM_THROTTLE_NMODES; i++)
    if (!strcmp(s, names[i])) {
      *m = (farm_throttle_mode)i;
      return 0;
    }
  return -1;
}

const char *farm_throttle_name(farm_throttle_mode m) { return (unsigned)m < FARM_THROTTLE_NMODES ? names[m] : "?"; }

/* ---- duty: the worker holds its own quota ---- */
void farm_duty_init(farm_duty_bucket *b, double share, double period_s, double wall, double cpu)
{
  b->share = share;
  b->cap = share * FARM_DUTY_BURST * period_s;
  b->tokens = 0;
  b->wall = wall;
  b->cpu = cpu;
}

double farm_duty_pay(farm_duty_bucket *b, double cpu, double now)
{
  double t = b->tokens + b->share * (now - b->wall);
  if (t > b->cap) t = b->cap;
  t -= cpu - b->cpu;
  b->cpu = cpu;
  if (t < 0) {
    now -= t / b->share;
    t = 0; /* a late wake-up is credited at the next payment */
  }
  b->tokens = t;
  b->wall = now;
  return now;
}

static farm_duty_bucket duty;
static volatile sig_atomic_t duty_on;
static timer_t duty_timer;
static int duty_sig;

static double clock_s(clockid_t c)
{
  struct timespec t;
  clock_gettime(c, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Runs on the worker's thread after each slice of CPU.  It calls only
 * clock_gettime and clock_nanosleep, plain system calls. */
static void on_slice(int sig)
{
  (void)sig;
  if (!duty_on) return;
  int e = errno;
  double now = clock_s(CLOCK_MONOTONIC);
  double until = farm_duty_pay(&duty, clock_s(CLOCK_PROCESS_CPUTIME_ID), now);
  if (until > now) {
    struct timespec ts = {(time_t)until, (long)((until - (double)(time_t)until) * 1e9)};
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR) {}
  }
  errno = e;
}

/* A real-time signal nobody handles yet, for the timer. */
static int free_signal(void)
{
  for (int s = SIGRTMIN + 1; s < SIGRTMAX; s++) {
    struct sigaction old;
    if (!sigaction(s, NULL, &old) && old.sa_handler == SIG_DFL && !(old.sa_flags & SA_SIGINFO)) return s;
  }
  return -1;
}

static int duty_start(double s, char *why, unsigned long whylen)
{
  /* A cgroup makes each worker a scheduling entity of its own; with the
   * timer, where the kernel groups a session's processes (autogroup, for
   * those in the root cgroup), the run's six workers would be one entity
   * and other work would take five sixths of their CPU from them.  A
   * session of its own gives each its own autogroup.  It fails for a
   * process group leader, and does nothing inside a cgroup: either way
   * the timer still holds the quota. */
  if (setsid() < 0) { /* nothing to do */
  }
  /* The handler stays once set: a signal of a deleted timer may still
   * be queued, and the default action would end the process. */
  if (!duty_sig) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_slice;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    int sig = free_signal();
    if (sig < 0 || sigaction(sig, &sa, NULL)) {
      snprintf(why, whylen, "no real-time signal free for the duty timer");
      return -1;
    }
    duty_sig = sig;
  }
  struct sigevent ev;
  memset(&ev, 0, sizeof ev);
  /* To this thread, the one that computes. */
  ev.sigev_notify = SIGEV_THREAD_ID;
  ev.sigev_signo = duty_sig;
  ev._sigev_un._tid = gettid();
  long slice_ns = (long)(s * (double)FARM_CGROUP_PERIOD_US * 1000 + 0.5);
  struct itimerspec it = {{0, slice_ns}, {0, slice_ns}};
  if (timer_create(CLOCK_PROCESS_CPUTIME_ID, &ev, &duty_timer)) {
    snprintf(why, whylen, "cannot make the duty timer: %s", strerror(errno));
    return -1;
  }
  farm_duty_init(&duty, s, (double)FARM_CGROUP_PERIOD_US * 1e-6, clock_s(CLOCK_MONOTONIC),
                 clock_s(CLOCK_PROCESS_CPUTIME_ID));
  duty_on = 1;
  if (timer_settime(duty_timer, 0, &it, NULL)) {
    snprintf(why, whylen, "cannot set the duty timer: %s", strerror(errno));
    duty_on = 0;
    timer_delete(duty_timer);
    return -1;
  }
  return 0;
}

static void duty_stop(void)
{
  timer_delete(duty_timer);
  duty_on = 0;
}

int farm_throttle_start(double s, farm_throttle_mode want, uint32_t run, unsigned host, char *why, unsigned long whylen)
{
  if (whylen) why[0] = '\0';
  if (s >= 1.0 || want == FARM_THROTTLE_OFF) return (int)(mode = FARM_THROTTLE_OFF);
  if (want != FARM_THROTTLE_DUTY) {
    int v = want == FARM_THROTTLE_CGROUP_V1 ? 1 : want == FARM_THROTTLE_CGROUP_V2 ? 2 : 0;
    v = farm_cgroup_start(&cg, (long)getpid(), run, host, s, v, why, whylen);
    if (v > 0) {
      if (whylen) why[0] = '\0';
      return (int)(mode = v == 1 ? FARM_THROTTLE_CGROUP_V1 : FARM_THROTTLE_CGROUP_V2);
    }
    if (want != FARM_THROTTLE_AUTO) return -1;
  }
  char dwhy[256];
  if (duty_start(s, dwhy, sizeof dwhy)) {
    if (whylen) snprintf(why, whylen, "%s", dwhy);
    return -1;
  }
  return (int)(mode = FARM_THROTTLE_DUTY);
}

void farm_throttle_stop(void)
{
  if (mode == FARM_THROTTLE_CGROUP_V1 || mode == FARM_THROTTLE_CGROUP_V2) farm_cgroup_stop(&cg, (long)getpid(), 0.5);
  else if (mode == FARM_THROTTLE_DUTY) duty_stop();
  mode = FARM_THROTTLE_OFF;
}

void farm_throttle_set_run(uint32_t run)
{
  forget_run = run;
  farm_cgroup_places();
}

void farm_throttle_forget(long pid) { farm_cgroup_forget(pid, forget_run, FARM_THROTTLE_FORGET_S); }

int farm_throttle_forget_now(long pid) { return farm_cgroup_forget_now(pid, forget_run); }

void farm_throttle_forget_run(double wait_s)
{
  if (forget_run != FARM_CGROUP_ANY_RUN) farm_cgroup_forget(0, forget_run, wait_s);
}

int farm_throttle_forget_run_now(void)
{
  return forget_run == FARM_CGROUP_ANY_RUN ? 0 : farm_cgroup_forget_now(0, forget_run);
}

void farm_throttle_forget_run_later(uint32_t run, double wait_s)
{
  pid_t c = fork();
  if (c != 0) return; /* the caller goes on; a failed fork leaves what it would have */
  setsid();           /* out of the job's process group, which is killed */
  int fd = open("/dev/null", O_RDWR);
  for (int i = 0; i < 3 && fd >= 0; i++) dup2(fd, i); /* the launcher waits for its streams' end */
  if (fd > 2) close(fd);
  farm_cgroup_forget(0, run, wait_s);
  _exit(0);
}

void farm_throttle_leave_now(void)
{
  if (mode == FARM_THROTTLE_CGROUP_V1 || mode == FARM_THROTTLE_CGROUP_V2) farm_cgroup_leave_now(&cg, (long)getpid());
}
