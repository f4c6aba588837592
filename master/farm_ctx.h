/* farm_ctx.h: the state of one lbmaster run, shared by the files of
 * master/ (not installed). */
#ifndef FARM_CTX_H
#define FARM_CTX_H

#include <signal.h>
#include "farm_run.h"
#include "farm_xport.h"
#include "farm_out.h"
#include "app_verify.h"
#include "lb_sink.h"

typedef struct farm_ctx {
  const farm_opts *o;
  const farm_xport *xp;       /* PVM or MPI */
  int *tids;                  /* per host, the transport's id; kept after a host failed, for the tables */
  farm_host *hs;
  app_verifier *ver;
  lb_sink *sink;              /* exactly-once acceptance and re-runs */
  unsigned char *down;        /* per host: failed */
  double round_at;            /* when the open inventory round began */
  unsigned long damaged;      /* contexts damaged so far (--inject-damage) */
  farm_tally tl;
} farm_ctx;

/* Set by lbmaster's SIGINT/SIGTERM handler; every wait checks it. */
extern volatile sig_atomic_t farm_interrupted;

/* Processes pids[0..n-1], fresh, starting on host h (one TASKS); the
 * number sent, or -1. */
int farm_send_procs(farm_ctx *x, int host, const uint64_t *pids, size_t n);

/* Recovery (farm_recover.c): a host failed; an inventory arrived; a
 * host lost a process; time passes (an inventory round has a bound). */
int farm_host_down(farm_ctx *x, int h, const char *why);
int farm_on_inventory(farm_ctx *x, int h, const unsigned char *body, size_t len);
int farm_on_lost(farm_ctx *x, int h, const unsigned char *body, size_t len);
int farm_recover_tick(farm_ctx *x);

double farm_wall(void);

#endif
