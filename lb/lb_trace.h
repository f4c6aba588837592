/* lb_trace.h: the trace that lbsim, lbmaster and lbmpi write and
 * tools/lbtrace reads (docs/TRACES.md), defined here once: the rows'
 * columns, their formatting, their strict parsing, and the state
 * intervals of a host.  Text in, text out: no files, no clocks (each
 * driver gives the times, on its clock).
 *
 * A trace is a few lines of metadata ("# KEY: VALUE", after the first
 * line LB_TRACE_MAGIC), the column line, then one CSV row per event:
 *   send   a message leaves `host` (src) for dst, at `time`;
 *   recv   it is taken in at `host` (dst), at `time`, with the id its
 *          sender gave it (matched on src and id);
 *   state  `host` is busy, idle or balancing from `time` to `end`.
 * A host's state rows tile its span: from its first row's time to its
 * last row's end, without gap or overlap. */
#ifndef LB_TRACE_H
#define LB_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include "lb_proc.h"

#define LB_TRACE_MAGIC   "# lbfarm trace 2"
#define LB_TRACE_ROW_MAX 320 /* a formatted row, its newline and NUL fit */

typedef enum { LB_TRACE_SEND, LB_TRACE_RECV, LB_TRACE_STATE } lb_trace_ev;

/* What a host does: a quantum of a process; nothing to run, waiting
 * for messages; handling messages and the policy's steps (packing and
 * unpacking contexts among them). */
typedef enum { LB_HOST_BUSY, LB_HOST_IDLE, LB_HOST_BALANCING, LB_HOST_NSTATES } lb_host_state;

/* Row types beyond the engine's messages: a result's bytes relayed
 * between hosts (PAYLOAD) and handed to lbmaster (DELIVER, dst -1). */
enum { LB_TRACE_PAYLOAD = LB_MSG_NTYPES, LB_TRACE_DELIVER, LB_TRACE_NTYPES };

/* Key bits of lb_trace_row.keys: which of hv, lv, tag are present. */
enum { LB_TRACE_HV = 1, LB_TRACE_LV = 2, LB_TRACE_TAG = 4 };

typedef struct lb_trace_row {
  lb_trace_ev ev;
  double t;             /* the send, the receipt, or the interval's start */
  double end;           /* state: the interval's end (>= t) */
  long host;            /* the host that wrote the row */
  int type;             /* a message's type (lb_msg_type, LB_TRACE_PAYLOAD,
                          * LB_TRACE_DELIVER), or a state's (lb_host_state) */
  long src, dst;        /* the link; dst -1: lbmaster */
  unsigned keys;        /* LB_TRACE_HV | ...: which of hv, lv, tag are set */
  uint64_t hv, lv, tag; /* the RMTLB transaction, where the type has one */
  long long count, procs, bytes;
  int has_id;  /* PAYLOAD and DELIVER have none: a relay forwards
                          * its maker's bytes as they are */
  uint32_t id; /* the sender's number of the message */
} lb_trace_row;

/* "time,host,type,src,dst,hv,lv,tag,count,procs,bytes,ev,id,end". */
const char *lb_trace_columns(void);
/* The first 11 of them: the columns of version 1 (sends only), which
 * lb_trace_parse still reads. */
const char *lb_trace_columns_v1(void);
/* 2 when `line` is the column line, 1 when it is version 1's, else 0. */
int lb_trace_columns_version(const char *line);

const char *lb_trace_ev_name(lb_trace_ev ev);
/* A message type's name (RM ... DELIVER); a state's (busy, idle,
 * balancing).  Unknown: "?". */
const char *lb_trace_type_name(int type);
const char *lb_host_state_name(lb_host_state s);
/* From a name: the type or state, or -1. */
int lb_trace_type_from(const char *name);
int lb_host_state_from(const char *name);

/* Row r for message m sent (or taken in) at host at time t; its id is
 * m->trace_id. */
void lb_trace_msg(lb_trace_row *r, lb_trace_ev ev, double t, size_t host, const lb_msg *m);
/* A result's bytes at host: PAYLOAD to dst, or DELIVER to lbmaster
 * (dst -1), `bytes` long, of process pid. */
void lb_trace_payload(lb_trace_row *r, lb_trace_ev ev, int type, double t, size_t host, long src, long dst,
                      uint64_t pid, long long bytes);
/* host was in state s over [t0, t1]. */
void lb_trace_state(lb_trace_row *r, size_t host, lb_host_state s, double t0, double t1);

/* r as one line without its newline into buf (cap bytes; *len its
 * length): LB_SUCCESS, LB_EINVAL for a row the format cannot hold (a
 * time that is not finite, an unknown type, end before time), or
 * LB_ERANGE when cap is too small. */
int lb_trace_format(const lb_trace_row *r, char *buf, size_t cap, size_t *len);

/* Parse one row of the given version (1 or 2), without its newline;
 * `line` is cut up.  LB_SUCCESS, or LB_EFORMAT with a message naming the
 * column and what is wrong with it: a wrong column count, a time that is
 * not a finite number >= 0, an unknown type or event, a negative count
 * of processes or bytes, an id that is not digits, a row that its host
 * cannot have written (a send whose src is not the host, a receipt
 * whose dst is not), dst -1 on anything but a DELIVER, a state row with
 * message columns or an end before its time. */
int lb_trace_parse(char *line, int version, lb_trace_row *r);

/* The start of a trace into buf, every line '\n'-ended: LB_TRACE_MAGIC
 * and the metadata every trace has: hosts (their number), driver (what
 * wrote it), time (what a time means), clock (how the hosts' clocks
 * agree).  The writer adds its own lines (lb_trace_meta), then the
 * column line (lb_trace_columns). */
int lb_trace_head(char *buf, size_t cap, size_t hosts, const char *driver, const char *time, const char *clock);
/* "# KEY: VALUE" into buf: KEY one word of [a-z0-9_], VALUE one line. */
int lb_trace_meta(char *buf, size_t cap, const char *key, const char *value);
/* A metadata line's key and value (pointers into `line`, which is cut):
 * 1, or 0 when line is not one (the caller may take it as a comment). */
int lb_trace_meta_parse(char *line, const char **key, const char **value);

/* ---- a host's states, one open interval at a time ---- */
typedef struct lb_trace_states {
  int state;    /* the open interval's state, -1: none open */
  double since; /* and its start */
} lb_trace_states;

void lb_trace_states_init(lb_trace_states *st);
/* The host enters state s at t.  When that closes an interval of
 * another state that is not empty, 1 and *r that interval; else 0 (a
 * state entered again goes on).  A t before the open interval's start
 * (a clock read out of order) is taken as that start. */
int lb_trace_enter(lb_trace_states *st, size_t host, lb_host_state s, double t, lb_trace_row *r);
/* Close the open interval at t: 1 and *r when it is not empty; none is
 * open afterwards. */
int lb_trace_leave(lb_trace_states *st, size_t host, double t, lb_trace_row *r);

#endif
