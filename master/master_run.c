/* master_run.c: set up the workers, hand out the processes, collect and
 * verify the results, gather the reports. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <math.h>
#include "master_ctx.h"
#include "master_trace.h"
#include "farm_wire.h"
#include "app_verify.h"
#include "lb_topo.h"
#include "lb_rng.h"
#include "lb_share.h"
#include "lb_optimum.h"
#include "lb_errno.h"
#include "cli.h"

volatile sig_atomic_t master_interrupted;

/* Which host each process starts on. */
static void distribute(const master_opts *o, int *where)
{
  unsigned long np = o->w.nproc;
  int h = o->hosts;
  if (o->init == FARM_INIT_ONE) {
    for (unsigned long i = 0; i < np; i++) where[i] = 0;
  } else if (o->init == FARM_INIT_EVEN) {
    for (unsigned long i = 0; i < np; i++) where[i] = (int)(i % (unsigned long)h);
  } else if (o->init == FARM_INIT_SKEWED || o->init == FARM_INIT_SHARE) {
    /* Contiguous blocks: skewed, host k gets a share proportional to
     * 2^-k (half on host 0, a quarter on host 1, ...); share, the shares
     * of OPT_LOAD_SHARE (seed 004) with every host available from the
     * start, i.e. in proportion to speed. */
    double *share = malloc((size_t)h * sizeof *share);
    unsigned long *count = malloc((size_t)h * sizeof *count);
    if (!share || !count) cli_die(CLI_EXIT_FAIL, "out of memory");
    if (o->init == FARM_INIT_SKEWED) {
      for (int k = 0; k < h; k++) share[k] = 1.0 / (double)(1ul << (k < 60 ? k : 60));
    } else {
      lb_share_window always = {0, INFINITY};
      lb_share_proc *p = malloc((size_t)h * sizeof *p);
      double tstar;
      if (!p) cli_die(CLI_EXIT_FAIL, "out of memory");
      for (int k = 0; k < h; k++) p[k] = (lb_share_proc){o->speed[k], 1, &always};
      if (lb_share_opt((size_t)h, p, 0, (double)np, &tstar, share, NULL))
        cli_die(CLI_EXIT_FAIL, "OPT_LOAD_SHARE: %s", lb_errmsg());
      free(p);
    }
    if (lb_share_apportion((size_t)h, share, np, count)) cli_die(CLI_EXIT_FAIL, "%s", lb_errmsg());
    unsigned long i = 0;
    for (int k = 0; k < h; k++)
      for (unsigned long e = i + count[k]; i < e; i++) where[i] = k;
    free(share);
    free(count);
  } else {
    lb_rng *r;
    if (lb_rng_alloc(o->seed, &r)) cli_die(CLI_EXIT_FAIL, "%s", lb_errmsg());
    for (unsigned long i = 0; i < np; i++) where[i] = (int)lb_rng_below(r, (unsigned long)h);
    lb_rng_free(r);
  }
}

/* The reference for the run's process-hops (lb_optimum.h). */
static long optimum(const master_opts *o, const int *where, const lb_sink *done)
{
  unsigned long *count = calloc((size_t)o->hosts, sizeof *count);
  lb_optimum opt;
  long r = -1;
  if (!count) return -1;
  for (unsigned long i = 0; i < o->w.nproc; i++) count[where[i]] += !lb_sink_is_accepted(done, i);
  if (!lb_optimum_hops(o->topo, count, o->speed, &opt)) r = (long)opt.hops;
  else lb_error_clear();
  free(count);
  return r;
}

