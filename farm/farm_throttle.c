/* farm_throttle.c: cgroup v1 CPU quota, or a duty cycle. */
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include "farm_throttle.h"

#define CG_ROOT FARM_THROTTLE_CG_ROOT
/* A short period keeps the throttled stretches shorter than a quantum,
 * so a slow host is slow evenly rather than in 100 ms bursts. */
#define CG_PERIOD_US 10000

static farm_throttle_mode mode = FARM_THROTTLE_OFF;
static double speed = 1.0;
static char cg_dir[128];

static const char *names[] = { "auto", "cgroup", "duty", "off" };

int farm_throttle_parse(const char *s, farm_throttle_mode *m)
{
  for (int i = 0; i < 4; i++)
    if (!strcmp(s, names[i])) { *m = (farm_throttle_mode)i; return 0; }
  return -1;
}

const char *farm_throttle_name(farm_throttle_mode m)
{
  return (unsigned)m < 4 ? names[m] : "?";
}

static int write_file(const char *dir, const char *file, long v)
{
  char path[256];
  snprintf(path, sizeof path, "%s/%s", dir, file);
  FILE *f = fopen(path, "w");
  if (!f) return -1;
  int bad = fprintf(f, "%ld\n", v) < 0;
  bad |= fclose(f) != 0;
  return bad ? -1 : 0;
}

static int cgroup_start(double s, char *why, unsigned long whylen)
{
  snprintf(cg_dir, sizeof cg_dir, CG_ROOT "/lbfarm-%ld", (long)getpid());
  if (mkdir(cg_dir, 0755) && errno != EEXIST) {
    snprintf(why, whylen, "cannot create %s: %s", cg_dir, strerror(errno));
    cg_dir[0] = '\0';
    return -1;
  }
  long quota = (long)(s * CG_PERIOD_US + 0.5);
  if (quota < 1000) quota = 1000;  /* the kernel's minimum */
  if (write_file(cg_dir, "cpu.cfs_period_us", CG_PERIOD_US) ||
      write_file(cg_dir, "cpu.cfs_quota_us", quota) ||
      write_file(cg_dir, "cgroup.procs", (long)getpid())) {
    snprintf(why, whylen, "cannot configure %s: %s", cg_dir, strerror(errno));
    rmdir(cg_dir);
    cg_dir[0] = '\0';
    return -1;
  }
  return 0;
}

int farm_throttle_start(double s, farm_throttle_mode want, char *why, unsigned long whylen)
{
  if (whylen) why[0] = '\0';
  speed = s;
  if (s >= 1.0 || want == FARM_THROTTLE_OFF) return (int)(mode = FARM_THROTTLE_OFF);
  if (want == FARM_THROTTLE_DUTY) return (int)(mode = FARM_THROTTLE_DUTY);
  if (cgroup_start(s, why, whylen) == 0) return (int)(mode = FARM_THROTTLE_CGROUP);
  if (want == FARM_THROTTLE_CGROUP) return -1;
  return (int)(mode = FARM_THROTTLE_DUTY);
}

void farm_throttle_after(double cpu_s)
{
  if (mode != FARM_THROTTLE_DUTY || cpu_s <= 0) return;
  double t = cpu_s * (1.0 / speed - 1.0);
  struct timespec ts = { (time_t)t, (long)((t - (double)(time_t)t) * 1e9) };
  while (nanosleep(&ts, &ts) && errno == EINTR) {}
}

void farm_throttle_stop(void)
{
  if (mode == FARM_THROTTLE_CGROUP && cg_dir[0]) {
    /* A cgroup with members cannot be removed: move back to the root. */
    write_file(CG_ROOT, "cgroup.procs", (long)getpid());
    rmdir(cg_dir);
    cg_dir[0] = '\0';
  }
  mode = FARM_THROTTLE_OFF;
}

void farm_throttle_forget(long pid)
{
  char dir[128];
  snprintf(dir, sizeof dir, CG_ROOT "/lbfarm-%ld", pid);
  rmdir(dir);   /* fails, harmlessly, if there is none or it has members */
}
