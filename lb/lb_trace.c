/* lb_trace.c: see lb_trace.h. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lb_trace.h"
#include "lb_errno.h"

enum { NCOL1 = 11, NCOL2 = 14 };
static const char *cols[NCOL2] = {"time", "host",  "type",  "src",   "dst", "hv", "lv",
                                  "tag",  "count", "procs", "bytes", "ev",  "id", "end"};

const char *lb_trace_columns(void) { return "time,host,type,src,dst,hv,lv,tag,count,procs,bytes,ev,id,end"; }
const char *lb_trace_columns_v1(void) { return "time,host,type,src,dst,hv,lv,tag,count,procs,bytes"; }

int lb_trace_columns_version(const char *line)
{
  return !strcmp(line, lb_trace_columns()) ? 2 : !strcmp(line, lb_trace_columns_v1()) ? 1 : 0;
}

const char *lb_trace_ev_name(lb_trace_ev ev)
{
  return ev == LB_TRACE_SEND ? "send" : ev == LB_TRACE_RECV ? "recv" : ev == LB_TRACE_STATE ? "state" : "?";
}

const char *lb_trace_type_name(int type)
{
  if (type == LB_TRACE_PAYLOAD) return "PAYLOAD";
  if (type == LB_TRACE_DELIVER) return "DELIVER";
  return type >= 0 && type < LB_MSG_NTYPES ? lb_msg_type_name((lb_msg_type)type) : "?";
}

const char *lb_host_state_name(lb_host_state s)
{
  static const char *names[LB_HOST_NSTATES] = {"busy", "idle", "balancing"};
  return (unsigned)s < LB_HOST_NSTATES ? names[s] : "?";
}

int lb_trace_type_from(const char *name)
{
  for (int t = 0; t < LB_TRACE_NTYPES; t++)
    if (!strcmp(name, lb_trace_type_name(t))) return t;
  return -1;
}

int lb_host_state_from(const char *name)
{
  for (int s = 0; s < LB_HOST_NSTATES; s++)
    if (!strcmp(name, lb_host_state_name((lb_host_state)s))) return s;
  return -1;
}

/* ---- rows from the engine's records ---- */
static void key(lb_trace_row *r, size_t hv, size_t lv, uint64_t tag, unsigned keys)
{
  r->keys = keys;
  r->hv = hv;
  r->lv = lv;
  r->tag = tag;
}

void lb_trace_msg(lb_trace_row *r, lb_trace_ev ev, double t, size_t host, const lb_msg *m)
{
  *r = (lb_trace_row){.ev = ev,
                      .t = t,
                      .host = (long)host,
                      .type = (int)m->type,
                      .src = (long)m->hop_src,
                      .dst = (long)m->hop_dst,
                      .procs = (long long)m->nproc,
                      .bytes = (long long)lb_msg_size(m),
                      .has_id = 1,
                      .id = m->trace_id};
  const unsigned all = LB_TRACE_HV | LB_TRACE_LV | LB_TRACE_TAG;
  switch (m->type) {
  case LB_MSG_RM:
    key(r, m->u.rm.hv, 0, 0, LB_TRACE_HV);
    r->count = m->u.rm.epn;
    break;
  case LB_MSG_AM:
    key(r, m->u.am.hv, m->u.am.lv, m->u.am.tag, all);
    r->count = m->u.am.ipn;
    break;
  case LB_MSG_CM:
    key(r, m->u.cm.hv, m->u.cm.lv, m->u.cm.tag, all);
    r->count = m->u.cm.depn;
    break;
  case LB_MSG_LMM:
    key(r, m->u.lmm.hv, m->u.lmm.lv, m->u.lmm.tag, all);
    r->count = m->u.lmm.total;
    break;
  case LB_MSG_DRM:
    key(r, m->u.drm.hv, m->u.drm.lv, m->u.drm.tag, all);
    r->count = (long long)m->res.pid;
    break;
  case LB_MSG_ABORT: key(r, m->u.abort.hv, m->u.abort.lv, m->u.abort.tag, all); break;
  case LB_MSG_REPLY: r->count = m->u.reply.q; break;
  case LB_MSG_TRANSFER: r->count = m->u.transfer.ordered; break;
  case LB_MSG_LOAD: r->count = m->u.load.q; break;
  case LB_MSG_INSTR: r->count = m->u.instr.min; break;
  case LB_MSG_REPORT: r->count = m->u.report.q; break;
  case LB_MSG_ORDER: r->count = (long long)m->npair; break;
  case LB_MSG_RESULT: r->count = (long long)m->res.pid; break;
  case LB_MSG_POLICY:
    key(r, 0, 0, m->u.pol.tag, LB_TRACE_TAG);
    r->count = m->u.pol.a;
    break;
  default: break;
  }
}

