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

typedef struct master_ctx {
  const master_opts *o;
  const farm_xport *xp;       /* PVM or MPI */
  int *tids;                  /* per host, the transport's id; kept after a host failed, for the tables */
  master_host *hs;
  app_verifier *ver;
  lb_sink *sink;              /* exactly-once acceptance and re-runs */
  unsigned char *down;        /* per host: failed */
  double round_at;            /* when the open inventory round began */
  unsigned long damaged;      /* contexts damaged so far (--inject-damage) */
  master_tally tl;
} master_ctx;

/* Set by lbmaster's SIGINT/SIGTERM handler; every wait checks it. */
extern volatile sig_atomic_t master_interrupted;

/* Processes pids[0..n-1], fresh, starting on host h (one TASKS); the
 * number sent, or -1. */
int master_send_procs(master_ctx *x, int host, const uint64_t *pids, size_t n);

/* Recovery (master_recover.c): a host failed; an inventory arrived; a
 * host lost a process; time passes (an inventory round has a bound). */
int master_host_down(master_ctx *x, int h, const char *why);
int master_on_inventory(master_ctx *x, int h, const unsigned char *body, size_t len);
int master_on_lost(master_ctx *x, int h, const unsigned char *body, size_t len);
int master_recover_tick(master_ctx *x);

#endif
