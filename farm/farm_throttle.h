/* farm_throttle.h: emulate a host of relative speed s (0 < s <= 1) by
 * giving the worker a CPU share of s.
 *
 * cgroup: a cgroup v1 CPU controller directory of its own under
 *   /sys/fs/cgroup/cpu with cfs_quota_us = s * cfs_period_us; the kernel
 *   enforces it, whatever the worker does.
 * duty: the documented fallback where the cgroup file system is not
 *   writable (e.g. inside `ip netns exec`, which remounts /sys): after a
 *   quantum that used t CPU seconds the worker sleeps t (1/s - 1), so it
 *   computes a fraction s of its wall time.
 * Speed 1.0 means no throttling in either mode. */
#ifndef FARM_THROTTLE_H
#define FARM_THROTTLE_H

/* A worker's cgroup is FARM_THROTTLE_CG_ROOT "/lbfarm-<pid>". */
#define FARM_THROTTLE_CG_ROOT "/sys/fs/cgroup/cpu"

typedef enum farm_throttle_mode {
  FARM_THROTTLE_AUTO = 0,   /* cgroup if possible, else duty */
  FARM_THROTTLE_CGROUP = 1,
  FARM_THROTTLE_DUTY = 2,
  FARM_THROTTLE_OFF = 3
} farm_throttle_mode;

/* Parse auto|cgroup|duty|off; 0 or -1. */
int farm_throttle_parse(const char *s, farm_throttle_mode *m);
const char *farm_throttle_name(farm_throttle_mode m);

/* Start throttling this process at `speed`.  Returns the mode in force
 * (OFF for speed >= 1), or -1 if `want` was CGROUP and it failed; `why`
 * gets a one-line reason when AUTO fell back to DUTY. */
int farm_throttle_start(double speed, farm_throttle_mode want, char *why, unsigned long whylen);
/* After a quantum of `cpu_s` CPU seconds (duty mode sleeps here). */
void farm_throttle_after(double cpu_s);
/* Undo: leave and remove the cgroup. */
void farm_throttle_stop(void);
/* Remove the cgroup of worker `pid`, which ended without
 * farm_throttle_stop() (killed with its virtual machine). */
void farm_throttle_forget(long pid);

#endif
