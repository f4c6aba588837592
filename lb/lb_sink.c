/* lb_sink.c: see lb_sink.h. */
#include <stdlib.h>
#include "lb_sink.h"
#include "lb_errno.h"

struct lb_sink {
  size_t np, nh;
  unsigned char *accepted; /* per process */
  unsigned char *held;     /* per process, in the current round */
  unsigned char *dead;     /* per host */
  unsigned char *answered; /* per host, in the current round */
  unsigned char *strikes;  /* per host: results that failed the check */
  unsigned char *excluded; /* per host */
  size_t *count;           /* per host: processes it holds (and is given) */
  uint64_t epoch;
  int open;
  int counting; /* the open round's answers count (lb_sink_recount) */
  size_t naccepted, nlive, rr;
  unsigned long dups, reruns, rejected;
};

int lb_sink_alloc(size_t nproc, size_t nhosts, lb_sink **out)
{
  *out = NULL;
  if (!nhosts) return lb_error(LB_EINVAL, "a sink needs at least one host");
  lb_sink *s = calloc(1, sizeof *s);
  if (!s) return lb_error(LB_ENOMEM, "sink");
  s->np = nproc;
  s->nh = nhosts;
  s->nlive = nhosts;
  s->accepted = calloc(nproc ? nproc : 1, 1);
  s->held = calloc(nproc ? nproc : 1, 1);
  s->dead = calloc(nhosts, 1);
  s->answered = calloc(nhosts, 1);
  s->strikes = calloc(nhosts, 1);
  s->excluded = calloc(nhosts, 1);
  s->count = calloc(nhosts, sizeof *s->count);
  if (!s->accepted || !s->held || !s->dead || !s->answered || !s->strikes || !s->excluded || !s->count) {
    lb_sink_free(s);
    return lb_error(LB_ENOMEM, "sink for %zu processes", nproc);
  }
  *out = s;
  return LB_SUCCESS;
}

void lb_sink_free(lb_sink *s)
{
  if (!s) return;
  free(s->accepted);
  free(s->held);
  free(s->dead);
  free(s->answered);
  free(s->strikes);
  free(s->excluded);
  free(s->count);
  free(s);
}

int lb_sink_accept(lb_sink *s, uint64_t pid, size_t from, int *first)
{
  *first = 0;
  if (pid >= s->np) return lb_error(LB_EINVAL, "result of process %llu of %zu", (unsigned long long)pid, s->np);
  if (from >= s->nh) return lb_error(LB_EINVAL, "result delivered by host %zu of %zu", from, s->nh);
  if (s->dead[from])
    return lb_error(LB_ESTATE, "result of process %llu from host %zu, which is down", (unsigned long long)pid, from);
  if (s->accepted[pid]) {
    s->dups++;
    return LB_SUCCESS;
  }
  s->accepted[pid] = 1;
  s->held[pid] = 0;
  s->naccepted++;
  *first = 1;
  return LB_SUCCESS;
}

int lb_sink_restore(lb_sink *s, uint64_t pid)
{
  if (pid >= s->np)
    return lb_error(LB_EINVAL, "restored result of process %llu of %zu", (unsigned long long)pid, s->np);
  if (s->accepted[pid]) return lb_error(LB_ESTATE, "process %llu is accepted already", (unsigned long long)pid);
  s->accepted[pid] = 1;
  s->naccepted++;
  return LB_SUCCESS;
}

int lb_sink_is_accepted(const lb_sink *s, uint64_t pid) { return pid < s->np && s->accepted[pid]; }
int lb_sink_is_live(const lb_sink *s, size_t h) { return h < s->nh && !s->dead[h]; }
size_t lb_sink_live_hosts(const lb_sink *s) { return s->nlive; }
size_t lb_sink_accepted(const lb_sink *s) { return s->naccepted; }
unsigned long lb_sink_duplicates(const lb_sink *s) { return s->dups; }
unsigned long lb_sink_reruns_total(const lb_sink *s) { return s->reruns; }
unsigned long lb_sink_rejected(const lb_sink *s) { return s->rejected; }
unsigned lb_sink_strikes(const lb_sink *s, size_t h) { return h < s->nh ? s->strikes[h] : 0; }
int lb_sink_is_excluded(const lb_sink *s, size_t h) { return h < s->nh && s->excluded[h]; }

/* A new epoch of the inventory round: no answer yet, nothing held. */
static void new_epoch(lb_sink *s)
{
  s->epoch++;
  for (size_t k = 0; k < s->np; k++) s->held[k] = 0;
  for (size_t h = 0; h < s->nh; h++) {
    s->answered[h] = 0;
    s->count[h] = 0;
  }
}

int lb_sink_host_down(lb_sink *s, size_t d, uint64_t *epoch)
{
  if (d >= s->nh) return lb_error(LB_EINVAL, "host %zu of %zu", d, s->nh);
  if (!s->dead[d]) {
    s->dead[d] = 1;
    s->nlive--;
    s->open = 1;
    s->counting = 0;
    new_epoch(s);
  }
  *epoch = s->epoch;
  return s->nlive ? LB_SUCCESS : lb_error(LB_ESTATE, "no host is left");
}

