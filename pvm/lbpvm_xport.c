/* lbpvm_xport.c: see lbpvm_xport.h. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <pvm3.h>
#include "lbpvm_xport.h"
#include "lbpvm_payload.h"
#include "farm_store.h"
#include <stdint.h>
#include "farm_throttle.h"
#include "lbpvm_tmp.h"
#include "lbpvm_guard.h"
#include "lbpvm_cut.h"
#include "cli.h"

/* A worker told to end, which gets SIGKILL at `at` unless it is gone. */
typedef struct doomed {
  int tid;
  pid_t pid;
  unsigned long long start;
  double at;
} doomed;

/* A worker asked to end has this long to leave on its own (its SIGTERM
 * handler leaves its cgroup and removes its sockets) before SIGKILL. */
#define KILL_GRACE_S 1.0

typedef struct xpvm {
  uint32_t run;
  farm_auth *auth;
  farm_store *store;
  int *tids, *pids, n;        /* the master's workers and their process ids */
  unsigned char *routed;      /* per worker: its direct route was asked for */
  unsigned long long *starts; /* ... and start times (a reused pid is not ours) */
  double every, next;         /* heartbeat: period, next check (monotonic s) */
  doomed *dm;                 /* workers told to end, not yet killed */
  int ndm, capdm;
} xpvm;

static void reap(xpvm *p, int now_all);

/* A stopped pvmd blocks no receive (messages come over direct links),
 * but it delivers no notice either, so failures would go unseen: ask it
 * now and then, with the guard's bound. */
static void heartbeat(xpvm *p)
{
  if (p->every <= 0) return;
  double now = cli_now();
  if (now < p->next) return;
  p->next = now + p->every;
  int n, na;
  struct pvmhostinfo *h;
  lbpvm_guard_begin("checking that the pvmd is alive (it answers in milliseconds)", LBPVM_GUARD_S);
  pvm_config(&n, &na, &h);
  lbpvm_guard_end();
}

/* Every call that can wait on the pvmd or a peer has a bound
 * (lbpvm_guard.h); a send, a little more than its bytes need at 1 MB/s. */
static double send_bound(size_t bytes) { return LBPVM_GUARD_S + (double)bytes / 1e6; }

/* Store items are PVM buffer ids (> 0). */
static void *as_item(int bufid) { return (void *)(intptr_t)bufid; }
static void free_buf(void *item) { pvm_freebuf((int)(intptr_t)item); }

/* The master asks for a direct route to a worker with its first
 * message (SETUP) only.  libpvm opens a route to a peer that has none
 * and waits for its answer without a bound; a worker whose route died
 * (its host's pvmd was killed) never answers.  Later messages take the
 * route if it is open, else the pvmd's, which never waits on the peer. */
static int first_to(xpvm *p, int id)
{
  for (int i = 0; i < p->n; i++)
    if (p->tids[i] == id) {
      int first = !p->routed[i];
      p->routed[i] = 1;
      return first;
    }
  return 1;
}

static int x_send(void *ctx, int id, int tag, const void *body, size_t len)
{
  xpvm *p = ctx;
  int again = p->n > 0 && !first_to(p, id), was = 0;
  if (again) {
    was = pvm_getopt(PvmRoute);
    if (was == PvmRouteDirect) pvm_setopt(PvmRoute, PvmDontRoute);
  }
  lbpvm_guard_begin("sending a message", send_bound(len));
  int s = lbpvm_send(p->auth, id, tag, p->run, body, len);
  lbpvm_guard_end();
  if (again && was == PvmRouteDirect) pvm_setopt(PvmRoute, PvmRouteDirect);
  return s < 0 ? -1 : 0;
}

static int x_recv(void *ctx, int id, int tag, double timeout_s, farm_in *in)
{
  xpvm *p = ctx;
  heartbeat(p);
  if (p->ndm) reap(p, 0);
  lbpvm_guard_begin("waiting for a message", timeout_s < 0 ? 0 : timeout_s + LBPVM_GUARD_S);
  int r = lbpvm_recv(p->auth, p->run, id, tag, timeout_s, in);
  lbpvm_guard_end();
  return r;
}

