/* worker_trace.c: see worker_trace.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "worker_trace.h"
#include "cli.h"

void worker_trace_start(worker_trace *tr, int on, size_t host, double t)
{
  *tr = (worker_trace){.on = on, .host = host};
  lb_trace_states_init(&tr->st);
  if (on) worker_trace_state(tr, LB_HOST_BALANCING, t);
}

/* Rows stop this short of the limit: room for the note that says so. */
#define NOTE_ROOM 256

static void add(worker_trace *tr, const char *row, size_t limit)
{
  size_t n = strlen(row);
  if (tr->n + n + 1 > limit) {
    tr->dropped++;
    return;
  }
  if (tr->n + n + 1 > tr->cap) {
    size_t cap = tr->cap ? 2 * tr->cap : 65536;
    while (cap < tr->n + n + 1) cap *= 2;
    char *v = realloc(tr->rows, cap);
    if (!v) {
      tr->dropped++;
      return;
    }
    tr->rows = v;
    tr->cap = cap;
  }
  memcpy(tr->rows + tr->n, row, n);
  tr->rows[tr->n + n] = '\n';
  tr->n += n + 1;
}

void worker_trace_row(worker_trace *tr, const char *row)
{
  if (tr->on) add(tr, row, WORKER_TRACE_MAX - NOTE_ROOM);
}

void worker_trace_put(worker_trace *tr, const lb_trace_row *r)
{
  char row[LB_TRACE_ROW_MAX];
  size_t n;
  if (tr->on && !lb_trace_format(r, row, sizeof row, &n)) worker_trace_row(tr, row);
}

void worker_trace_state(worker_trace *tr, lb_host_state s, double t)
{
  lb_trace_row r;
  if (tr->on && lb_trace_enter(&tr->st, tr->host, s, t, &r)) worker_trace_put(tr, &r);
}

void worker_trace_end(worker_trace *tr, double t)
{
  lb_trace_row r;
  if (!tr->on) return;
  if (lb_trace_leave(&tr->st, tr->host, t, &r)) worker_trace_put(tr, &r);
  if (!tr->dropped) return;
  char note[NOTE_ROOM], val[160];
  snprintf(val, sizeof val, "host %zu kept %zu bytes of rows and dropped the %lu after them", tr->host, tr->n,
           tr->dropped);
  if (!lb_trace_meta(note, sizeof note, "truncated", val)) add(tr, note, WORKER_TRACE_MAX);
}

void worker_trace_free(worker_trace *tr)
{
  free(tr->rows);
  tr->rows = NULL;
  tr->n = tr->cap = 0;
}

int worker_trace_clock(const farm_clock *req, double node, double mono, unsigned char *buf, size_t *len)
{
  farm_clock rep = {.round = req->round, .reply = 1, .master = req->master, .node = node, .mono = mono};
  cli_boot_id(rep.boot);
  return farm_clock_encode(&rep, buf, FARM_CLOCK_MAX, len);
}
