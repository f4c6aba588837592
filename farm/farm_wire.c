/* farm_wire.c: see farm_wire.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "farm_wire.h"
#include "farm_throttle.h"
#include "lb_wire.h"
#include "lb_errno.h"
#include "lb_param.h"
#include "lb_policy.h"

const char *farm_tag_name(int tag)
{
  switch (tag) {
#define FARM_NAME(name, val, str)                                                                                      \
  case val: return str;
    FARM_TAGS(FARM_NAME)
#undef FARM_NAME
  default: return NULL;
  }
}

/* ---- helpers ---- */
typedef struct rd {
  lb_rbuf r;
  const char *why;
} rd;

static void bad(rd *d, const char *why)
{
  if (!d->why) d->why = why;
}
static double r_real(rd *d, double lo, double hi)
{
  double v = lb_r_f64(&d->r);
  if (!(v >= lo && v <= hi)) {
    bad(d, "a real value is not finite or out of range");
    return lo;
  }
  return v;
}
static uint32_t r_below(rd *d, uint32_t n, const char *what)
{
  uint32_t v = lb_r_u32(&d->r);
  if (v >= n) {
    bad(d, what);
    return 0;
  }
  return v;
}
/* End of a decode: the first problem, a short body, or bytes left over. */
static int finish(rd *d, const char *what)
{
  if (!d->why && d->r.bad) d->why = "shorter than its fields";
  if (!d->why && lb_r_left(&d->r)) d->why = "bytes left over";
  return d->why ? lb_error(LB_EFORMAT, "%s: %s", what, d->why) : LB_SUCCESS;
}

/* Encode by running `put` twice: once to count, once to write. */
typedef void (*put_fn)(lb_wbuf *w, const void *arg);
static int encode(put_fn put, const void *arg, unsigned char **buf, size_t *len)
{
  lb_wbuf w = {NULL, 0, 0};
  put(&w, arg);
  unsigned char *b = malloc(w.len ? w.len : 1);
  if (!b) return lb_error(LB_ENOMEM, "farm message of %zu bytes", w.len);
  lb_wbuf o = {b, w.len, 0};
  put(&o, arg);
  *buf = b;
  *len = o.len;
  return LB_SUCCESS;
}

/* ---- envelope ---- */
void farm_envelope_put(unsigned char out[FARM_ENVELOPE], const farm_envelope *e)
{
  lb_wbuf w = {out, FARM_ENVELOPE, 0};
  lb_w_u32(&w, FARM_WIRE_MAGIC);
  lb_w_u16(&w, FARM_WIRE_VERSION);
  lb_w_u16(&w, (unsigned)(e->tag - FARM_TAG_MIN));
  lb_w_u32(&w, e->run);
  lb_w_u32(&w, e->body_len);
  lb_w_u32(&w, e->from);
  lb_w_u32(&w, e->to);
  lb_w_u64(&w, e->seq);
  lb_w_bytes(&w, e->mac, FARM_MAC_LEN);
}

int farm_envelope_check(const unsigned char *buf, size_t len, int tag, uint32_t run, farm_envelope *e)
{
  lb_rbuf r = {buf, buf ? len : 0, 0, 0};
  uint32_t magic = lb_r_u32(&r);
  unsigned ver = lb_r_u16(&r), t = lb_r_u16(&r);
  farm_envelope v = {.tag = (int)t + FARM_TAG_MIN};
  v.run = lb_r_u32(&r);
  v.body_len = lb_r_u32(&r);
  v.from = lb_r_u32(&r);
  v.to = lb_r_u32(&r);
  v.seq = lb_r_u64(&r);
  const unsigned char *mac = lb_r_take(&r, FARM_MAC_LEN);
  if (r.bad) return lb_error(LB_EFORMAT, "no envelope (%zu bytes)", len);
  if (magic != FARM_WIRE_MAGIC) return lb_error(LB_EFORMAT, "bad magic");
  if (ver != FARM_WIRE_VERSION) return lb_error(LB_EFORMAT, "unsupported version %u", ver);
  if (v.tag != tag) return lb_error(LB_EFORMAT, "envelope says tag %d, the transport says %d", v.tag, tag);
  if (v.run != run) return lb_error(LB_EFORMAT, "belongs to another run (%u)", v.run);
  memcpy(v.mac, mac, FARM_MAC_LEN);
  *e = v;
  return LB_SUCCESS;
}

