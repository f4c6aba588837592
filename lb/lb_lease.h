/* lb_lease.h: the hosts' leases, as a sans-I/O state machine that the
 * farm's master and the simulator both run.
 *
 * Every host renews a lease with the master by its own clock (the
 * farm's HEARTBEAT, every lease.period); the lease runs out `duration`
 * after the last renewal.  A host whose lease runs out is fenced: the
 * driver stops and kills it where it can, takes it out of every wait
 * (lb_sink_host_down and its inventory round), and drops whatever it
 * sends from then on.  Fencing is for good: a host that comes back
 * (thawed, or its partition healed) stays out, so a result it hands in
 * later is never counted.  A host that failed another way (its exit
 * noticed, excluded for wrong results) is fenced by the driver at once.
 *
 * A renewal carries the host's progress (a counter that only grows:
 * quanta run) and the work it holds: a host that renews its lease is
 * alive however long its processes take, and the driver's timeout can
 * measure progress anywhere rather than results.  A host that renews
 * but holds work and has made no progress for `stall` is reported
 * stalled, once per stall.
 *
 * Times are the driver's (seconds on the farm, time units in the
 * simulator); nothing here reads a clock. */
#ifndef LB_LEASE_H
#define LB_LEASE_H

#include <stddef.h>
#include <stdint.h>

typedef struct lb_lease lb_lease;

/* A host renews every `period`; a lease of `duration` must outlast at
 * least two periods, or one late renewal fences a live host:
 * LB_SUCCESS, or LB_EINVAL saying so. */
int lb_lease_params_check(double period, double duration);

/* nhosts leases of `duration` (> 0); `stall` (> 0, INFINITY: never)
 * the progress-free time after which a host holding work is stalled. */
int lb_lease_alloc(size_t nhosts, double duration, double stall, lb_lease **out);
void lb_lease_free(lb_lease *l);

/* Host h's lease begins at `now` (the master sent its set-up): it must
 * renew within `duration`.  The start also counts as progress.  A
 * fenced host stays fenced (LB_ESTATE). */
int lb_lease_start(lb_lease *l, size_t h, double now);

/* h renewed at `now`, having made `progress` (its counter: a smaller
 * value than one seen before is kept as the larger) and holding `held`
 * processes.  LB_ESTATE when h is fenced (the caller drops what came
 * with it, and says so), LB_EINVAL for a host out of range. */
int lb_lease_renew(lb_lease *l, size_t h, uint64_t progress, uint64_t held, double now);
/* Any other authentic message from h also proves it alive. */
int lb_lease_touch(lb_lease *l, size_t h, double now);

/* Time passes.  The hosts whose lease ran out by `now` are fenced and
 * written to expired[0..] (each once, at most cap; *nexpired the
 * count); the hosts that became stalled since the last tick to
 * stalled[0..] (*nstalled).  Either array may be NULL with cap 0. */
int lb_lease_tick(lb_lease *l, double now, size_t *expired, size_t cap, size_t *nexpired, size_t *stalled, size_t scap,
                  size_t *nstalled);

/* h is out for another reason (its exit was noticed, it was
 * excluded): fenced now.  Fencing a fenced host changes nothing. */
int lb_lease_fence(lb_lease *l, size_t h);
int lb_lease_is_fenced(const lb_lease *l, size_t h);
/* Live (started, not fenced) hosts that hold work and have made no
 * progress for `stall` at `now` (level, not edge: for a report). */
size_t lb_lease_stalled(const lb_lease *l, double now, size_t *hosts, size_t cap);

/* When h's lease runs out (INFINITY when not started or fenced); the
 * earliest over the live hosts. */
double lb_lease_deadline(const lb_lease *l, size_t h);
double lb_lease_next_deadline(const lb_lease *l);
/* The last progress anywhere (a start, a renewal with more progress),
 * -INFINITY before any. */
double lb_lease_progress_at(const lb_lease *l);
/* Host h: its last renewal, last progress, progress and work held. */
double lb_lease_renewed_at(const lb_lease *l, size_t h);
double lb_lease_host_progress_at(const lb_lease *l, size_t h);
uint64_t lb_lease_progress(const lb_lease *l, size_t h);
uint64_t lb_lease_held(const lb_lease *l, size_t h);
/* Hosts fenced so far, and of them by their lease running out. */
size_t lb_lease_fenced(const lb_lease *l);
size_t lb_lease_expired(const lb_lease *l);

#endif
