/* farm_cgroup.h: a CPU quota for one process, in a cgroup of its own
 * wherever the machine lets us make one.  Its NAME is
 * lbfarm-PID-RUN-HOST: the process's pid, the run id and its host index
 * in the run.  A pid alone is not unique where the cgroup file system
 * is shared by processes of several pid namespaces (another host of the
 * farm, or another run), so a name that exists already is another's: it
 * is neither used nor removed.
 *
 * v1: the cgroup v1 cpu controller at FS/cpu: cpu.cfs_period_us and
 *     cpu.cfs_quota_us of FS/cpu/NAME.
 * v2: cgroup v2's cpu.max ("QUOTA PERIOD") of
 *     - U/NAME, U the unified hierarchy (FS, or FS/unified on a
 *       hybrid set-up), where we may write there (root); else
 *     - D/NAME, D our own cgroup where it was delegated to us
 *       (`systemd-run --user --scope -p Delegate=yes CMD`).  A cgroup
 *       that hands the cpu controller to its children may hold no
 *       process itself (cgroup-v2.rst, "no internal process" rule), so
 *       D's processes move to D/lbfarm-leaf first and stay there.
 * FS is /sys/fs/cgroup and our own cgroups are read from
 * /proc/self/cgroup; farm_cgroup_set_paths replaces both (the unit tests
 * run this file logic on a fake tree in a temporary directory). */
#ifndef FARM_CGROUP_H
#define FARM_CGROUP_H

#include <stddef.h>
#include <stdint.h>

/* A short period keeps the throttled stretches shorter than a quantum,
 * so a slow host is slow evenly rather than in 100 ms bursts. */
#define FARM_CGROUP_PERIOD_US 10000L
/* The directory D's processes move to when D is delegated to us. */
#define FARM_CGROUP_LEAF      "lbfarm-leaf"
/* Run ids are 31-bit: this one stands for "any run" in forget. */
#define FARM_CGROUP_ANY_RUN   UINT32_MAX

typedef struct farm_cgroup {
  int version;           /* 1 or 2 while in force, else 0 */
  char dir[4096];        /* the process's cgroup, .../NAME */
  char home[4096];       /* where it goes back to */
  char home_procs[4096]; /* home/cgroup.procs, ready for farm_cgroup_leave_now */
} farm_cgroup;

/* Where the cgroup file systems are mounted and where a process reads
 * its own cgroups; NULL keeps (or restores) the default. */
void farm_cgroup_set_paths(const char *fs, const char *self);

/* NAME of process `pid` of run `run` as host `host`; -1 if it does not
 * fit in n bytes. */
int farm_cgroup_name(char *buf, size_t n, long pid, uint32_t run, unsigned host);

/* Move process `pid` into a new cgroup NAME holding it to `share` of a
 * core (0 < share < 1).  `want` is 1 or 2 for that version only, 0 for
 * either (v1 first: where it exists, the cpu controller is bound to it
 * and v2 cannot have it).  Returns the version in force, or -1 with the
 * reasons, one per version tried, in `why`. */
int farm_cgroup_start(farm_cgroup *cg, long pid, uint32_t run, unsigned host, double share, int want, char *why,
                      size_t whylen);

/* Move `pid` back home and remove its cgroup, waiting at most `wait_s`
 * for it to empty.  0, or -1 if the cgroup is still there. */
int farm_cgroup_stop(farm_cgroup *cg, long pid, double wait_s);

/* Remove the cgroups lbfarm-PID-RUN-* of a process of run `run` (or of
 * any run: FARM_CGROUP_ANY_RUN; or, with pid 0, of any process of run
 * `run`, which must then be given) that could not remove its own (killed),
 * wherever they were made, once their last task has left, trying for
 * at most `wait_s` seconds.  0 if none is left, -1 if one still is. */
int farm_cgroup_forget(long pid, uint32_t run, double wait_s);

/* For a signal handler (async-signal-safe: open, write, getdents64,
 * rmdir only), after farm_cgroup_places() was called outside it:
 * farm_cgroup_forget_now makes one try of farm_cgroup_forget and
 * returns how many are still busy; farm_cgroup_leave_now moves `pid`
 * home and removes its cgroup (one try; 0 if it is gone). */
void farm_cgroup_places(void);
int farm_cgroup_forget_now(long pid, uint32_t run);
int farm_cgroup_leave_now(const farm_cgroup *cg, long pid);

#endif