static void x_clear(void *ctx, farm_in *in)
{
  (void)ctx;
  lbpvm_in_clear(in);
}

static int x_hold(void *ctx, const farm_payload_head *h, const void *blob)
{
  xpvm *p = ctx;
  int b = lbpvm_payload_pack(p->auth, p->run, h, blob); /* packs here: no pvmd involved */
  return b < 0 ? -1 : farm_store_put(p->store, h->pid, as_item(b));
}

static int x_keep(void *ctx, uint64_t pid, farm_in *in)
{
  int b = in->bufid;
  in->bufid = 0;
  return b > 0 ? farm_store_put(((xpvm *)ctx)->store, pid, as_item(b)) : -1;
}

/* The received buffer goes on as it is: never unpacked on its way. */
static long x_forward(void *ctx, uint64_t pid, int id, int tag)
{
  int b = (int)(intptr_t)farm_store_take(((xpvm *)ctx)->store, pid);
  if (b <= 0) return -1;
  int bytes = 0, t, src;
  pvm_bufinfo(b, &bytes, &t, &src);
  lbpvm_guard_begin("forwarding a result", send_bound((size_t)bytes));
  int s = lbpvm_payload_send(b, id, tag);
  lbpvm_guard_end();
  return s < 0 ? -2 : bytes;
}

static int x_drop(void *ctx, uint64_t pid)
{
  int b = (int)(intptr_t)farm_store_take(((xpvm *)ctx)->store, pid);
  if (b <= 0) return -1;
  pvm_freebuf(b);
  return 0;
}

static size_t x_held(void *ctx, uint64_t *pids, size_t cap) { return farm_store_pids(((xpvm *)ctx)->store, pids, cap); }

/* A message to itself goes through the pvmd, which routes it back
 * (PVM keeps no direct route to oneself). */
static int x_echo(void *ctx)
{
  xpvm *p = ctx;
  lbpvm_guard_begin("sending an echo through the pvmd", LBPVM_GUARD_S);
  int s = lbpvm_send(p->auth, pvm_mytid(), FARM_ECHO, p->run, NULL, 0);
  lbpvm_guard_end();
  return s < 0 ? -1 : 0;
}

static int x_read(void *ctx, farm_in *in, void *buf, size_t len)
{
  (void)ctx;
  return lbpvm_payload_read(in, buf, len);
}

/* The pvmd's word on a task: gone unless it says the task runs. */
static int task_gone(int tid)
{
  lbpvm_guard_begin("asking the pvmd whether a task still runs", LBPVM_GUARD_S);
  int s = pvm_pstat(tid);
  lbpvm_guard_end();
  return s != PvmOk;
}

/* ... and on a host (by its pvmd's tid): gone unless it is in the
 * virtual machine's table. */
static int host_gone(int dtid)
{
  int n, narch;
  struct pvmhostinfo *hi;
  lbpvm_guard_begin("asking the pvmd for its host table", LBPVM_GUARD_S);
  int s = pvm_config(&n, &narch, &hi);
  lbpvm_guard_end();
  if (s < 0) return 1;
  for (int i = 0; i < n; i++)
    if (hi[i].hi_tid == dtid) return 0;
  return 1;
}

/* A notice counts only when the pvmd confirms it: a task can send one
 * with a pvmd's tid as its sender (pvm_bufinfo reports what the sending
 * library wrote). */
static int x_gone(void *ctx, const farm_in *in, int id)
{
  (void)ctx;
  if (in->tag == FARM_EXITED) return id != in->notice ? 0 : task_gone(id) ? 1 : -1;
  if (in->tag == FARM_HOSTDEL) return pvm_tidtohost(id) != in->notice ? 0 : host_gone(in->notice) ? 1 : -1;
  return 0;
}

/* A signal through the pvmds: the local one answers at once and passes
 * it on (PVM's tm_sendsig), so a host that is cut off or stopped holds
 * no one; its pvmd delivers it if it ever comes back. */