static int send_setup(const master_ctx *x, int me, double t0)
{
  const master_opts *o = x->o;
  const int *tids = x->tids;
  const lb_topo *t = o->topo;
  farm_setup s = {.me = (uint32_t)me,
                  .nhosts = (uint32_t)o->hosts,
                  .policy = o->policy,
                  .par = o->par,
                  .w = o->w,
                  .throttle = (uint32_t)o->throttle,
                  .trace = o->trace != NULL,
                  .wrong = o->wrong == me + 1,
                  .silent = o->silent == me + 1,
                  .quantum_s = o->quantum_s,
                  .t0 = t0,
                  .nedges = (uint32_t)t->m};
  /* The key reaches its worker here only: PVM delivers a message to its
   * addressee alone (farm_auth.h). */
  memcpy(s.key, farm_auth_key(x->xp->auth), FARM_KEY_LEN);
  s.par.speed = o->speed[me];
  s.par.capacity = (int)o->capacity[me];
  s.tids = malloc((size_t)o->hosts * sizeof *s.tids);
  s.edges = malloc((t->m + 1) * sizeof *s.edges);
  if (!s.tids || !s.edges) cli_die(CLI_EXIT_FAIL, "out of memory");
  for (int i = 0; i < o->hosts; i++) s.tids[i] = tids[i];
  for (size_t k = 0; k < t->m; k++) {
    s.edges[k][0] = (uint32_t)t->edge[k][0];
    s.edges[k][1] = (uint32_t)t->edge[k][1];
  }
  unsigned char *buf;
  size_t len;
  int rc = farm_setup_encode(&s, &buf, &len);
  farm_setup_clear(&s);
  if (rc) return rc;
  rc = x->xp->send(x->xp->ctx, tids[me], FARM_SETUP, buf, len) < 0 ? -1 : 0;
  farm_auth_wipe(buf, len);
  farm_auth_wipe(s.key, sizeof s.key);
  free(buf);
  return rc;
}

int master_send_quit(const farm_xport *xp, int id)
{
  return xp->send(xp->ctx, id, FARM_QUIT, farm_auth_key(xp->auth), FARM_KEY_LEN);
}

int master_send_procs(master_ctx *x, int host, const uint64_t *pids, size_t n)
{
  const master_opts *o = x->o;
  lb_proc **ps = calloc(n ? n : 1, sizeof *ps);
  if (!ps) return -1;
  for (size_t k = 0; k < n; k++) {
    app_task *t;
    if (app_task_alloc(&o->w, pids[k], &t)) cli_die(CLI_EXIT_FAIL, "%s", lb_errmsg());
    app_task_set_origin(t, host);
    size_t len = app_task_blob_size(t);
    unsigned char *b = malloc(len);
    if (!b || app_task_save(t, b, len))
      cli_die(CLI_EXIT_FAIL, "cannot encode process %llu", (unsigned long long)pids[k]);
    /* Test path: garbage, then a context that names another origin. */
    if (x->damaged < o->damage) {
      if (x->damaged++ % 2 == 0) memset(b, 0xA5, len);
      else {
        app_task_set_origin(t, (host + 1) % o->hosts);
        app_task_save(t, b, len);
      }
    }
    if (lb_proc_alloc(pids[k], (size_t)host, app_task_work(t, 0, app_task_units_total(t)), b, len, &ps[k]))
      cli_die(CLI_EXIT_FAIL, "cannot encode process %llu", (unsigned long long)pids[k]);
    free(b);
    app_task_free(t);
  }
  unsigned char *buf;
  size_t len;
  int rc = farm_tasks_encode(ps, n, &buf, &len);
  for (size_t k = 0; k < n; k++) lb_proc_free(ps[k]);
  free(ps);
  if (rc) return -1;
  rc = x->xp->send(x->xp->ctx, x->tids[host], FARM_TASKS, buf, len) < 0 ? -1 : (int)n;
  free(buf);
  return rc;
}

/* The processes that start on host `host`. */
static int send_tasks(master_ctx *x, const int *where, int host)
{
  uint64_t *pids = malloc((x->o->w.nproc + 1) * sizeof *pids);
  size_t n = 0;
  if (!pids) return -1;
  for (unsigned long i = 0; i < x->o->w.nproc; i++)
    if (where[i] == host && !lb_sink_is_accepted(x->sink, i)) pids[n++] = i;
  int rc = master_send_procs(x, host, pids, n);
  free(pids);
  return rc;
}

static int host_index(const int *tids, int n, int tid)
{
  for (int i = 0; i < n; i++)
    if (tids[i] == tid) return i;
  return -1;
}

/* Test path: the host that started with most processes moves `order`
 * processes to each neighbour, through the same transfer every policy
 * uses. */
static void send_orders(const master_ctx *x)
{
  const master_opts *o = x->o;
  const master_host *hs = x->hs;
  int src = 0;
  for (int i = 1; i < o->hosts; i++)
    if (hs[i].initial > hs[src].initial) src = i;
  for (size_t k = 0; k < lb_topo_degree(o->topo, (size_t)src); k++) {
    farm_order ord = {(uint32_t)lb_topo_neighbours(o->topo, (size_t)src)[k], o->order};
    unsigned char buf[16];
    size_t len;
    farm_order_encode(&ord, buf, sizeof buf, &len);
    x->xp->send(x->xp->ctx, x->tids[src], FARM_ORDER, buf, len);
  }
}