void lb_trace_payload(lb_trace_row *r, lb_trace_ev ev, int type, double t, size_t host, long src, long dst,
                      uint64_t pid, long long bytes)
{
  *r = (lb_trace_row){.ev = ev,
                      .t = t,
                      .host = (long)host,
                      .type = type,
                      .src = src,
                      .dst = dst,
                      .count = (long long)pid,
                      .bytes = bytes};
}

void lb_trace_state(lb_trace_row *r, size_t host, lb_host_state s, double t0, double t1)
{
  *r = (lb_trace_row){.ev = LB_TRACE_STATE, .t = t0, .end = t1, .host = (long)host, .type = (int)s};
}

/* ---- formatting ---- */
int lb_trace_format(const lb_trace_row *r, char *buf, size_t cap, size_t *len)
{
  *len = 0;
  if (!isfinite(r->t) || (r->ev == LB_TRACE_STATE && !(isfinite(r->end) && r->end >= r->t)))
    return lb_error(LB_EINVAL, "trace row: time %g, end %g", r->t, r->end);
  int n;
  if (r->ev == LB_TRACE_STATE) {
    if ((unsigned)r->type >= LB_HOST_NSTATES) return lb_error(LB_EINVAL, "trace row: state %d", r->type);
    n = snprintf(buf, cap, "%.9f,%ld,%s,,,,,,,,,state,,%.9f", r->t, r->host, lb_host_state_name((lb_host_state)r->type),
                 r->end);
  } else {
    if (r->type < 0 || r->type >= LB_TRACE_NTYPES || (r->ev != LB_TRACE_SEND && r->ev != LB_TRACE_RECV))
      return lb_error(LB_EINVAL, "trace row: type %d, event %d", r->type, (int)r->ev);
    char k[3][24] = {"", "", ""}, id[16] = "";
    if (r->keys & LB_TRACE_HV) snprintf(k[0], sizeof k[0], "%llu", (unsigned long long)r->hv);
    if (r->keys & LB_TRACE_LV) snprintf(k[1], sizeof k[1], "%llu", (unsigned long long)r->lv);
    if (r->keys & LB_TRACE_TAG) snprintf(k[2], sizeof k[2], "%llu", (unsigned long long)r->tag);
    if (r->has_id) snprintf(id, sizeof id, "%lu", (unsigned long)r->id);
    n = snprintf(buf, cap, "%.9f,%ld,%s,%ld,%ld,%s,%s,%s,%lld,%lld,%lld,%s,%s,", r->t, r->host,
                 lb_trace_type_name(r->type), r->src, r->dst, k[0], k[1], k[2], r->count, r->procs, r->bytes,
                 lb_trace_ev_name(r->ev), id);
  }
  if (n < 0 || (size_t)n >= cap) return lb_error(LB_ERANGE, "trace row of %d bytes, room for %zu", n, cap);
  *len = (size_t)n;
  return LB_SUCCESS;
}

/* ---- parsing ---- */
static int integer(const char *col, const char *s, long long lo, long long *v)
{
  char *end;
  if (!*s || !(isdigit((unsigned char)*s) || (*s == '-' && isdigit((unsigned char)s[1]))))
    return lb_error(LB_EFORMAT, "%s '%.30s' is not an integer", col, s);
  errno = 0;
  *v = strtoll(s, &end, 10);
  if (*end) return lb_error(LB_EFORMAT, "%s '%.30s' is not an integer", col, s);
  if (errno == ERANGE) return lb_error(LB_EFORMAT, "%s '%.30s' is out of range", col, s);
  if (*v < lo) return lb_error(LB_EFORMAT, "%s %lld is below %lld", col, *v, lo);
  return LB_SUCCESS;
}

