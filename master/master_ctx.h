/* master_ctx.h: the state of one lbmaster run, shared by the files of
 * master/ (not installed). */
#ifndef MASTER_CTX_H
#define MASTER_CTX_H

#include <signal.h>
#include "master_run.h"
#include "farm_xport.h"
#include "master_out.h"
#include "app_verify.h"
#include "lb_sink.h"
#include "lb_lease.h"
#include "master_journal.h"
#include "master_trace.h"

typedef struct master_ctx {
  const master_opts *o;
  const farm_xport *xp; /* PVM or MPI */
  int *tids;            /* per host, the transport's id; kept after a host failed, for the tables */
  master_host *hs;
  app_verifier *ver;
  lb_sink *sink;           /* exactly-once acceptance and re-runs */
  unsigned char *down;     /* per host: failed */
  lb_lease *lease;         /* every host's lease (lb_lease.h) */
  unsigned char *fenced;   /* per host: its lease ran out (2: and its machine was cut) */
  double *down_at;         /* per host: when it was taken for failed */
  master_journal *journal; /* --journal/--resume, or NULL */
  master_trace *trace;     /* --trace: the workers' rows, from their reports, or NULL */
  int stopped;             /* STOP sent: reports are due */
  double round_at;         /* when the open inventory round began */
  unsigned long damaged;   /* contexts damaged so far (--inject-damage) */
  master_tally tl;
} master_ctx;

/* Set by lbmaster's SIGINT/SIGTERM handler; every wait checks it. */
extern volatile sig_atomic_t master_interrupted;

/* Processes pids[0..n-1], fresh, starting on host h (one TASKS); the
 * number sent, or -1. */
int master_send_procs(master_ctx *x, int host, const uint64_t *pids, size_t n);

/* One received message, from any phase of the run (master_run.c):
 * taken, or dropped with a line; 0, or -1 when the run cannot go on. */
int master_dispatch(master_ctx *x, farm_in *in);

/* Recovery (master_recover.c): a host failed; an inventory arrived; a
 * host lost a process; time passes (an inventory round has a bound).
 * A failed host is out for good: its lease is fenced, it is ended where
 * the transport can reach it, and what it sends later is dropped. */
int master_host_down(master_ctx *x, int h, const char *why);
int master_on_inventory(master_ctx *x, int h, const unsigned char *body, size_t len);
int master_on_lost(master_ctx *x, int h, const unsigned char *body, size_t len);
int master_recover_tick(master_ctx *x);

/* Leases (master_lease.c): a host renews its lease (HEARTBEAT) or is
 * heard from; time passes: a host whose lease ran out is fenced (after
 * the messages already here are taken, which may renew it); the run's
 * progress and who stalled, for the timeout. */
int master_lease_begin(master_ctx *x);
int master_on_beat(master_ctx *x, int h, const unsigned char *body, size_t len);
void master_lease_heard(master_ctx *x, int h);
int master_lease_tick(master_ctx *x);
/* The last progress anywhere (a result, a quantum run), and a line
 * naming the hosts that hold work and made none for o->timeout. */
double master_progress_at(const master_ctx *x);
void master_say_stalled(const master_ctx *x, FILE *to);
/* A message from a host that is out: dropped with a line. */
void master_drop_late(master_ctx *x, int h, const farm_in *in);

#endif