size_t farm_envelope_total(const unsigned char env[FARM_ENVELOPE])
{
  lb_rbuf r = {env + 12, 4, 0, 0};
  return FARM_ENVELOPE + lb_r_u32(&r);
}

int farm_wire_accept(int tag, const unsigned char *env, size_t total, uint32_t run, farm_envelope *e)
{
  if (!farm_tag_name(tag)) return lb_error(LB_EFORMAT, "unknown tag");
  if (!env || total < FARM_ENVELOPE) return lb_error(LB_EFORMAT, "no envelope");
  /* A payload keeps its PAYLOAD envelope when it goes on as a RESULT. */
  int etag = tag == FARM_RESULT ? FARM_PAYLOAD : tag;
  if (farm_envelope_check(env, FARM_ENVELOPE, etag, run, e)) return LB_EFORMAT;
  if (e->body_len != total - FARM_ENVELOPE) return lb_error(LB_EFORMAT, "announced length is not the message's");
  if ((tag == FARM_PAYLOAD || tag == FARM_RESULT) && e->body_len < FARM_PAYLOAD_HEAD)
    return lb_error(LB_EFORMAT, "payload without its head");
  return LB_SUCCESS;
}

/* ---- node parameters ---- */
/* Every parameter of lb/lb_param.c by name, so a new one travels with no
 * change here: u16 count, then per parameter u8 name length, the name,
 * f64 value (an enumeration's index, a flag's 0 or 1). */
static void w_params(lb_wbuf *w, const lb_node_params *p)
{
  lb_w_u16(w, (unsigned)lb_param_count());
  for (size_t k = 0; k < lb_param_count(); k++) {
    const lb_param *q = lb_param_at(k);
    size_t n = strlen(q->name);
    lb_w_u8(w, (unsigned)n);
    lb_w_bytes(w, q->name, n);
    lb_w_f64(w, lb_param_get(q, p));
  }
}

static _Thread_local char param_why[192];

/* Each value through the table's range check, every parameter once, in
 * the table's order: a master of another build is refused here, naming
 * the parameter, rather than run with a setting it did not mean. */
static void r_params(rd *d, lb_node_params *p, uint32_t nhosts)
{
  lb_node_params_default(p);
  size_t np = lb_param_count();
  unsigned count = lb_r_u16(&d->r);
  if (count != np) {
    bad(d, "parameter count is not this build's");
    return;
  }
  for (size_t k = 0; k < np && !d->why && !d->r.bad; k++) {
    const lb_param *q = lb_param_at(k);
    size_t n = lb_r_u8(&d->r);
    if (n > lb_r_left(&d->r)) {
      bad(d, "parameter name longer than the message");
      return;
    }
    const unsigned char *name = lb_r_take(&d->r, n);
    if (n != strlen(q->name) || memcmp(name, q->name, n)) {
      snprintf(param_why, sizeof param_why, "parameter %zu is not %s, as in this build", k, q->name);
      bad(d, param_why);
      return;
    }
    double v = lb_r_f64(&d->r);
    if (!d->r.bad && lb_param_set(q, p, v, NULL)) {
      snprintf(param_why, sizeof param_why, "%s", lb_errmsg());
      bad(d, param_why);
    }
  }
  if (!d->why && !(p->hop_time > 0)) bad(d, "hop time not set");
  if (!d->why && p->cchspmd.controller >= nhosts) bad(d, "controller out of range");
  if (!d->why && p->pool.node >= nhosts) bad(d, "pool node out of range");
}