/* A result that failed its check: dropped with a line naming the host
 * that sent it, run again on another host, and a strike for the host
 * that made it (its MAC vouches for that); at LB_SINK_STRIKES that host
 * is excluded, as if it had failed.  0, or -1 when the run cannot go on. */
static int reject(master_ctx *x, const farm_payload_head *ph, int h)
{
  size_t to;
  int excl;
  char why[512];
  snprintf(why, sizeof why, "%s", lb_errmsg());
  x->tl.bad++;
  if (lb_sink_reject(x->sink, ph->pid, ph->exec, &to, &excl)) {
    fprintf(stderr, "%s: result of process %llu from host %d rejected (%s), and %s\n", cli_prog(),
            (unsigned long long)ph->pid, h, why, lb_errmsg());
    return -1;
  }
  fprintf(stderr, "%s: result of process %llu from host %d (ran on host %u) rejected: %s; it runs again on host %zu\n",
          cli_prog(), (unsigned long long)ph->pid, h, ph->exec, why, to);
  x->tl.reruns++;
  if (master_send_procs(x, (int)to, &ph->pid, 1) < 0) return -1;
  if (!excl) return 0;
  x->tl.excluded++;
  snprintf(why, sizeof why, "was excluded after %u of its results failed verification,",
           lb_sink_strikes(x->sink, ph->exec));
  return master_host_down(x, (int)ph->exec, why);
}

/* A result's bytes, as its maker's MAC names them, decoded and
 * checked against the master's own computation: 0 and *cost, or a
 * status whose message says what is wrong. */
static int check_bytes(master_ctx *x, uint64_t pid, const unsigned char *blob, size_t len, double *cost)
{
  app_result res;
  int bad = app_result_decode(blob, len, &res);
  if (bad) return lb_error_wrap(bad, "undecodable");
  if (res.id != pid)
    bad = lb_error(LB_EFORMAT, "the payload of process %llu holds process %llu", (unsigned long long)pid,
                   (unsigned long long)res.id);
  else if ((bad = app_verify_result(x->ver, &res))) lb_error_wrap(bad, "WRONG");
  *cost = res.cost;
  app_result_clear(&res);
  return bad;
}

/* The bytes a process's result must have: known before a byte is read,
 * so nothing is allocated on a sender's word. */
static size_t result_size(const master_opts *o, uint64_t pid)
{
  app_task *t;
  size_t want = 0;
  if (!app_task_alloc(&o->w, (size_t)pid, &t)) {
    want = app_task_result_size(t);
    app_task_free(t);
  }
  return want;
}

/* One result, from any live host: the host that ran it, its origin, or
 * a relay that delivers it itself because its way home failed.  Its head
 * is its maker's (the transport checked its MAC); its bytes must be the
 * ones that MAC names, and are then decoded and checked against the
 * master's own computation.  Only then, and once in the journal if the
 * run keeps one, does it count (lb_sink_accept). */
static int take_result(master_ctx *x, farm_in *in, int h)
{
  const master_opts *o = x->o;
  master_tally *tl = &x->tl;
  farm_payload_head ph;
  if (farm_payload_head_get(in->body, in->len, (uint32_t)o->hosts, &ph) ||
      (ph.pid >= o->w.nproc && lb_error(LB_EFORMAT, "process %llu of %lu", (unsigned long long)ph.pid, o->w.nproc))) {
    fprintf(stderr, "%s: malformed RESULT from host %d dropped: %s\n", cli_prog(), h, lb_errmsg());
    tl->dropped++;
    return 0;
  }
  if (lb_sink_is_accepted(x->sink, ph.pid)) {
    /* A second copy of a process run again after a failure. */
    fprintf(stderr, "%s: a second result of process %llu (from host %d) dropped\n", cli_prog(),
            (unsigned long long)ph.pid, h);
    tl->duplicates++;
    return 0;
  }
  size_t want = result_size(o, ph.pid);
  if (ph.len != want) {
    lb_error(LB_EFORMAT, "%llu bytes, not %zu", (unsigned long long)ph.len, want);
    return reject(x, &ph, h);
  }
  unsigned char *blob = malloc(ph.len);
  if (!blob) cli_die(CLI_EXIT_FAIL, "out of memory");
  double cost = 0;
  int bad = x->xp->read(x->xp->ctx, in, blob, ph.len) ? lb_error(LB_EIO, "its bytes cannot be read")
                                                      : farm_auth_check_bytes(x->xp->auth, &ph, blob, ph.len);
  if (!bad) bad = check_bytes(x, ph.pid, blob, ph.len, &cost);
  if (bad) {
    free(blob);
    return reject(x, &ph, h);
  }
  int jbad = x->journal && master_journal_append(x->journal, ph.pid, blob, ph.len);
  free(blob);
  if (jbad) return -1;
  int first;
  if (lb_sink_accept(x->sink, ph.pid, (size_t)h, &first) || !first) {
    fprintf(stderr, "%s: process %llu: %s\n", cli_prog(), (unsigned long long)ph.pid, lb_errmsg());
    return -1;
  }
  tl->work += cost;
  tl->tend = cli_now();
  return 0;
}