static int number(const char *col, const char *s, double *v)
{
  char *end;
  if (!*s || strspn(s, "0123456789.eE+-") != strlen(s))
    return lb_error(LB_EFORMAT, "%s '%.30s' is not a number", col, s);
  *v = strtod(s, &end);
  if (*end || !isfinite(*v) || *v < 0) return lb_error(LB_EFORMAT, "%s '%.30s' is not a time >= 0", col, s);
  return LB_SUCCESS;
}

/* An id: empty (absent), or digits without a leading zero, up to max. */
static int id_col(const char *col, const char *s, unsigned long long max, int *has, uint64_t *v)
{
  *has = 0;
  *v = 0;
  if (!*s) return LB_SUCCESS;
  size_t n = strlen(s);
  if (strspn(s, "0123456789") != n || (s[0] == '0' && s[1]))
    return lb_error(LB_EFORMAT, "%s '%.30s' is not an id (digits, no leading zero)", col, s);
  if (n > 20) return lb_error(LB_EFORMAT, "%s '%.30s' is too long", col, s);
  errno = 0;
  unsigned long long x = strtoull(s, NULL, 10);
  if (errno == ERANGE || x > max) return lb_error(LB_EFORMAT, "%s '%.30s' is out of range", col, s);
  *has = 1;
  *v = x;
  return LB_SUCCESS;
}

static int empty_cols(char **f, int from, int to)
{
  for (int k = from; k <= to; k++)
    if (*f[k]) return lb_error(LB_EFORMAT, "%s '%.30s' on a state row, which has none", cols[k], f[k]);
  return LB_SUCCESS;
}

#define TRY(x)                                                                                                         \
  do {                                                                                                                 \
    int rc_ = (x);                                                                                                     \
    if (rc_) return rc_;                                                                                               \
  } while (0)

static int parse_state(char **f, lb_trace_row *r)
{
  if ((r->type = lb_host_state_from(f[2])) < 0) return lb_error(LB_EFORMAT, "unknown state '%.20s'", f[2]);
  TRY(empty_cols(f, 3, 10));
  TRY(empty_cols(f, 12, 12));
  TRY(number(cols[13], f[13], &r->end));
  if (r->end < r->t) return lb_error(LB_EFORMAT, "end %.9f before time %.9f", r->end, r->t);
  return LB_SUCCESS;
}

int lb_trace_parse(char *line, int version, lb_trace_row *r)
{
  *r = (lb_trace_row){0};
  if (version != 1 && version != 2) return lb_error(LB_EINVAL, "trace version %d", version);
  int want = version == 1 ? NCOL1 : NCOL2;
  char *f[NCOL2];
  int n = 0;
  for (char *p = line;; p++) {
    if (n < NCOL2) f[n] = p;
    n++;
    p += strcspn(p, ",");
    if (!*p) break;
    *p = '\0';
  }
  if (n != want)
    return lb_error(LB_EFORMAT, "%d columns, expected %d (%s)", n, want,
                    version == 1 ? lb_trace_columns_v1() : lb_trace_columns());
  long long v;
  TRY(number(cols[0], f[0], &r->t));
  TRY(integer(cols[1], f[1], 0, &v));
  if (v > (1LL << 31)) return lb_error(LB_EFORMAT, "host %lld is out of range", v);
  r->host = (long)v;
  r->ev = LB_TRACE_SEND;
  if (version == 2) {
    if (!strcmp(f[11], "send")) r->ev = LB_TRACE_SEND;
    else if (!strcmp(f[11], "recv")) r->ev = LB_TRACE_RECV;
    else if (!strcmp(f[11], "state")) r->ev = LB_TRACE_STATE;
    else return lb_error(LB_EFORMAT, "ev '%.20s' is not send, recv or state", f[11]);
    if (r->ev == LB_TRACE_STATE) return parse_state(f, r);
    if (*f[13]) return lb_error(LB_EFORMAT, "end '%.30s' on a message row, which has none", f[13]);
  }
  if ((r->type = lb_trace_type_from(f[2])) < 0) return lb_error(LB_EFORMAT, "unknown message type '%.20s'", f[2]);
  TRY(integer(cols[3], f[3], 0, &v));
  if (v > (1LL << 31)) return lb_error(LB_EFORMAT, "src %lld is out of range", v);
  r->src = (long)v;
  TRY(integer(cols[4], f[4], r->type == LB_TRACE_DELIVER ? -1 : 0, &v));
  if (v > (1LL << 31)) return lb_error(LB_EFORMAT, "dst %lld is out of range", v);
  r->dst = (long)v;
  if (r->type == LB_TRACE_DELIVER && r->dst != -1)
    return lb_error(LB_EFORMAT, "DELIVER to %ld: a delivery goes to lbmaster (dst -1)", r->dst);
  if (r->ev == LB_TRACE_SEND && r->src != r->host)
    return lb_error(LB_EFORMAT, "src %ld differs from host %ld: a send is written by its sender", r->src, r->host);
  if (r->ev == LB_TRACE_RECV && r->dst != r->host)
    return lb_error(LB_EFORMAT, "dst %ld differs from host %ld: a receipt is written by its receiver", r->dst, r->host);
  uint64_t *kv[3] = {&r->hv, &r->lv, &r->tag};
  for (int k = 0; k < 3; k++) {
    int has;
    TRY(id_col(cols[5 + k], f[5 + k], UINT64_MAX, &has, kv[k]));
    if (has) r->keys |= 1u << k;
  }
  TRY(integer(cols[8], f[8], -(1LL << 62), &r->count));
  TRY(integer(cols[9], f[9], 0, &r->procs));
  TRY(integer(cols[10], f[10], 0, &r->bytes));
  if (version == 2) {
    uint64_t id;
    TRY(id_col(cols[12], f[12], UINT32_MAX, &r->has_id, &id));
    r->id = (uint32_t)id;
  }
  return LB_SUCCESS;
}