/* ---- SETUP ---- */
static void put_setup(lb_wbuf *w, const void *arg)
{
  const farm_setup *s = arg;
  lb_w_bytes(w, s->key, FARM_KEY_LEN);
  lb_w_u32(w, s->me);
  lb_w_u32(w, s->nhosts);
  lb_w_u32(w, (uint32_t)s->policy);
  lb_w_f64(w, s->par.speed);
  w_params(w, &s->par);
  lb_w_u32(w, (uint32_t)s->w.kind);
  lb_w_u64(w, s->w.size);
  lb_w_u64(w, s->w.nproc);
  lb_w_u64(w, s->w.seed);
  lb_w_u32(w, s->throttle);
  lb_w_u32(w, s->trace);
  lb_w_u32(w, s->wrong);
  lb_w_u32(w, s->silent);
  lb_w_f64(w, s->quantum_s);
  lb_w_f64(w, s->t0);
  for (uint32_t i = 0; i < s->nhosts; i++) lb_w_u32(w, (uint32_t)s->tids[i]);
  lb_w_u32(w, s->nedges);
  for (uint32_t k = 0; k < s->nedges; k++) {
    lb_w_u32(w, s->edges[k][0]);
    lb_w_u32(w, s->edges[k][1]);
  }
}

int farm_setup_encode(const farm_setup *s, unsigned char **buf, size_t *len) { return encode(put_setup, s, buf, len); }

void farm_setup_clear(farm_setup *s)
{
  free(s->tids);
  free(s->edges);
  s->tids = NULL;
  s->edges = NULL;
}

int farm_setup_decode(const unsigned char *buf, size_t len, farm_setup *s)
{
  memset(s, 0, sizeof *s);
  rd d = {{buf, len, 0, 0}, NULL};
  const unsigned char *key = lb_r_take(&d.r, FARM_KEY_LEN);
  if (key) memcpy(s->key, key, FARM_KEY_LEN);
  s->me = lb_r_u32(&d.r);
  s->nhosts = lb_r_u32(&d.r);
  if (s->nhosts < 1 || s->nhosts > FARM_MAX_HOSTS || s->me >= s->nhosts) bad(&d, "host numbers out of range");
  uint32_t pol = lb_r_u32(&d.r);
  if (!lb_policy_desc_get((lb_policy)pol)) bad(&d, "unknown policy");
  s->policy = (lb_policy)pol;
  double speed = r_real(&d, 1e-6, 1);
  if (!d.why) r_params(&d, &s->par, s->nhosts);
  s->par.speed = speed;
  uint32_t kind = lb_r_u32(&d.r);
  s->w.kind = (app_kind)kind;
  s->w.size = (unsigned long)lb_r_u64(&d.r);
  s->w.nproc = (unsigned long)lb_r_u64(&d.r);
  s->w.seed = (unsigned long)lb_r_u64(&d.r);
  if (!d.why && !d.r.bad && app_workload_check(&s->w)) bad(&d, "workload out of range");
  s->throttle = lb_r_u32(&d.r);
  s->trace = lb_r_u32(&d.r);
  s->wrong = lb_r_u32(&d.r);
  s->silent = lb_r_u32(&d.r);
  if (s->throttle >= FARM_THROTTLE_NMODES || s->trace > 1 || s->wrong > 1 || s->silent > 1)
    bad(&d, "throttle, trace or test switch out of range");
  s->quantum_s = r_real(&d, 1e-5, 100);
  s->t0 = r_real(&d, 0, 1e11);
  /* sizes checked against what is left before anything is allocated */
  if (!d.why && (size_t)s->nhosts * 4 + 4 > lb_r_left(&d.r)) bad(&d, "host table longer than the message");
  if (!d.why) {
    if (!(s->tids = malloc(s->nhosts * sizeof *s->tids))) return lb_error(LB_ENOMEM, "host table");
    for (uint32_t i = 0; i < s->nhosts; i++) {
      s->tids[i] = (int32_t)lb_r_u32(&d.r);
      if (s->tids[i] <= 0) bad(&d, "a host's task id is not positive");
    }
    s->nedges = lb_r_u32(&d.r);
    if ((uint64_t)s->nedges * 8 != lb_r_left(&d.r)) bad(&d, "edge count does not match the length");
  }
  if (!d.why && s->nedges) {
    if (!(s->edges = malloc(s->nedges * sizeof *s->edges))) {
      farm_setup_clear(s);
      return lb_error(LB_ENOMEM, "edges");
    }
    for (uint32_t k = 0; k < s->nedges; k++) {
      s->edges[k][0] = r_below(&d, s->nhosts, "edge end out of range");
      s->edges[k][1] = r_below(&d, s->nhosts, "edge end out of range");
    }
  }
  int rc = finish(&d, "SETUP");
  if (rc) farm_setup_clear(s);
  return rc;
}