/* A result of an earlier master's journal (--resume): verified again
 * as if a host had sent it, then it counts and its process never runs.
 * One that fails runs again, with a line. */
static int take_journalled(void *arg, uint64_t pid, const unsigned char *bytes, size_t n)
{
  master_ctx *x = arg;
  double cost;
  if (lb_sink_is_accepted(x->sink, pid)) {
    fprintf(stderr, "%s: journal: a second record of process %llu skipped\n", cli_prog(), (unsigned long long)pid);
    return 0;
  }
  if (n != result_size(x->o, pid)) lb_error(LB_EFORMAT, "%zu bytes, not %zu", n, result_size(x->o, pid));
  if (n != result_size(x->o, pid) || check_bytes(x, pid, bytes, n, &cost)) {
    fprintf(stderr, "%s: journal: the result of process %llu fails verification (%s): it runs again\n", cli_prog(),
            (unsigned long long)pid, lb_errmsg());
    return 0;
  }
  if (lb_sink_restore(x->sink, pid)) return -1;
  x->tl.journalled++;
  return 0;
}

/* A notice (EXITED, HOSTDEL): a worker, or every worker on a host, is
 * gone, if the pvmd confirms it (gone). */
static int on_notice(master_ctx *x, const farm_in *in)
{
  const master_opts *o = x->o;
  int denied = -1, rc = 0;
  for (int i = 0; i < o->hosts && !rc; i++) {
    /* One that reported leaves, as it should after STOP. */
    if (x->down[i] || x->hs[i].got) continue;
    int g = x->xp->gone ? x->xp->gone(x->xp->ctx, in, x->tids[i]) : 0;
    if (g > 0) rc = master_host_down(x, i, in->tag == FARM_EXITED ? "exited" : "was deleted from the virtual machine");
    else if (g < 0 && denied < 0) denied = i;
  }
  if (denied >= 0) {
    fprintf(stderr, "%s: %s notice from t%x naming t%x dropped: the pvmd says host %d's worker is still there\n",
            cli_prog(), farm_tag_name(in->tag), in->src, in->notice, denied);
    x->tl.dropped++;
  }
  return rc;
}

/* A worker's report, after STOP. */
static int on_report(master_ctx *x, const farm_in *in, int h)
{
  farm_report rep;
  if (x->hs[h].got || farm_report_decode(in->body, in->len, (uint32_t)x->o->hosts, &rep) || rep.me != (uint32_t)h) {
    fprintf(stderr, "%s: unexpected REPORT from host %d dropped\n", cli_prog(), h);
    x->tl.dropped++;
    return 0;
  }
  master_trace_add(x->trace, h, rep.trace, rep.trace_len);
  x->hs[h].rep = rep;
  x->hs[h].rep.trace = NULL;
  farm_report_clear(&rep);
  x->hs[h].got = 1;
  /* Its last word: it renews no lease from now on, and is not missed. */
  lb_lease_fence(x->lease, (size_t)h);
  return 0;
}

int master_dispatch(master_ctx *x, farm_in *in)
{
  const master_opts *o = x->o;
  int h = host_index(x->tids, o->hosts, in->src), rc = 0;
  if (in->tag == FARM_EXITED || in->tag == FARM_HOSTDEL) {
    rc = on_notice(x, in);
  } else if (h < 0 || x->down[h]) {
    master_drop_late(x, h, in);
  } else {
    master_lease_heard(x, h);
    if (in->tag == FARM_HEARTBEAT) rc = master_on_beat(x, h, in->body, in->len);
    else if (in->tag == FARM_RESULT) rc = take_result(x, in, h);
    else if (in->tag == FARM_INVENTORY) rc = master_on_inventory(x, h, in->body, in->len);
    else if (in->tag == FARM_LOST) rc = master_on_lost(x, h, in->body, in->len);
    else if (in->tag == FARM_REPORT && x->stopped) rc = on_report(x, in, h);
    else {
      fprintf(stderr, "%s: unexpected %s from host %d dropped\n", cli_prog(),
              farm_tag_name(in->tag) ? farm_tag_name(in->tag) : "message", h);
      x->tl.dropped++;
    }
  }
  x->xp->clear(x->xp->ctx, in);
  return rc;
}

