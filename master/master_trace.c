/* master_trace.c: see master_trace.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "master_trace.h"
#include "cli.h"
#include "lb_errno.h"
#include "lb_trace.h"

typedef enum { CLK_NONE, CLK_SHARED, CLK_ESTIMATED } clk_kind;

typedef struct host_clock {
  clk_kind kind;
  double offset;        /* the host's node time minus the master's */
  double estimate, rtt; /* Cristian's, at the round trip of least time */
  int rounds;           /* answers taken */
} host_clock;

struct master_trace {
  FILE *f; /* cli_out_try's: a temporary name until closed */
  int hosts, head, bad;
  host_clock *clk;
  unsigned long *dropped; /* per host: rows that did not parse */
};

int master_trace_open(const char *path, int hosts, master_trace **out)
{
  *out = NULL;
  if (!path) return 0;
  master_trace *tr = calloc(1, sizeof *tr);
  if (tr) {
    tr->clk = calloc((size_t)hosts, sizeof *tr->clk);
    tr->dropped = calloc((size_t)hosts, sizeof *tr->dropped);
  }
  if (!tr || !tr->clk || !tr->dropped) cli_die(CLI_EXIT_FAIL, "out of memory");
  tr->hosts = hosts;
  if (!(tr->f = cli_out_try("--trace", path))) {
    master_trace_close(tr, 0);
    return -1;
  }
  *out = tr;
  return 0;
}

/* ---- the clock exchange ---- */
/* One round with worker `tid`: 1 and the answer, 0 with none in time. */
static int round_trip(const farm_xport *xp, int tid, uint32_t k, double mono0, farm_clock *rep, double *t1, double *t2)
{
  unsigned char buf[FARM_CLOCK_MAX];
  size_t len;
  farm_clock req = {.round = k};
  *t1 = req.master = cli_now() - mono0;
  if (farm_clock_encode(&req, buf, sizeof buf, &len) || xp->send(xp->ctx, tid, FARM_CLOCK, buf, len) < 0) return 0;
  double end = cli_now() + MASTER_TRACE_WAIT_S;
  for (double left; (left = end - cli_now()) > 0;) {
    farm_in in;
    int r = xp->recv(xp->ctx, tid, FARM_CLOCK, left, &in);
    if (r <= 0) return 0;
    *t2 = cli_now() - mono0;
    int ok = !farm_clock_decode(in.body, in.len, rep) && rep->reply && rep->round == k && rep->master == *t1;
    if (!ok) fprintf(stderr, "%s: a CLOCK from t%x that answers no question dropped\n", cli_prog(), in.src);
    xp->clear(xp->ctx, &in);
    if (ok) return 1;
  }
  return 0;
}

void master_trace_sync(master_trace *tr, const farm_xport *xp, const int *tids, double t0, volatile const int *stop)
{
  if (!tr) return;
  /* t0 on this host's monotonic clock, as the workers place it. */
  double mono0 = cli_now() - (cli_epoch() - t0);
  char boot[37];
  cli_boot_id(boot);
  for (int h = 0; h < tr->hosts && !*stop; h++) {
    host_clock *c = &tr->clk[h];
    for (uint32_t k = 0; k < MASTER_TRACE_ROUNDS && !*stop; k++) {
      farm_clock rep;
      double t1, t2;
      if (!round_trip(xp, tids[h], k, mono0, &rep, &t1, &t2)) break;
      double rtt = t2 - t1, est = rep.node - (t1 + t2) / 2;
      if (!c->rounds || rtt < c->rtt) {
        c->rtt = rtt;
        c->estimate = est;
      }
      c->rounds++;
      /* One kernel, one CLOCK_MONOTONIC: the worker's origin on it is
       * mono - node, the master's mono0; the same in every answer. */
      if (boot[0] && !strcmp(boot, rep.boot)) {
        c->kind = CLK_SHARED;
        c->offset = mono0 - (rep.mono - rep.node);
      }
    }
    if (c->rounds && c->kind != CLK_SHARED) {
      c->kind = CLK_ESTIMATED;
      c->offset = c->estimate;
    }
  }
}