/* ---- TASKS ---- */
typedef struct tasks_arg {
  lb_proc *const *p;
  size_t n;
} tasks_arg;

static void put_tasks(lb_wbuf *w, const void *arg)
{
  const tasks_arg *a = arg;
  lb_w_u32(w, (uint32_t)a->n);
  for (size_t k = 0; k < a->n; k++) {
    const lb_proc *p = a->p[k];
    lb_w_u64(w, p->id);
    lb_w_u32(w, (uint32_t)p->origin);
    lb_w_f64(w, p->work);
    lb_w_u32(w, (uint32_t)p->ctx_len);
    lb_w_bytes(w, p->ctx, p->ctx_len);
  }
}

int farm_tasks_encode(lb_proc *const *p, size_t n, unsigned char **buf, size_t *len)
{
  tasks_arg a = {p, n};
  return encode(put_tasks, &a, buf, len);
}

int farm_tasks_decode(const unsigned char *buf, size_t len, uint32_t host, lb_proc ***out, size_t *nout)
{
  *out = NULL;
  *nout = 0;
  rd d = {{buf, len, 0, 0}, NULL};
  uint32_t n = lb_r_u32(&d.r);
  /* 24 bytes at least a process */
  if (n > lb_r_left(&d.r) / 24) return finish(&(rd){d.r, "more processes than the message holds"}, "TASKS");
  lb_proc **v = calloc(n ? n : 1, sizeof *v);
  if (!v) return lb_error(LB_ENOMEM, "%u processes", n);
  size_t got = 0;
  int rc = LB_SUCCESS;
  while (got < n && !d.why && !rc) {
    uint64_t id = lb_r_u64(&d.r);
    uint32_t origin = lb_r_u32(&d.r);
    double work = r_real(&d, 0, 1e18);
    uint32_t clen = lb_r_u32(&d.r);
    if (origin != host) bad(&d, "a process that does not start here");
    if (clen > lb_r_left(&d.r)) bad(&d, "context longer than the message");
    if (d.why || d.r.bad) break;
    const unsigned char *ctx = lb_r_take(&d.r, clen);
    if (!(rc = lb_proc_alloc(id, origin, work, ctx, clen, &v[got]))) got++;
  }
  if (!rc) rc = finish(&d, "TASKS");
  if (rc) {
    for (size_t k = 0; k < got; k++) lb_proc_free(v[k]);
    free(v);
    return rc;
  }
  *out = v;
  *nout = got;
  return LB_SUCCESS;
}

/* ---- ORDER ---- */
int farm_order_encode(const farm_order *o, unsigned char *buf, size_t cap, size_t *len)
{
  lb_wbuf w = {buf, cap, 0};
  lb_w_u32(&w, o->dst);
  lb_w_i64(&w, o->count);
  *len = w.len;
  return lb_wbuf_ok(&w) ? LB_SUCCESS : lb_error(LB_ERANGE, "ORDER buffer too small");
}

int farm_order_decode(const unsigned char *buf, size_t len, uint32_t nhosts, farm_order *o)
{
  rd d = {{buf, len, 0, 0}, NULL};
  o->dst = r_below(&d, nhosts, "destination out of range");
  o->count = lb_r_i64(&d.r);
  if (o->count < 0 || o->count > 1000000) bad(&d, "count out of range");
  return finish(&d, "ORDER");
}

/* ---- REPORT ---- */
static void put_report(lb_wbuf *w, const void *arg)
{
  const farm_report *r = arg;
  lb_w_u32(w, r->me);
  lb_w_u32(w, r->throttle);
  for (int k = 0; k < FARM_NCOUNTERS; k++) lb_w_i64(w, r->c[k]);
  for (int k = 0; k < LB_MSG_NTYPES; k++) lb_w_i64(w, r->lbsent[k]);
  lb_w_f64(w, r->busy);
  lb_w_f64(w, r->cpu);
  lb_w_f64(w, r->span);
  lb_w_f64(w, r->msg);
  lb_w_f64(w, r->idle);
  lb_w_u32(w, (uint32_t)r->trace_len);
  lb_w_bytes(w, r->trace, r->trace_len);
}

