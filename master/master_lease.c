/* master_lease.c: the master's side of the hosts' leases (lb_lease.h):
 * renewals, expiry and fencing, and progress for the run's timeout. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "master_ctx.h"
#include "lb_errno.h"
#include "cli.h"

/* A drain before fencing takes at most this many messages or this long:
 * a flood must not hold the master. */
#define DRAIN_MAX 4096
#define DRAIN_S   0.5

/* A fenced host's machine is cut (farm_xport.h) this long after the
 * fence: after the transport's SIGKILL (1 s), which a worker stopped on
 * a live machine cannot ignore, and which a machine deleted first would
 * never pass on (a pvmd that halts sends its tasks SIGTERM only). */
#define CUT_AFTER_S 1.5

int master_lease_begin(master_ctx *x)
{
  const master_opts *o = x->o;
  double now = cli_now();
  for (int h = 0; h < o->hosts; h++)
    if (!x->down[h] && lb_lease_start(x->lease, (size_t)h, now)) return -1;
  return 0;
}

void master_lease_heard(master_ctx *x, int h)
{
  if (h >= 0 && h < x->o->hosts && !x->down[h]) lb_lease_touch(x->lease, (size_t)h, cli_now());
}

int master_on_beat(master_ctx *x, int h, const unsigned char *body, size_t len)
{
  farm_beat b;
  int bad = farm_beat_decode(body, len, (uint32_t)x->o->hosts, &b);
  if (!bad && b.me != (uint32_t)h) bad = lb_error(LB_EFORMAT, "it names host %u", b.me);
  if (bad) {
    fprintf(stderr, "%s: malformed HEARTBEAT from host %d dropped: %s\n", cli_prog(), h, lb_errmsg());
    x->tl.dropped++;
    return 0;
  }
  lb_lease_renew(x->lease, (size_t)h, b.quanta, b.held, cli_now());
  return 0;
}

void master_drop_late(master_ctx *x, int h, const farm_in *in)
{
  const char *what = farm_tag_name(in->tag) ? farm_tag_name(in->tag) : "message";
  if (h >= 0 && x->down_at[h] > 0)
    fprintf(stderr, "%s: late %s from host %d (t%x), out since %.3f s into the run, dropped\n", cli_prog(), what, h,
            in->src, x->down_at[h] - x->tl.tstart);
  else fprintf(stderr, "%s: %s from t%x, not a live host, dropped\n", cli_prog(), what, in->src);
  x->tl.dropped++;
  if (h >= 0) x->tl.late++;
}

/* Take what is already here, without waiting: a renewal among it
 * proves a host alive whose lease only looked run out because the
 * master was busy. */
static int drain(master_ctx *x)
{
  double until = cli_now() + DRAIN_S;
  for (int k = 0; k < DRAIN_MAX && cli_now() < until; k++) {
    farm_in in;
    int r = x->xp->recv(x->xp->ctx, -1, -1, 0, &in);
    if (r < 0) return -1;
    if (r == 0) break;
    if (master_dispatch(x, &in)) return -1;
  }
  return 0;
}

/* A fenced host taken out of the transport too (farm_xport.h's cut),
 * unless a live worker or the master runs there: 1 done (its name in
 * name[0..cap-1]), 0 nothing to do, < 0 refused. */
static int cut(master_ctx *x, int h, char *name, size_t cap)
{
  if (!x->xp->cut || x->tids[h] <= 0) return 0;
  int *live = malloc((size_t)x->o->hosts * sizeof *live), n = 0;
  if (!live) cli_die(CLI_EXIT_FAIL, "out of memory");
  for (int i = 0; i < x->o->hosts; i++)
    if (i != h && !x->down[i] && x->tids[i] > 0) live[n++] = x->tids[i];
  int r = x->xp->cut(x->xp->ctx, x->tids[h], live, n, name, cap);
  free(live);
  return r;
}

static void say_cut(int h, int r, const char *name)
{
  if (r > 0)
    fprintf(stderr,
            "%s: host %d's machine %s deleted from the virtual machine (its pvmd would hold the others' messages "
            "for minutes)\n",
            cli_prog(), h, name);
  else if (r < 0)
    fprintf(stderr, "%s: host %d's machine could not be deleted from the virtual machine (%d)\n", cli_prog(), h, r);
}

int master_lease_tick(master_ctx *x)
{
  const master_opts *o = x->o;
  if (lb_lease_next_deadline(x->lease) < cli_now() && drain(x)) return -1;
  size_t *exp = malloc((size_t)o->hosts * sizeof *exp), *st = malloc((size_t)o->hosts * sizeof *st), ne, ns;
  if (!exp || !st) cli_die(CLI_EXIT_FAIL, "out of memory");
  double now = cli_now();
  lb_lease_tick(x->lease, now, exp, (size_t)o->hosts, &ne, st, (size_t)o->hosts, &ns);
  int rc = 0;
  for (size_t k = 0; k < ns; k++)
    fprintf(stderr, "%s: host %zu renews its lease but ran no quantum for %g s, holding %llu process(es)\n", cli_prog(),
            st[k], now - lb_lease_host_progress_at(x->lease, st[k]),
            (unsigned long long)lb_lease_held(x->lease, st[k]));
  for (size_t k = 0; k < ne && !rc; k++) {
    int h = (int)exp[k];
    char why[160];
    snprintf(why, sizeof why, "renewed no lease for %.3f s (lease %g s): fenced",
             now - lb_lease_renewed_at(x->lease, (size_t)h), o->par.lease.duration);
    x->fenced[h] = 1;
    x->tl.fenced++;
    /* Told to stop, should it come back before the transport ends it. */
    master_send_quit(x->xp, x->tids[h]);
    rc = master_host_down(x, h, why);
  }
  for (int h = 0; h < o->hosts && !rc; h++)
    if (x->fenced[h] == 1 && now - x->down_at[h] >= CUT_AFTER_S) {
      char name[256];
      x->fenced[h] = 2;
      say_cut(h, cut(x, h, name, sizeof name), name);
    }
  free(exp);
  free(st);
  return rc;
}

double master_progress_at(const master_ctx *x)
{
  double p = lb_lease_progress_at(x->lease);
  return x->tl.tend > p ? x->tl.tend : p;
}

void master_say_stalled(const master_ctx *x, FILE *to)
{
  const master_opts *o = x->o;
  double now = cli_now();
  size_t *st = malloc((size_t)o->hosts * sizeof *st);
  if (!st) cli_die(CLI_EXIT_FAIL, "out of memory");
  size_t n = lb_lease_stalled(x->lease, now, st, (size_t)o->hosts);
  if (!n) fprintf(to, "%s: no live host holds work\n", cli_prog());
  for (size_t k = 0; k < n; k++) {
    double at = lb_lease_host_progress_at(x->lease, st[k]);
    fprintf(to,
            "%s: host %zu stalled: it holds %llu process(es), renews its lease (last %.3f s ago) and ran "
            "no quantum since %.3f s into the run\n",
            cli_prog(), st[k], (unsigned long long)lb_lease_held(x->lease, st[k]),
            now - lb_lease_renewed_at(x->lease, st[k]), isfinite(at) ? at - x->tl.tstart : 0.0);
  }
  free(st);
}