/* ---- writing ---- */
static void line(master_trace *tr, const char *key, const char *value)
{
  char b[512];
  if (!lb_trace_meta(b, sizeof b, key, value)) fprintf(tr->f, "%s\n", b);
}

static void head(master_trace *tr)
{
  if (tr->head) return;
  tr->head = 1;
  int n[3] = {0, 0, 0};
  for (int h = 0; h < tr->hosts; h++) n[tr->clk[h].kind]++;
  char clock[400];
  if (n[CLK_SHARED] == tr->hosts)
    snprintf(clock, sizeof clock,
             "shared: every host runs on %s's machine (its kernel's boot id): one "
             "CLOCK_MONOTONIC, each host's offset exact",
             cli_prog());
  else
    snprintf(clock, sizeof clock,
             "%d host(s) on %s's machine, offset exact; %d on others, offset estimated by "
             "Cristian's method (the worker's time at the round trip of least time against its midpoint, error "
             "at most half that round trip); %d not synchronised (their own times)",
             n[CLK_SHARED], cli_prog(), n[CLK_ESTIMATED], n[CLK_NONE]);
  char time[160], hbuf[1024];
  snprintf(time, sizeof time, "seconds since %s's start, on its clock", cli_prog());
  if (lb_trace_head(hbuf, sizeof hbuf, (size_t)tr->hosts, cli_prog(), time, clock)) return;
  fputs(hbuf, tr->f);
  static const char *kind[] = {"none", "shared", "estimated"};
  for (int h = 0; h < tr->hosts; h++) {
    const host_clock *c = &tr->clk[h];
    char v[256];
    snprintf(v, sizeof v, "host=%d clock=%s offset_s=%.9f estimate_s=%.9f rtt_s=%.9f rounds=%d", h, kind[c->kind],
             c->offset, c->estimate, c->rtt, c->rounds);
    line(tr, "offset", v);
  }
  fprintf(tr->f, "%s\n", lb_trace_columns());
}

static double moved(double t, double off)
{
  double v = t - off;
  return v > 0 ? v : 0;
}

void master_trace_add(master_trace *tr, int h, const char *rows, size_t len)
{
  if (!tr || h < 0 || h >= tr->hosts) return;
  head(tr);
  double off = tr->clk[h].offset;
  char buf[LB_TRACE_ROW_MAX];
  for (size_t i = 0; i < len;) {
    const char *nl = memchr(rows + i, '\n', len - i);
    size_t n = (nl ? (size_t)(nl - rows) : len) - i;
    const char *s = rows + i;
    i += n + 1;
    if (n >= sizeof buf) {
      tr->dropped[h]++;
      continue;
    }
    memcpy(buf, s, n);
    buf[n] = '\0';
    const char *k, *v;
    lb_trace_row r;
    char cut[LB_TRACE_ROW_MAX];
    memcpy(cut, buf, n + 1);
    if (lb_trace_meta_parse(cut, &k, &v)) {
      fprintf(tr->f, "%s\n", buf);
      continue;
    }
    if (lb_trace_parse(buf, 2, &r) || r.host != h) {
      tr->dropped[h]++;
      continue;
    }
    r.t = moved(r.t, off);
    if (r.ev == LB_TRACE_STATE) r.end = moved(r.end, off);
    size_t m;
    if (lb_trace_format(&r, buf, sizeof buf, &m)) {
      tr->dropped[h]++;
      continue;
    }
    fprintf(tr->f, "%s\n", buf);
  }
}

int master_trace_close(master_trace *tr, int ok)
{
  if (!tr) return 0;
  int rc = 0;
  if (tr->f) {
    if (ok) {
      head(tr);
      for (int h = 0; h < tr->hosts; h++)
        if (tr->dropped[h]) {
          char v[128];
          snprintf(v, sizeof v, "host %d: %lu row(s) that were not its own or did not parse", h, tr->dropped[h]);
          line(tr, "dropped", v);
          fprintf(stderr, "%s: trace: %s, dropped\n", cli_prog(), v);
        }
    }
    if (ok) rc = cli_out_close(tr->f) ? -1 : 0;
    else cli_out_abort(tr->f);
  }
  free(tr->clk);
  free(tr->dropped);
  free(tr);
  return rc;
}