int farm_report_encode(const farm_report *r, unsigned char **buf, size_t *len)
{
  return encode(put_report, r, buf, len);
}

void farm_report_clear(farm_report *r)
{
  free(r->trace);
  r->trace = NULL;
  r->trace_len = 0;
}

int farm_report_decode(const unsigned char *buf, size_t len, uint32_t nhosts, farm_report *r)
{
  memset(r, 0, sizeof *r);
  rd d = {{buf, len, 0, 0}, NULL};
  r->me = r_below(&d, nhosts, "host out of range");
  r->throttle = lb_r_u32(&d.r);
  if (r->throttle >= FARM_THROTTLE_NMODES) bad(&d, "throttle out of range");
  for (int k = 0; k < FARM_NCOUNTERS; k++)
    if ((r->c[k] = lb_r_i64(&d.r)) < 0) bad(&d, "negative counter");
  for (int k = 0; k < LB_MSG_NTYPES; k++)
    if ((r->lbsent[k] = lb_r_i64(&d.r)) < 0) bad(&d, "negative counter");
  r->busy = r_real(&d, 0, 1e9);
  r->cpu = r_real(&d, 0, 1e9);
  r->span = r_real(&d, 0, 1e9);
  r->msg = r_real(&d, 0, 1e9);
  r->idle = r_real(&d, 0, 1e9);
  uint32_t tl = lb_r_u32(&d.r);
  if (tl != lb_r_left(&d.r)) bad(&d, "trace length does not match the message");
  if (!d.why && tl) {
    if (!(r->trace = malloc(tl + 1))) return lb_error(LB_ENOMEM, "trace of %u bytes", tl);
    memcpy(r->trace, lb_r_take(&d.r, tl), tl);
    r->trace[tl] = '\0';
    r->trace_len = tl;
    if (memchr(r->trace, '\0', tl)) bad(&d, "a NUL byte in the trace");
  }
  int rc = finish(&d, "REPORT");
  if (rc) farm_report_clear(r);
  return rc;
}

/* ---- DOWN, INVENTORY, LOST ---- */
typedef struct list_arg {
  uint64_t epoch;
  const void *v;
  uint32_t n;
  int wide;
} list_arg;
static void put_list(lb_wbuf *w, const void *arg)
{
  const list_arg *a = arg;
  lb_w_u64(w, a->epoch);
  lb_w_u32(w, a->n);
  for (uint32_t k = 0; k < a->n; k++) {
    if (a->wide) lb_w_u64(w, ((const uint64_t *)a->v)[k]);
    else lb_w_u32(w, ((const uint32_t *)a->v)[k]);
  }
}

int farm_down_encode(uint64_t epoch, const uint32_t *hosts, uint32_t n, unsigned char **buf, size_t *len)
{
  list_arg a = {epoch, hosts, n, 0};
  return encode(put_list, &a, buf, len);
}

int farm_down_decode(const unsigned char *buf, size_t len, uint32_t nhosts, uint64_t *epoch, uint32_t **hosts,
                     uint32_t *n)
{
  *hosts = NULL;
  rd d = {{buf, len, 0, 0}, NULL};
  *epoch = lb_r_u64(&d.r);
  *n = lb_r_u32(&d.r);
  if (*n >= nhosts || (uint64_t)*n * 4 != lb_r_left(&d.r)) return finish(&(rd){d.r, "host count out of range"}, "DOWN");
  if (!(*hosts = malloc((*n ? *n : 1) * sizeof **hosts))) return lb_error(LB_ENOMEM, "DOWN");
  for (uint32_t k = 0; k < *n; k++) (*hosts)[k] = r_below(&d, nhosts, "host out of range");
  int rc = finish(&d, "DOWN");
  if (rc) {
    free(*hosts);
    *hosts = NULL;
  }
  return rc;
}

int farm_inventory_encode(uint64_t epoch, const uint64_t *pids, uint32_t n, unsigned char **buf, size_t *len)
{
  list_arg a = {epoch, pids, n, 1};
  return encode(put_list, &a, buf, len);
}

