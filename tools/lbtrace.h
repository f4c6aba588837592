/* lbtrace.h: a trace as tools/lbtrace reads it (lbtrace.c) and writes it
 * out (lbtrace_out.c: info, segments, states, check; lbtrace_json.c:
 * Trace Event Format for Perfetto; lbtrace_paje.c: Paje for ViTE and
 * PajeNG).  The rows are lb/lb_trace.h's. */
#ifndef LBTRACE_H
#define LBTRACE_H

#include <stdio.h>
#include "lb_trace.h"

/* How a message's arrival is known: its receipt's row; computed from the
 * topology of an lbsim run without jitter; or drawn at a fixed offset. */
typedef enum { ARR_RECV, ARR_EXACT, ARR_OFFSET, NARR } tr_arrival;

typedef struct tr_row {
  lb_trace_row r;
  size_t line;
} tr_row;

/* A message: its send, and its receipt when the trace has it. */
typedef struct tr_msg {
  const tr_row *s;
  const tr_row *r; /* NULL: not received in the trace */
  double arr;      /* its arrival, as `how` places it */
  tr_arrival how;
} tr_msg;

typedef struct tr_meta {
  char *key, *value;
} tr_meta;

typedef struct tr_opts {
  const char *cmd, *path, *out, *topo;
  double from, to, latency, bandwidth, offset;
  int have_offset, csv;
  unsigned char keep[LB_TRACE_NTYPES];
} tr_opts;

/* Checks of the whole trace, before any filter. */
typedef struct tr_checks {
  size_t recv, matched, unmatched_recv, unreceived, before_send;
  size_t state_rows, state_hosts, gaps, overlaps;
  double state_s[LB_HOST_NSTATES];
  char first[256]; /* the first problem, "" when none */
} tr_checks;

typedef struct tr_trace {
  const tr_opts *o;
  int version;
  tr_row *v; /* every row, in file order */
  size_t n;
  tr_meta *meta; /* "# KEY: VALUE" lines, in order */
  size_t nmeta;
  long hosts;       /* lanes 0..hosts-1; lbmaster is lane `hosts` */
  int sink;         /* the trace has deliveries to lbmaster */
  tr_msg *m;        /* the messages kept, by send time */
  size_t nm, nmsg;  /* kept, in all */
  lb_trace_row *st; /* the state intervals kept (clipped to the
                             * window), by host and start */
  size_t nst;
  double offset; /* ARR_OFFSET's */
  size_t narr[NARR];
  tr_checks ck;
} tr_trace;

/* The value of metadata `key`, or NULL. */
const char *tr_meta_get(const tr_trace *t, const char *key);
const char *tr_kind(const lb_trace_row *r);
const char *tr_arrival_name(tr_arrival a);
/* What the arrivals of the kept messages are: one of tr_arrival_name,
 * or "mixed". */
const char *tr_arrival_summary(const tr_trace *t);
long tr_lane(const tr_trace *t, long id);
/* A time in whole nanoseconds, for output that must not round apart
 * two equal times. */
long long tr_ns(double t);

void tr_info(const tr_trace *t, FILE *f);
void tr_segments(const tr_trace *t, FILE *f);
void tr_states(const tr_trace *t, FILE *f);
/* 0 when every check passes, else 1 with each failure on f. */
int tr_check(const tr_trace *t, FILE *f);
void tr_json(const tr_trace *t, FILE *f);
void tr_paje(const tr_trace *t, FILE *f);

#endif
