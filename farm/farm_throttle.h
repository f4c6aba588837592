/* farm_throttle.h: emulate a host of relative speed s (0 < s <= 1) by
 * giving the worker a CPU share of s.
 *
 * cgroup-v1, cgroup-v2: a cgroup of the worker's own holding it to
 *   s x 10 ms of CPU per 10 ms (farm_cgroup.h says where it is made);
 *   the kernel enforces it, whatever the worker does.
 * duty: the fallback where no cgroup can be made (an unprivileged user
 *   on cgroup v2 without delegation; inside `ip netns exec`, which
 *   remounts /sys).  A CPU-time timer stops the worker after every
 *   s x 10 ms of CPU it used and pays it from a bucket filled at s per
 *   second of wall time (at most two periods' quota), sleeping off any
 *   debt: the same quota per period, held by the worker itself
 *   (docs/FARM.md).
 * Speed 1.0 means no throttling in any mode. */
#ifndef FARM_THROTTLE_H
#define FARM_THROTTLE_H

#include <stdint.h>

typedef enum farm_throttle_mode {
  FARM_THROTTLE_AUTO = 0,   /* wanted: a cgroup if possible, else duty */
  FARM_THROTTLE_CGROUP = 1, /* wanted: a cgroup of either version, or fail */
  FARM_THROTTLE_DUTY = 2,
  FARM_THROTTLE_OFF = 3,
  FARM_THROTTLE_CGROUP_V1 = 4, /* in force (or wanted): cgroup v1 cpu quota */
  FARM_THROTTLE_CGROUP_V2 = 5, /* in force (or wanted): cgroup v2 cpu.max */
  FARM_THROTTLE_NMODES = 6
} farm_throttle_mode;

/* Parse auto|cgroup|cgroup-v1|cgroup-v2|duty|off; 0 or -1. */
int farm_throttle_parse(const char *s, farm_throttle_mode *m);
const char *farm_throttle_name(farm_throttle_mode m);

/* Start throttling this process, host `host` of run `run`, at `speed`.
 * Returns the mode in force (OFF for speed >= 1), or -1 if a cgroup was
 * wanted and none could be made; `why` gets a one-line reason when AUTO
 * fell back to DUTY.  The cgroup's name holds the pid, run and host
 * (farm_cgroup.h). */
int farm_throttle_start(double speed, farm_throttle_mode want, uint32_t run, unsigned host, char *why,
                        unsigned long whylen);
/* Undo: leave and remove the cgroup, or stop the duty timer. */
void farm_throttle_stop(void);
/* The master's: the run whose workers' cgroups farm_throttle_forget
 * removes (until it is called: those of any run). */
void farm_throttle_set_run(uint32_t run);
/* Remove the cgroup of worker `pid` of that run, which ended without
 * farm_throttle_stop() (killed with its virtual machine), once its last
 * task has left: waits at most FARM_THROTTLE_FORGET_S. */
#define FARM_THROTTLE_FORGET_S 2.0
void farm_throttle_forget(long pid);
/* From a signal handler (async-signal-safe): one try of
 * farm_throttle_forget, returning how many are still busy; and this
 * process leaving its own cgroup (farm_throttle_stop's part). */
int farm_throttle_forget_now(long pid);
void farm_throttle_leave_now(void);
/* Every cgroup of that run on this machine, whoever's (a worker that
 * died before the master heard of it leaves one the master never
 * names): removed as each empties, for at most `wait_s`; and one try
 * from a signal handler, returning how many are still busy.  Nothing
 * until farm_throttle_set_run was called. */
void farm_throttle_forget_run(double wait_s);
int farm_throttle_forget_run_now(void);
/* For a master about to be ended with its workers (MPI_Abort), which
 * never learns their pids: a detached child (its own session, no
 * standard streams) removes every cgroup of this run on this machine
 * as its tasks leave, for at most `wait_s` seconds, and exits. */
void farm_throttle_forget_run_later(uint32_t run, double wait_s);

/* The duty mode's quota, kept apart from its timer so it can be
 * tested: a token bucket of CPU seconds filled at `share` per second of
 * wall time, holding at most FARM_DUTY_BURST periods' quota.  A stop
 * that ends late, or a core another process held, is made up in the
 * next periods (the cgroup's fixed period grid allows as much); idle
 * time banks no more than the burst. */
#define FARM_DUTY_BURST 2.0
typedef struct farm_duty_bucket {
  double share, cap, tokens, wall, cpu;
} farm_duty_bucket;
void farm_duty_init(farm_duty_bucket *b, double share, double period_s, double wall, double cpu);
/* Pays the CPU used up to `cpu` at wall time `now`; returns the wall
 * time to sleep until (`now` when there is no debt).  The next payment
 * credits a wake-up later than that. */
double farm_duty_pay(farm_duty_bucket *b, double cpu, double now);

#endif