int farm_inventory_decode(const unsigned char *buf, size_t len, uint64_t nproc, uint64_t *epoch, uint64_t **pids,
                          uint32_t *n)
{
  *pids = NULL;
  rd d = {{buf, len, 0, 0}, NULL};
  *epoch = lb_r_u64(&d.r);
  *n = lb_r_u32(&d.r);
  if ((uint64_t)*n * 8 != lb_r_left(&d.r)) return finish(&(rd){d.r, "count does not match the length"}, "INVENTORY");
  if (!(*pids = malloc((*n ? *n : 1) * sizeof **pids))) return lb_error(LB_ENOMEM, "INVENTORY");
  for (uint32_t k = 0; k < *n; k++)
    if (((*pids)[k] = lb_r_u64(&d.r)) >= nproc) bad(&d, "process id out of range");
  int rc = finish(&d, "INVENTORY");
  if (rc) {
    free(*pids);
    *pids = NULL;
  }
  return rc;
}

int farm_lost_encode(uint64_t pid, unsigned char *buf, size_t cap, size_t *len)
{
  lb_wbuf w = {buf, cap, 0};
  lb_w_u64(&w, pid);
  *len = w.len;
  return lb_wbuf_ok(&w) ? LB_SUCCESS : lb_error(LB_ERANGE, "LOST buffer too small");
}

int farm_lost_decode(const unsigned char *buf, size_t len, uint64_t nproc, uint64_t *pid)
{
  rd d = {{buf, len, 0, 0}, NULL};
  *pid = lb_r_u64(&d.r);
  if (*pid >= nproc) bad(&d, "process id out of range");
  return finish(&d, "LOST");
}

/* ---- CLOCK ---- */
int farm_clock_encode(const farm_clock *c, unsigned char *buf, size_t cap, size_t *len)
{
  lb_wbuf w = {buf, cap, 0};
  lb_w_u32(&w, c->round);
  lb_w_u32(&w, c->reply ? 1 : 0);
  lb_w_f64(&w, c->master);
  if (c->reply) {
    unsigned char boot[FARM_BOOT_ID_LEN] = {0};
    memcpy(boot, c->boot, strnlen(c->boot, FARM_BOOT_ID_LEN));
    lb_w_f64(&w, c->node);
    lb_w_f64(&w, c->mono);
    lb_w_bytes(&w, boot, FARM_BOOT_ID_LEN);
  }
  *len = w.len;
  return lb_wbuf_ok(&w) ? LB_SUCCESS : lb_error(LB_ERANGE, "CLOCK buffer too small");
}

int farm_clock_decode(const unsigned char *buf, size_t len, farm_clock *c)
{
  rd d = {{buf, len, 0, 0}, NULL};
  *c = (farm_clock){0};
  c->round = lb_r_u32(&d.r);
  c->reply = (int)r_below(&d, 2, "neither a request nor a reply");
  c->master = r_real(&d, -1e12, 1e12);
  if (c->reply) {
    c->node = r_real(&d, -1e12, 1e12);
    c->mono = r_real(&d, -1e12, 1e12);
    const unsigned char *b = lb_r_take(&d.r, FARM_BOOT_ID_LEN);
    size_t z = 0;
    for (size_t k = 0; b && k < FARM_BOOT_ID_LEN; k++) z += b[k] == 0;
    if (b && z != FARM_BOOT_ID_LEN) {
      for (size_t k = 0; k < FARM_BOOT_ID_LEN; k++)
        if (!strchr("0123456789abcdef-", b[k]) || !b[k]) bad(&d, "a boot id that is not hex digits and dashes");
      if (!d.why) memcpy(c->boot, b, FARM_BOOT_ID_LEN);
    }
  }
  return finish(&d, "CLOCK");
}

/* ---- HEARTBEAT ---- */
int farm_beat_encode(const farm_beat *b, unsigned char *buf, size_t cap, size_t *len)
{
  lb_wbuf w = {buf, cap, 0};
  lb_w_u32(&w, b->me);
  lb_w_u64(&w, b->quanta);
  lb_w_u64(&w, b->units);
  lb_w_u64(&w, b->held);
  *len = w.len;
  return lb_wbuf_ok(&w) ? LB_SUCCESS : lb_error(LB_ERANGE, "HEARTBEAT buffer too small");
}

