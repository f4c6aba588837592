/* master_recover.c: when a host fails, the master's side of lb_sink: the
 * survivors learn of it, say what they hold, and what nobody holds runs
 * again; a process a host cannot run runs again elsewhere. */
#include <stdio.h>
#include <stdlib.h>
#include "master_ctx.h"
#include "lb_errno.h"
#include "cli.h"

/* An inventory round waits this long for the survivors' answers, then
 * takes the silent ones for failed too. */
#define ROUND_BOUND_S 10.0

/* The processes of a closed round, one TASKS per host. */
static int rerun(master_ctx *x)
{
  uint64_t *pids;
  size_t *hosts, n;
  if (lb_sink_reruns(x->sink, &pids, &hosts, &n)) {
    fprintf(stderr, "%s: %s\n", cli_prog(), lb_errmsg());
    return -1;
  }
  uint64_t *mine = malloc((n ? n : 1) * sizeof *mine);
  int rc = mine ? 0 : -1;
  for (int h = 0; h < x->o->hosts && !rc; h++) {
    size_t m = 0;
    for (size_t k = 0; k < n; k++)
      if ((int)hosts[k] == h) mine[m++] = pids[k];
    if (m && master_send_procs(x, h, mine, m) < 0) rc = -1;
  }
  if (n) fprintf(stderr, "%s: %zu process(es) run again from the start on the surviving hosts\n", cli_prog(), n);
  x->tl.reruns += n;
  free(mine);
  free(pids);
  free(hosts);
  return rc;
}

/* DOWN, naming every host down so far, to every live host: each
 * answers with an INVENTORY of round `epoch`. */
static int send_down(master_ctx *x, uint64_t epoch)
{
  uint32_t *list = malloc((size_t)x->o->hosts * sizeof *list), n = 0;
  if (!list) cli_die(CLI_EXIT_FAIL, "out of memory");
  for (int i = 0; i < x->o->hosts; i++)
    if (x->down[i]) list[n++] = (uint32_t)i;
  unsigned char *buf;
  size_t len;
  int rc = farm_down_encode(epoch, list, n, &buf, &len) ? -1 : 0;
  for (int i = 0; i < x->o->hosts && !rc; i++)
    if (!x->down[i]) x->xp->send(x->xp->ctx, x->tids[i], FARM_DOWN, buf, len);
  if (!rc) free(buf);
  free(list);
  x->round_at = cli_now();
  return rc;
}

/* Every survivor has answered the first DOWN, so every one knows of the
 * failure and sends nothing more towards the dead host.  The first
 * answers do not count: a host that answered early may since have
 * passed a process or a result to one that had not heard yet and sent
 * it on to the dead host, where it was lost though the early answer
 * named it.  What they hold now is asked again (lb_sink_recount). */
static int recount(master_ctx *x)
{
  uint64_t epoch;
  if (lb_sink_recount(x->sink, &epoch)) {
    fprintf(stderr, "%s: %s\n", cli_prog(), lb_errmsg());
    return -1;
  }
  return send_down(x, epoch);
}

int master_host_down(master_ctx *x, int h, const char *why)
{
  if (h < 0 || h >= x->o->hosts || x->down[h]) return 0;
  x->down[h] = 1;
  x->down_at[h] = cli_now();
  x->tl.hosts_down++;
  /* Out for good: what it sends from now on is dropped. */
  lb_lease_fence(x->lease, (size_t)h);
  /* A silent one may still run; what it cannot remove itself (its
   * cgroup, PVM's sockets) goes with it, where the transport can. */
  if (x->tids[h] > 0 && x->xp->kill) x->xp->kill(x->xp->ctx, x->tids[h]);
  if (lb_sink_accepted(x->sink) == x->o->w.nproc) {
    /* Every result is in: nothing of it to recover. */
    fprintf(stderr, "%s: host %d (t%x) %s %.3f s into the run, with every result in\n", cli_prog(), h, x->tids[h], why,
            cli_now() - x->tl.tstart);
    return 0;
  }
  uint64_t epoch;
  if (lb_sink_host_down(x->sink, (size_t)h, &epoch)) {
    fprintf(stderr, "%s: host %d (t%x) %s, and no host is left\n", cli_prog(), h, x->tids[h], why);
    return -1;
  }
  fprintf(stderr, "%s: host %d (t%x) %s %.3f s into the run: asking the %zu others what they hold\n", cli_prog(), h,
          x->tids[h], why, cli_now() - x->tl.tstart, lb_sink_live_hosts(x->sink));
  return send_down(x, epoch);
}

int master_on_inventory(master_ctx *x, int h, const unsigned char *body, size_t len)
{
  uint64_t epoch, *pids;
  uint32_t n;
  if (farm_inventory_decode(body, len, x->o->w.nproc, &epoch, &pids, &n)) {
    fprintf(stderr, "%s: malformed INVENTORY from host %d dropped: %s\n", cli_prog(), h, lb_errmsg());
    x->tl.dropped++;
    return 0;
  }
  int rc = lb_sink_inventory(x->sink, epoch, (size_t)h, pids, n) ? -1 : 0;
  free(pids);
  if (!rc && !lb_sink_waiting(x->sink)) rc = lb_sink_counted(x->sink) ? rerun(x) : recount(x);
  return rc;
}

int master_on_lost(master_ctx *x, int h, const unsigned char *body, size_t len)
{
  uint64_t pid;
  size_t to;
  if (farm_lost_decode(body, len, x->o->w.nproc, &pid)) {
    fprintf(stderr, "%s: malformed LOST from host %d dropped: %s\n", cli_prog(), h, lb_errmsg());
    x->tl.dropped++;
    return 0;
  }
  if (lb_sink_is_accepted(x->sink, pid)) return 0;
  if (lb_sink_lost(x->sink, (size_t)h, pid, &to)) {
    fprintf(stderr, "%s: process %llu: %s\n", cli_prog(), (unsigned long long)pid, lb_errmsg());
    return -1;
  }
  fprintf(stderr, "%s: host %d could not run process %llu: it runs again on host %zu\n", cli_prog(), h,
          (unsigned long long)pid, to);
  x->tl.reruns++;
  return master_send_procs(x, (int)to, &pid, 1) < 0 ? -1 : 0;
}

int master_recover_tick(master_ctx *x)
{
  if (!lb_sink_waiting(x->sink) || cli_now() - x->round_at < ROUND_BOUND_S) return 0;
  size_t miss[64], n = lb_sink_missing(x->sink, miss, 64);
  for (size_t k = 0; k < n && k < 64; k++)
    if (master_host_down(x, (int)miss[k], "did not answer for 10 s")) return -1;
  return 0;
}