/* ---- metadata ---- */
int lb_trace_meta(char *buf, size_t cap, const char *key, const char *value)
{
  if (!*key || strspn(key, "abcdefghijklmnopqrstuvwxyz0123456789_") != strlen(key))
    return lb_error(LB_EINVAL, "trace metadata key '%.30s'", key);
  if (strchr(value, '\n') || strchr(value, '\r')) return lb_error(LB_EINVAL, "trace metadata: a value of two lines");
  int n = snprintf(buf, cap, "# %s: %s", key, value);
  if (n < 0 || (size_t)n >= cap) return lb_error(LB_ERANGE, "trace metadata of %d bytes", n);
  return LB_SUCCESS;
}

int lb_trace_head(char *buf, size_t cap, size_t hosts, const char *driver, const char *time, const char *clock)
{
  char n[32];
  snprintf(n, sizeof n, "%zu", hosts);
  const char *k[4] = {"hosts", "driver", "time", "clock"}, *v[4] = {n, driver, time, clock};
  int len = snprintf(buf, cap, "%s\n", LB_TRACE_MAGIC);
  for (int i = 0; i < 4 && len >= 0 && (size_t)len < cap; i++) {
    int rc = lb_trace_meta(buf + len, cap - (size_t)len, k[i], v[i]);
    if (rc) return rc;
    len += (int)strlen(buf + len);
    if ((size_t)len + 1 >= cap) return lb_error(LB_ERANGE, "trace head");
    buf[len++] = '\n';
    buf[len] = '\0';
  }
  if (len < 0 || (size_t)len >= cap) return lb_error(LB_ERANGE, "trace head");
  return LB_SUCCESS;
}

int lb_trace_meta_parse(char *line, const char **key, const char **value)
{
  if (strncmp(line, "# ", 2)) return 0;
  char *k = line + 2, *c = strchr(k, ':');
  if (!c || c == k || c[1] != ' ' || strspn(k, "abcdefghijklmnopqrstuvwxyz0123456789_") != (size_t)(c - k)) return 0;
  *c = '\0';
  *key = k;
  *value = c + 2;
  return 1;
}

/* ---- states ---- */
void lb_trace_states_init(lb_trace_states *st) { *st = (lb_trace_states){.state = -1}; }

int lb_trace_leave(lb_trace_states *st, size_t host, double t, lb_trace_row *r)
{
  int s = st->state;
  st->state = -1;
  if (s < 0 || !(t > st->since)) return 0;
  lb_trace_state(r, host, (lb_host_state)s, st->since, t);
  return 1;
}

int lb_trace_enter(lb_trace_states *st, size_t host, lb_host_state s, double t, lb_trace_row *r)
{
  if (st->state == (int)s) return 0;
  if (st->state >= 0 && t < st->since) t = st->since;
  int got = lb_trace_leave(st, host, t, r);
  st->state = (int)s;
  st->since = t;
  return got;
}