int farm_beat_decode(const unsigned char *buf, size_t len, uint32_t nhosts, farm_beat *b)
{
  rd d = {{buf, len, 0, 0}, NULL};
  b->me = r_below(&d, nhosts, "host out of range");
  b->quanta = lb_r_u64(&d.r);
  b->units = lb_r_u64(&d.r);
  b->held = lb_r_u64(&d.r);
  /* A count beyond any run's is a sender's error, not progress. */
  if (b->quanta >> 53 || b->units >> 62 || b->held >> 32) bad(&d, "a count out of range");
  return finish(&d, "HEARTBEAT");
}

/* ---- SUM_REQ / SUM_REP ---- */
typedef struct sum_arg {
  const int32_t *v;
  uint32_t n;
} sum_arg;
static void put_sum(lb_wbuf *w, const void *arg)
{
  const sum_arg *a = arg;
  lb_w_u32(w, a->n);
  for (uint32_t k = 0; k < a->n; k++) lb_w_u32(w, (uint32_t)a->v[k]);
}

int farm_sum_req_encode(const int32_t *v, uint32_t n, unsigned char **buf, size_t *len)
{
  sum_arg a = {v, n};
  return encode(put_sum, &a, buf, len);
}

int farm_sum_req_decode(const unsigned char *buf, size_t len, int32_t **v, uint32_t *n)
{
  *v = NULL;
  rd d = {{buf, len, 0, 0}, NULL};
  *n = lb_r_u32(&d.r);
  if ((uint64_t)*n * 4 != lb_r_left(&d.r)) return finish(&(rd){d.r, "count does not match the length"}, "SUM_REQ");
  if (!(*v = malloc(*n ? *n * sizeof **v : 1))) return lb_error(LB_ENOMEM, "SUM_REQ");
  for (uint32_t k = 0; k < *n; k++) (*v)[k] = (int32_t)lb_r_u32(&d.r);
  int rc = finish(&d, "SUM_REQ");
  if (rc) {
    free(*v);
    *v = NULL;
  }
  return rc;
}

int farm_sum_rep_encode(int64_t n, int64_t sum, unsigned char *buf, size_t cap, size_t *len)
{
  lb_wbuf w = {buf, cap, 0};
  lb_w_i64(&w, n);
  lb_w_i64(&w, sum);
  *len = w.len;
  return lb_wbuf_ok(&w) ? LB_SUCCESS : lb_error(LB_ERANGE, "SUM_REP buffer too small");
}

int farm_sum_rep_decode(const unsigned char *buf, size_t len, int64_t *n, int64_t *sum)
{
  rd d = {{buf, len, 0, 0}, NULL};
  *n = lb_r_i64(&d.r);
  *sum = lb_r_i64(&d.r);
  return finish(&d, "SUM_REP");
}

/* ---- payload head ---- */
void farm_payload_head_put(unsigned char out[FARM_PAYLOAD_HEAD], const farm_payload_head *h)
{
  lb_wbuf w = {out, FARM_PAYLOAD_HEAD, 0};
  lb_w_u64(&w, h->pid);
  lb_w_u32(&w, h->origin);
  lb_w_u32(&w, h->exec);
  lb_w_u64(&w, h->len);
  lb_w_bytes(&w, h->digest, FARM_MAC_LEN);
}

int farm_payload_head_get(const unsigned char *buf, size_t len, uint32_t nhosts, farm_payload_head *h)
{
  rd d = {{buf, len, 0, 0}, NULL};
  h->pid = lb_r_u64(&d.r);
  h->origin = r_below(&d, nhosts, "origin out of range");
  h->exec = r_below(&d, nhosts, "host out of range");
  h->len = lb_r_u64(&d.r);
  if (h->len < 1 || h->len > ((uint64_t)1 << 34)) bad(&d, "result length out of range");
  const unsigned char *dg = lb_r_take(&d.r, FARM_MAC_LEN);
  if (dg) memcpy(h->digest, dg, FARM_MAC_LEN);
  return finish(&d, "payload head");
}
