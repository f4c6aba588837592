/* farm_throttle.c: a cgroup quota (farm_cgroup.c), or a duty cycle. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <time.h>
#include <unistd.h>
#include "farm_throttle.h"
#include "farm_cgroup.h"

static farm_throttle_mode mode = FARM_THROTTLE_OFF;
static farm_cgroup cg;

static const char *names[FARM_THROTTLE_NMODES] = { "auto", "cgroup", "duty", "off", "cgroup-v1", "cgroup-v2" };

int farm_throttle_parse(const char *s, farm_throttle_mode *m)
{
  for (int i = 0; i < FARM_THROTTLE_NMODES; i++)
    if (!strcmp(s, names[i])) { *m = (farm_throttle_mode)i; return 0; }
  return -1;
}

const char *farm_throttle_name(farm_throttle_mode m)
{
  return (unsigned)m < FARM_THROTTLE_NMODES ? names[m] : "?";
}

/* duty: after a quantum that used t CPU seconds the worker sleeps
 * t (1/s - 1), so it computes a fraction s of its wall time. */
static double speed = 1.0;

int farm_throttle_start(double s, farm_throttle_mode want, char *why, unsigned long whylen)
{
  if (whylen) why[0] = '\0';
  if (s >= 1.0 || want == FARM_THROTTLE_OFF) return (int)(mode = FARM_THROTTLE_OFF);
  if (want != FARM_THROTTLE_DUTY) {
    int v = want == FARM_THROTTLE_CGROUP_V1 ? 1 : want == FARM_THROTTLE_CGROUP_V2 ? 2 : 0;
    v = farm_cgroup_start(&cg, (long)getpid(), s, v, why, whylen);
    if (v > 0) {
      if (whylen) why[0] = '\0';
      return (int)(mode = v == 1 ? FARM_THROTTLE_CGROUP_V1 : FARM_THROTTLE_CGROUP_V2);
    }
    if (want != FARM_THROTTLE_AUTO) return -1;
  }
  speed = s;
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
  if (mode == FARM_THROTTLE_CGROUP_V1 || mode == FARM_THROTTLE_CGROUP_V2)
    farm_cgroup_stop(&cg, (long)getpid(), 0.5);
  mode = FARM_THROTTLE_OFF;
}

void farm_throttle_forget(long pid)
{
  farm_cgroup_forget(pid, FARM_THROTTLE_FORGET_S);
}