/* Results until every process is verified, or no progress anywhere for
 * o->timeout seconds (no result, no quantum run on any host), or no
 * host is left.  A failed host's processes run again elsewhere
 * (master_recover.c); a host whose lease runs out is fenced
 * (master_lease.c). */
static int collect_loop(master_ctx *x)
{
  const master_opts *o = x->o;
  int ordered = o->order <= 0;
  while (lb_sink_accepted(x->sink) < o->w.nproc) {
    cli_progress("results verified", lb_sink_accepted(x->sink), o->w.nproc);
    if (master_interrupted) return -2;
    if (!ordered && lb_sink_accepted(x->sink) > 0 && cli_now() - x->tl.tstart >= o->order_delay) {
      send_orders(x);
      ordered = 1;
    }
    if (master_recover_tick(x) || master_lease_tick(x)) return -1;
    double last = master_progress_at(x);
    double left = o->timeout - (cli_now() - (last > x->tl.tstart ? last : x->tl.tstart));
    if (left <= 0) {
      fprintf(stderr,
              "%s: no progress for %g s (no result, no quantum run on any live host); %lu of %lu processes "
              "are missing\n",
              cli_prog(), o->timeout, o->w.nproc - (unsigned long)lb_sink_accepted(x->sink), o->w.nproc);
      master_say_stalled(x, stderr);
      return -1;
    }
    /* Short waits: an interrupt, an order, a lease or a recovery round
     * is noticed soon. */
    double wait = o->par.lease.period / 4;
    if (wait > 0.2) wait = 0.2;
    farm_in in;
    int r = x->xp->recv(x->xp->ctx, -1, -1, left < wait ? left : wait, &in);
    if (r < 0) {
      fprintf(stderr, "%s: transport error %d while waiting for results\n", cli_prog(), r);
      return -1;
    }
    if (r == 0) continue;
    if (master_dispatch(x, &in)) return -1;
  }
  return 0;
}

/* The progress line (on a terminal only) ends with the loop. */
static int collect(master_ctx *x)
{
  int rc = collect_loop(x);
  cli_progress("results verified", lb_sink_accepted(x->sink), x->o->w.nproc);
  cli_progress_end();
  return rc;
}

/* After STOP every worker sends its report, then exits.  A host that
 * fails meanwhile (its lease runs out, its exit is noticed) is no
 * longer waited for: every result is in already. */
static int reports(master_ctx *x)
{
  const master_opts *o = x->o;
  double deadline = cli_now() + o->timeout;
  for (;;) {
    int want = 0;
    for (int i = 0; i < o->hosts; i++) want += !x->down[i] && !x->hs[i].got;
    if (!want) return 0;
    if (master_lease_tick(x)) return -1;
    farm_in in;
    double left = deadline - cli_now(), wait = o->par.lease.period / 4;
    if (wait > 0.2) wait = 0.2;
    int r = left > 0 && !master_interrupted ? x->xp->recv(x->xp->ctx, -1, -1, left < wait ? left : wait, &in) : -1;
    if (r == 0) continue;
    if (r < 0) {
      fprintf(stderr, "%s: %d worker report(s) missing:", cli_prog(), want);
      for (int i = 0; i < o->hosts; i++)
        if (!x->down[i] && !x->hs[i].got) fprintf(stderr, " host %d", i);
      fprintf(stderr, "\n");
      return -1;
    }
    if (master_dispatch(x, &in)) return -1;
  }
}

