/* lb_sink.h: the results' sink, and its recovery when hosts fail, as a
 * sans-I/O state machine that the simulator and lbmaster both run.
 *
 * The sink accepts each process's result once, by process id, and
 * reports a later one as a duplicate to drop.  When a host fails it
 * starts an inventory round: every live host learns of the failure and
 * answers; when all have, every live host is asked again and says which
 * processes it still holds (queued, running, or a finished result not
 * yet delivered); when all have answered, every process that is neither accepted nor
 * held anywhere (it was on the dead host, or in transit to or from it)
 * is run again from the start on a live host, the one holding fewest
 * first.  A process in transit between live hosts during the round may
 * be run twice; its second result is a duplicate the sink drops, so
 * each result is still taken exactly once.  A second failure during a
 * round starts a new round.
 *
 * A result counts only once the driver has checked it (the master
 * verifies it; the simulator compares its bytes).  Any live host may
 * deliver it: the one that ran it, its origin, or a relay that delivers
 * it itself because its way home failed.  A result that fails the check
 * is rejected: it is dropped, the process runs again from the start on
 * another host, and the host that made it gets a strike; at
 * LB_SINK_STRIKES strikes that host is excluded, which the driver
 * carries out as a failure of the host (lb_sink_host_down and its
 * inventory round), so its processes are recovered as a dead host's. */
#ifndef LB_SINK_H
#define LB_SINK_H

#include <stddef.h>
#include <stdint.h>

typedef struct lb_sink lb_sink;

/* Results of one host that fail the check before it is excluded. */
#define LB_SINK_STRIKES 3

int lb_sink_alloc(size_t nproc, size_t nhosts, lb_sink **out);
void lb_sink_free(lb_sink *s);

/* A result of pid, delivered by host `from`, passed the driver's check:
 * *first = 1 the first time (it is accepted), 0 for a duplicate.  The
 * delivery also tells the sink that `from` no longer holds it.
 * LB_EINVAL for a pid or host out of range; LB_ESTATE from a host that
 * is down (what it held runs again elsewhere: its deliveries no longer
 * count). */
int lb_sink_accept(lb_sink *s, uint64_t pid, size_t from, int *first);
int lb_sink_is_accepted(const lb_sink *s, uint64_t pid);
/* A result the driver took before the run began (an earlier master's
 * journal) and checked: pid is accepted, from no host, and never runs.
 * LB_EINVAL for a pid out of range, LB_ESTATE when it is accepted
 * already. */
int lb_sink_restore(lb_sink *s, uint64_t pid);

/* Host d failed: a new inventory round; *epoch names it.  A host that
 * is down already changes nothing (the current epoch is returned). */
int lb_sink_host_down(lb_sink *s, size_t d, uint64_t *epoch);
int lb_sink_is_live(const lb_sink *s, size_t h);
size_t lb_sink_live_hosts(const lb_sink *s);

/* Host h's answer to round `epoch`: the processes it holds.  An answer
 * to an older round, a second answer, or one from a dead host is
 * ignored (LB_SUCCESS); ids out of range are LB_EINVAL. */
int lb_sink_inventory(lb_sink *s, uint64_t epoch, size_t h, const uint64_t *pids, size_t n);
/* The answers to a round's first epoch say only that every live host
 * now knows of the failure: a host that had not heard of it yet may
 * still have sent to the dead host what another host had already named
 * as held.  Once they are all in, lb_sink_recount asks again (*epoch,
 * a new one, which the driver sends to every live host); only answers
 * to that epoch count, and only from then on does lb_sink_reruns run
 * anything again.  A driver whose hosts all learn of a failure at the
 * same instant (the simulator) still goes through both.  Nothing to do
 * (LB_SUCCESS, the current epoch) when no round is open or it counts
 * already; LB_ESTATE while first answers are missing. */
int lb_sink_recount(lb_sink *s, uint64_t *epoch);
/* No round is open, or the open one's answers count. */
int lb_sink_counted(const lb_sink *s);
/* A round is open and still waits for answers. */
int lb_sink_waiting(const lb_sink *s);
/* Live hosts that have not answered the current round (for a bound on
 * the wait: the driver may declare them down). */
size_t lb_sink_missing(const lb_sink *s, size_t *hosts, size_t cap);

/* When the round is complete (after lb_sink_recount, for drivers that
 * use it): the processes to run again and the host for each, in new
 * arrays (caller frees); the round is closed.  Zero processes is a
 * valid answer. */
int lb_sink_reruns(lb_sink *s, uint64_t **pids, size_t **hosts, size_t *n);

/* Host h cannot run pid (its context is damaged): run it again from the
 * start elsewhere; *host gets where, or LB_ESTATE when no other host is
 * live. */
int lb_sink_lost(lb_sink *s, size_t h, uint64_t pid, size_t *host);

/* The result of pid that host `exec` made failed the driver's check:
 * it is dropped, and pid runs again from the start on the live host
 * other than exec that holds fewest, *host.  exec gets a strike; the
 * strike that makes LB_SINK_STRIKES sets *exclude (once per host): the
 * driver then takes exec for failed (lb_sink_host_down).  LB_EINVAL for
 * a pid or host out of range; LB_ESTATE when pid is accepted already
 * (nothing to do) or no other host is live. */
int lb_sink_reject(lb_sink *s, uint64_t pid, size_t exec, size_t *host, int *exclude);
unsigned lb_sink_strikes(const lb_sink *s, size_t h);
int lb_sink_is_excluded(const lb_sink *s, size_t h);
unsigned long lb_sink_rejected(const lb_sink *s);

size_t lb_sink_accepted(const lb_sink *s);
unsigned long lb_sink_duplicates(const lb_sink *s);
unsigned long lb_sink_reruns_total(const lb_sink *s);

#endif