static void sendsig(int tid, int sig)
{
  lbpvm_guard_begin("signalling a worker", LBPVM_GUARD_S);
  pvm_sendsig(tid, sig);
  lbpvm_guard_end();
}

/* What a worker that ended here without leaving its cgroup and sockets
 * left behind. */
static void remove_leftovers(pid_t pid)
{
  farm_throttle_forget(pid);
  lbpvm_tmp_remove_sockets(pid);
}

/* Workers whose grace ran out (all of them with now_all): SIGKILL, a
 * stopped one too, then what they leave is removed. */
static void reap(xpvm *p, int now_all)
{
  double now = cli_now();
  for (int k = 0; k < p->ndm;) {
    doomed d = p->dm[k];
    if (!now_all && now < d.at) {
      k++;
      continue;
    }
    p->dm[k] = p->dm[--p->ndm];
    sendsig(d.tid, SIGKILL);
    if (d.pid > 0 && lbpvm_tmp_alive(d.pid, d.start)) {
      kill(d.pid, SIGKILL);
      for (int i = 0; i < 50 && lbpvm_tmp_alive(d.pid, d.start); i++) nanosleep(&(struct timespec){0, 10000000L}, NULL);
    }
    if (d.pid > 0) remove_leftovers(d.pid);
  }
}

/* End a worker, which may still run: cut off, or stopped (SIGSTOP, a
 * hung file system), and so deaf to SIGTERM until it is continued.  It
 * is asked to leave (SIGTERM, then SIGCONT so that a stopped one can),
 * through its pvmd and, on this host, by pid; past KILL_GRACE_S it gets
 * SIGKILL.  Nothing here waits on its host. */
static void x_kill(void *ctx, int id)
{
  xpvm *p = ctx;
  if (id <= 0) return;
  pid_t pid = 0;
  unsigned long long start = 0;
  for (int i = 0; i < p->n; i++)
    if (p->tids[i] == id && p->pids[i] > 0) {
      pid = p->pids[i];
      start = p->starts[i];
    }
  for (int k = 0; k < p->ndm; k++)
    if (p->dm[k].tid == id) return; /* on its way already */
  sendsig(id, SIGTERM);
  sendsig(id, SIGCONT);
  if (pid > 0 && lbpvm_tmp_alive(pid, start)) {
    kill(pid, SIGTERM);
    kill(pid, SIGCONT);
  } else if (pid > 0) {
    remove_leftovers(pid); /* gone already: what it could not remove */
    return;
  }
  if (p->ndm == p->capdm) {
    int cap = p->capdm ? 2 * p->capdm : 8;
    doomed *v = realloc(p->dm, (size_t)cap * sizeof *v);
    if (!v) {
      reap(p, 1);
      return;
    }
    p->dm = v;
    p->capdm = cap;
  }
  p->dm[p->ndm++] = (doomed){id, pid, start, cli_now() + KILL_GRACE_S};
}

/* The fenced worker's host, deleted from the virtual machine (lbpvm_cut.h):
 * the master pvmd tells every other pvmd to drop it at once, and sends it
 * a FIN (a pvmd that is only cut off or stopped halts, with its tasks,
 * once it gets it).  Only where this task's pvmd is the master pvmd
 * (pvm_config lists it first), which answers at once: a slave pvmd would
 * pass the request on through the very queue that waits behind the
 * fenced host's retries.  Nothing here waits on that host. */