int lb_sink_inventory(lb_sink *s, uint64_t epoch, size_t h, const uint64_t *pids, size_t n)
{
  if (h >= s->nh) return lb_error(LB_EINVAL, "inventory of host %zu of %zu", h, s->nh);
  for (size_t k = 0; k < n; k++)
    if (pids[k] >= s->np)
      return lb_error(LB_EINVAL, "inventory names process %llu of %zu", (unsigned long long)pids[k], s->np);
  if (!s->open || epoch != s->epoch || s->dead[h] || s->answered[h]) return LB_SUCCESS;
  s->answered[h] = 1;
  for (size_t k = 0; k < n; k++) s->held[pids[k]] = 1;
  s->count[h] = n;
  return LB_SUCCESS;
}

int lb_sink_counted(const lb_sink *s) { return !s->open || s->counting; }

int lb_sink_recount(lb_sink *s, uint64_t *epoch)
{
  *epoch = s->epoch;
  if (!s->open || s->counting) return LB_SUCCESS;
  if (lb_sink_waiting(s)) return lb_error(LB_ESTATE, "the inventory round still waits for its first answers");
  s->counting = 1;
  new_epoch(s);
  *epoch = s->epoch;
  return LB_SUCCESS;
}

int lb_sink_waiting(const lb_sink *s)
{
  if (!s->open) return 0;
  for (size_t h = 0; h < s->nh; h++)
    if (!s->dead[h] && !s->answered[h]) return 1;
  return 0;
}

size_t lb_sink_missing(const lb_sink *s, size_t *hosts, size_t cap)
{
  size_t m = 0;
  for (size_t h = 0; s->open && h < s->nh; h++)
    if (!s->dead[h] && !s->answered[h]) {
      if (m < cap) hosts[m] = h;
      m++;
    }
  return m;
}

/* The live host holding fewest, ties broken in turn. */
static size_t lightest(lb_sink *s, size_t avoid)
{
  size_t best = (size_t)-1;
  for (size_t j = 0; j < s->nh; j++) {
    size_t h = (s->rr + j) % s->nh;
    if (s->dead[h] || h == avoid) continue;
    if (best == (size_t)-1 || s->count[h] < s->count[best]) best = h;
  }
  s->rr = (s->rr + 1) % s->nh;
  return best;
}

int lb_sink_reruns(lb_sink *s, uint64_t **pids, size_t **hosts, size_t *n)
{
  *pids = NULL;
  *hosts = NULL;
  *n = 0;
  if (!s->open) return LB_SUCCESS;
  if (lb_sink_waiting(s)) return lb_error(LB_ESTATE, "the inventory round is still open");
  size_t m = 0;
  for (size_t k = 0; k < s->np; k++) m += !s->accepted[k] && !s->held[k];
  uint64_t *p = malloc((m ? m : 1) * sizeof *p);
  size_t *h = malloc((m ? m : 1) * sizeof *h);
  if (!p || !h) {
    free(p);
    free(h);
    return lb_error(LB_ENOMEM, "re-run list");
  }
  size_t i = 0;
  for (size_t k = 0; k < s->np; k++) {
    if (s->accepted[k] || s->held[k]) continue;
    p[i] = k;
    h[i] = lightest(s, (size_t)-1);
    s->count[h[i]]++;
    s->held[k] = 1;
    i++;
  }
  s->open = 0;
  s->reruns += m;
  *pids = p;
  *hosts = h;
  *n = m;
  return LB_SUCCESS;
}

int lb_sink_lost(lb_sink *s, size_t h, uint64_t pid, size_t *host)
{
  if (pid >= s->np) return lb_error(LB_EINVAL, "lost process %llu of %zu", (unsigned long long)pid, s->np);
  if (s->accepted[pid]) return lb_error(LB_ESTATE, "process %llu is done already", (unsigned long long)pid);
  size_t to = lightest(s, h);
  if (to == (size_t)-1) return lb_error(LB_ESTATE, "no other live host for process %llu", (unsigned long long)pid);
  s->held[pid] = 1;
  s->count[to]++;
  s->reruns++;
  *host = to;
  return LB_SUCCESS;
}

int lb_sink_reject(lb_sink *s, uint64_t pid, size_t exec, size_t *host, int *exclude)
{
  *exclude = 0;
  if (pid >= s->np) return lb_error(LB_EINVAL, "rejected process %llu of %zu", (unsigned long long)pid, s->np);
  if (exec >= s->nh) return lb_error(LB_EINVAL, "result made on host %zu of %zu", exec, s->nh);
  if (s->accepted[pid]) return lb_error(LB_ESTATE, "process %llu is done already", (unsigned long long)pid);
  s->rejected++;
  if (s->strikes[exec] < 255) s->strikes[exec]++;
  if (s->strikes[exec] >= LB_SINK_STRIKES && !s->excluded[exec] && !s->dead[exec]) {
    s->excluded[exec] = 1;
    *exclude = 1;
  }
  size_t to = lightest(s, exec);
  if (to == (size_t)-1)
    return lb_error(LB_ESTATE, "no host but %zu is live to run process %llu again", exec, (unsigned long long)pid);
  /* Nobody holds it now but the host that runs it again: an open round
   * must not run it a second time. */
  s->held[pid] = 1;
  s->count[to]++;
  s->reruns++;
  *host = to;
  return LB_SUCCESS;
}