int master_run(const farm_xport *xp, const int *tids, const master_opts *o)
{
  int n = o->hosts;
  master_ctx x = {.o = o, .xp = xp};
  if (app_verify_alloc(&o->w, &x.ver) || lb_sink_alloc(o->w.nproc, (size_t)n, &x.sink)) {
    fprintf(stderr, "%s: %s\n", cli_prog(), lb_errmsg());
    app_verify_free(x.ver);
    return 1;
  }
  int *where = calloc(o->w.nproc, sizeof *where);
  x.tids = calloc((size_t)n, sizeof *x.tids);
  x.hs = calloc((size_t)n, sizeof *x.hs);
  x.down = calloc((size_t)n, 1);
  x.fenced = calloc((size_t)n, 1);
  x.down_at = calloc((size_t)n, sizeof *x.down_at);
  if (!x.tids || !where || !x.hs || !x.down || !x.fenced || !x.down_at) cli_die(CLI_EXIT_FAIL, "out of memory");
  /* A host whose processes take long is alive as long as it renews its
   * lease; one that holds work and ran nothing for the timeout stalled. */
  if (lb_lease_alloc((size_t)n, o->par.lease.duration, o->timeout, &x.lease)) cli_die(CLI_EXIT_FAIL, "%s", lb_errmsg());
  memcpy(x.tids, tids, (size_t)n * sizeof *x.tids);
  int ok = 1;
  for (int i = 0; i < n; i++) ok &= tids[i] > 0; /* all started */
  if (ok && o->journal) {
    /* An earlier master's results count before any host starts. */
    size_t nrec;
    ok = master_journal_open(o, take_journalled, &x, &x.journal, &nrec) == 0;
    if (ok && o->resume)
      fprintf(stderr, "%s: journal %s: %zu record(s), %lu result(s) verified and taken; %lu process(es) to run\n",
              cli_prog(), o->journal, nrec, x.tl.journalled, o->w.nproc - x.tl.journalled);
  }
  if (ok && master_trace_open(o->trace, n, &x.trace)) ok = 0;
  if (ok) {
    /* The hosts' time origin: an instant of the clock they share. */
    double t0 = cli_epoch();
    for (int i = 0; i < n && ok; i++) ok = send_setup(&x, i, t0) == 0;
    if (ok) master_trace_sync(x.trace, xp, x.tids, t0, &master_interrupted);
    /* Each host renews its lease from its SETUP on. */
    if (ok) ok = master_lease_begin(&x) == 0;
    if (o->junk)
      for (int i = 0; i < n; i++) {
        xp->junk(xp->ctx, x.tids[i], 0);
        xp->junk(xp->ctx, x.tids[i], 1);
      }
    distribute(o, where);
    x.tl.hops_optimal = optimum(o, where, x.sink);
    x.tl.tstart = cli_now();
    for (int i = 0; i < n && ok; i++) ok = (x.hs[i].initial = send_tasks(&x, where, i)) >= 0;
  }
  int rc = ok ? collect(&x) : -1;
  ok = rc == 0;
  x.stopped = 1;
  for (int i = 0; i < n; i++)
    if (x.tids[i] > 0 && !x.down[i]) {
      if (ok) xp->send(xp->ctx, x.tids[i], FARM_STOP, NULL, 0);
      else master_send_quit(xp, x.tids[i]);
    }
  if (ok) ok = reports(&x) == 0;
  if (!ok && xp->kill)
    for (int i = 0; i < n; i++)
      if (x.tids[i] > 0) xp->kill(xp->ctx, x.tids[i]);
  /* The trace replaces the old file only when whole; a write that
   * failed (a full disk) fails the run. */
  int out_bad = master_trace_close(x.trace, ok) != 0; /* an output (trace, CSV, hosts CSV) that failed */
  for (int i = 0; i < n; i++) {
    x.hs[i].tid = x.tids[i];
    x.hs[i].down = x.down[i];
    x.hs[i].fenced = x.fenced[i];
    x.hs[i].excluded = lb_sink_is_excluded(x.sink, (size_t)i);
  }
  x.tl.accepted = lb_sink_accepted(x.sink);
  /* Rejected results do not count against the run: each ran again. */
  x.tl.verified = ok && app_verify_accepted(x.ver) == o->w.nproc && x.tl.accepted == o->w.nproc;
  if (rc == -2) fprintf(stderr, "%s: interrupted with %lu of %lu results in\n", cli_prog(), x.tl.accepted, o->w.nproc);
  else {
    master_out_print(o, x.hs, &x.tl);
    if (master_out_csv(o, x.hs, &x.tl)) out_bad = 1;
    if (master_out_hosts_csv(o, x.hs)) out_bad = 1;
  }
  app_verify_free(x.ver);
  lb_sink_free(x.sink);
  lb_lease_free(x.lease);
  master_journal_close(x.journal);
  free(x.tids);
  free(x.down);
  free(x.fenced);
  free(x.down_at);
  free(where);
  free(x.hs);
  return rc == -2 ? 130 : x.tl.verified && !out_bad ? 0 : 1;
}