static int x_cut(void *ctx, int id, const int *live, int nlive, char *name, size_t cap)
{
  (void)ctx;
  int *lh = malloc((size_t)(nlive + 1) * sizeof *lh);
  if (!lh) return -1;
  for (int i = 0; i < nlive; i++) lh[i] = pvm_tidtohost(live[i]);
  int host = lbpvm_cut_host(pvm_tidtohost(id), pvm_tidtohost(pvm_mytid()), lh, nlive);
  free(lh);
  if (!host) return 0;
  int n, narch, at = -1;
  struct pvmhostinfo *hi;
  lbpvm_guard_begin("asking the pvmd for its host table", LBPVM_GUARD_S);
  int s = pvm_config(&n, &narch, &hi);
  lbpvm_guard_end();
  if (s < 0) return -1;
  if (n < 1 || hi[0].hi_tid != pvm_tidtohost(pvm_mytid())) return 0;
  for (int i = 0; i < n && at < 0; i++)
    if (hi[i].hi_tid == host) at = i;
  if (at < 0 || !hi[at].hi_name || strlen(hi[at].hi_name) >= cap) return at < 0 ? 0 : -1; /* gone already */
  strcpy(name, hi[at].hi_name);
  char *names[1] = {name};
  int info = 0;
  lbpvm_guard_begin("asking the master pvmd to delete a host", LBPVM_GUARD_S);
  s = pvm_delhosts(names, 1, &info);
  lbpvm_guard_end();
  return s < 0 || info < 0 ? (info < 0 ? info : s) : 1;
}

static int x_junk(void *ctx, int id, int kind)
{
  (void)ctx;
  lbpvm_guard_begin("sending a test message", LBPVM_GUARD_S);
  int s = lbpvm_send_junk(id, kind);
  lbpvm_guard_end();
  return s;
}

int lbpvm_xport_init(farm_xport *x, uint32_t run, farm_auth *auth)
{
  xpvm *p = calloc(1, sizeof *p);
  if (!p || farm_store_alloc(free_buf, &p->store)) {
    free(p);
    return -1;
  }
  p->run = run;
  p->auth = auth;
  *x = (farm_xport){.ctx = p,
                    .run = run,
                    .auth = auth,
                    .send = x_send,
                    .recv = x_recv,
                    .clear = x_clear,
                    .hold = x_hold,
                    .keep = x_keep,
                    .forward = x_forward,
                    .held = x_held,
                    .drop = x_drop,
                    .read = x_read,
                    .echo = x_echo,
                    .gone = x_gone,
                    .kill = x_kill,
                    .cut = x_cut,
                    .junk = x_junk};
  return 0;
}

void lbpvm_xport_free(farm_xport *x)
{
  xpvm *p = x->ctx;
  if (!p) return;
  reap(p, 1);
  farm_store_free(p->store);
  free(p->tids);
  free(p->pids);
  free(p->starts);
  free(p->routed);
  free(p->dm);
  free(p);
  x->ctx = NULL;
}

void lbpvm_xport_heartbeat(farm_xport *x, double every_s)
{
  xpvm *p = x->ctx;
  p->every = every_s;
  p->next = cli_now() + every_s;
}

void lbpvm_xport_learn_pids(farm_xport *x, const int *tids, int n)
{
  xpvm *p = x->ctx;
  int ntask;
  struct pvmtaskinfo *ti;
  free(p->tids);
  free(p->pids);
  free(p->starts);
  free(p->routed);
  p->n = 0;
  p->tids = malloc((size_t)(n + 1) * sizeof *p->tids);
  p->pids = calloc((size_t)(n + 1), sizeof *p->pids);
  p->starts = calloc((size_t)(n + 1), sizeof *p->starts);
  p->routed = calloc((size_t)(n + 1), 1);
  if (!p->tids || !p->pids || !p->starts || !p->routed) return;
  for (int i = 0; i < n; i++) p->tids[i] = tids[i];
  p->n = n;
  lbpvm_guard_begin("listing the tasks on this host", LBPVM_GUARD_S);
  int s = pvm_tasks(pvm_tidtohost(pvm_mytid()), &ntask, &ti);
  lbpvm_guard_end();
  if (s < 0) return;
  for (int k = 0; k < ntask; k++)
    for (int i = 0; i < n; i++)
      if (ti[k].ti_tid == tids[i]) {
        p->pids[i] = ti[k].ti_pid;
        p->starts[i] = lbpvm_tmp_start_time(ti[k].ti_pid);
      }
  /* If a bound expires later, these are ended by pid. */
  pid_t *pids = malloc((size_t)(n + 1) * sizeof *pids);
  if (!pids) return;
  for (int i = 0; i < n; i++) pids[i] = p->pids[i];
  lbpvm_guard_workers(pids, n);
  free(pids);
}
