/* lb_codec.c: see lb_codec.h. */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include "lb_codec.h"
#include "lb_wire.h"
#include "lb_errno.h"

#define NONE32 0xFFFFFFFFu

void lb_codec_limits_default(lb_codec_limits *l, size_t nodes)
{
  l->nodes = nodes;
  l->max_procs = (size_t)1 << 20;
  l->max_ctx = (size_t)1 << 30;
  l->max_pairs = nodes;
  l->max_count = INT_MAX; /* nodes classify their loads in int */
}

/* ---- encoding ---- */
static int node_ok(size_t v) { return v == LB_NO_NODE || v < NONE32; }
static void w_node(lb_wbuf *w, size_t v) { lb_w_u32(w, v == LB_NO_NODE ? NONE32 : (uint32_t)v); }

static void w_proc(lb_wbuf *w, const lb_proc *p)
{
  lb_w_u64(w, p->id);
  w_node(w, p->origin);
  lb_w_f64(w, p->work);
  lb_w_u32(w, p->quanta);
  lb_w_u32(w, p->hops);
  lb_w_f64(w, p->est);
  lb_w_f64(w, p->ran);
  lb_w_u32(w, (uint32_t)p->ctx_len);
  lb_w_bytes(w, p->ctx, p->ctx_len);
}

static void w_body(lb_wbuf *w, const lb_msg *m)
{
  switch (m->type) {
  case LB_MSG_RM:
    w_node(w, m->u.rm.hv);
    lb_w_i64(w, m->u.rm.epn);
    lb_w_u64(w, m->u.rm.round);
    lb_w_f64(w, m->u.rm.lease);
    break;
  case LB_MSG_AM:
    w_node(w, m->u.am.hv);
    w_node(w, m->u.am.lv);
    lb_w_u64(w, m->u.am.tag);
    lb_w_i64(w, m->u.am.ipn);
    lb_w_u32(w, m->u.am.hops);
    break;
  case LB_MSG_CM:
    w_node(w, m->u.cm.hv);
    w_node(w, m->u.cm.lv);
    lb_w_u64(w, m->u.cm.tag);
    lb_w_u8(w, m->u.cm.aor != 0);
    lb_w_i64(w, m->u.cm.depn);
    break;
  case LB_MSG_LMM:
    w_node(w, m->u.lmm.hv);
    w_node(w, m->u.lmm.lv);
    lb_w_u64(w, m->u.lmm.tag);
    lb_w_u8(w, m->u.lmm.fon != 0);
    lb_w_i64(w, m->u.lmm.total);
    break;
  case LB_MSG_DRM:
    w_node(w, m->u.drm.hv);
    w_node(w, m->u.drm.lv);
    lb_w_u64(w, m->u.drm.tag);
    lb_w_u8(w, m->u.drm.fon != 0);
    break;
  case LB_MSG_ABORT:
    w_node(w, m->u.abort.hv);
    w_node(w, m->u.abort.lv);
    lb_w_u64(w, m->u.abort.tag);
    break;
  case LB_MSG_PROBE: lb_w_u64(w, m->u.probe.round); break;
  case LB_MSG_REPLY:
    lb_w_u64(w, m->u.reply.round);
    lb_w_i64(w, m->u.reply.q);
    break;
  case LB_MSG_TRANSFER:
    lb_w_i64(w, m->u.transfer.ordered);
    lb_w_u32(w, m->u.transfer.epoch);
    break;
  case LB_MSG_LOAD: lb_w_i64(w, m->u.load.q); break;
  case LB_MSG_INSTR: lb_w_i64(w, m->u.instr.min); break;
  case LB_MSG_REPORT:
    lb_w_i64(w, m->u.report.q);
    lb_w_f64(w, m->u.report.speed);
    lb_w_i64(w, m->u.report.in);
    lb_w_i64(w, m->u.report.out);
    lb_w_u32(w, m->u.report.epoch);
    break;
  case LB_MSG_ORDER:
    lb_w_u32(w, m->u.order.epoch);
    lb_w_u32(w, (uint32_t)m->npair);
    for (size_t k = 0; k < m->npair; k++) {
      w_node(w, m->pairs[k].node);
      lb_w_i64(w, m->pairs[k].count);
    }
    break;
  case LB_MSG_POLICY:
    lb_w_u32(w, m->u.pol.kind);
    lb_w_u64(w, m->u.pol.tag);
    lb_w_i64(w, m->u.pol.a);
    lb_w_i64(w, m->u.pol.b);
    break;
  case LB_MSG_RESULT:
  case LB_MSG_NTYPES: break;
  }
  if (lb_msg_type_has_procs(m->type)) {
    lb_w_u32(w, (uint32_t)m->nproc);
    for (size_t k = 0; k < m->nproc; k++) w_proc(w, m->procs[k]);
  }
  if (lb_msg_type_has_result(m->type)) {
    lb_w_u64(w, m->res.pid);
    w_node(w, m->res.origin);
    lb_w_u64(w, m->res.len);
    lb_w_u8(w, m->res.payload != 0);
  }
}

static void w_msg(lb_wbuf *w, const lb_msg *m, uint32_t run, size_t body)
{
  lb_w_u32(w, LB_CODEC_MAGIC);
  lb_w_u16(w, LB_CODEC_VERSION);
  lb_w_u16(w, (unsigned)m->type);
  lb_w_u32(w, run);
  w_node(w, m->src);
  w_node(w, m->dst);
  w_node(w, m->hop_src);
  w_node(w, m->hop_dst);
  lb_w_u32(w, (uint32_t)body);
  w_body(w, m);
}

/* Every field is of fixed width, so a body's size is its type's part,
 * a fixed part and the context for each process, and a fixed part for
 * each ORDER pair.  Those parts are measured once by the writers
 * themselves (no second description of the format) on empty records:
 * a relayed message's size is asked at every hop.  Measuring twice at
 * once gives the same numbers, so the entries are plain atomics. */
static size_t part[LB_MSG_NTYPES + 2]; /* + 1: each process's fixed part; + 2: each pair's; all + 1 */

static size_t measured(size_t k)
{
  size_t v = __atomic_load_n(&part[k], __ATOMIC_RELAXED);
  if (v) return v - 1;
  lb_wbuf w = {NULL, 0, 0};
  if (k < LB_MSG_NTYPES) {
    lb_msg m = {.type = (lb_msg_type)k};
    w_body(&w, &m);
  } else if (k == LB_MSG_NTYPES) {
    lb_proc p = {0};
    w_proc(&w, &p);
  } else {
    w_node(&w, 0);
    lb_w_i64(&w, 0);
  }
  __atomic_store_n(&part[k], w.len + 1, __ATOMIC_RELAXED);
  return w.len;
}

static size_t body_size(const lb_msg *m)
{
  if ((unsigned)m->type >= LB_MSG_NTYPES) {
    lb_wbuf w = {NULL, 0, 0};
    w_body(&w, m);
    return w.len;
  }
  size_t n = measured((size_t)m->type);
  if (lb_msg_type_has_procs(m->type))
    for (size_t k = 0; k < m->nproc; k++) n += measured(LB_MSG_NTYPES) + m->procs[k]->ctx_len;
  if (m->type == LB_MSG_ORDER) n += m->npair * measured(LB_MSG_NTYPES + 1);
  return n;
}

size_t lb_codec_size(const lb_msg *m)
{
  /* most messages carry no process and no pair: their type's part */
  if ((unsigned)m->type < LB_MSG_NTYPES && !m->nproc && !m->npair) {
    size_t v = __atomic_load_n(&part[m->type], __ATOMIC_RELAXED);
    if (v) return LB_CODEC_HEADER + v - 1;
  }
  return LB_CODEC_HEADER + body_size(m);
}

/* Fields the header or body cannot hold. */
static int check_encodable(const lb_msg *m, size_t body)
{
  if ((unsigned)m->type >= LB_MSG_NTYPES) return lb_error(LB_EINVAL, "message type %d", (int)m->type);
  if (body > NONE32) return lb_error(LB_ERANGE, "%s body of %zu bytes", lb_msg_type_name(m->type), body);
  if (m->type == LB_MSG_POLICY && (m->u.pol.kind >= LB_MSG_POLICY_KINDS || m->u.pol.a < 0 || m->u.pol.b < 0))
    return lb_error(LB_ERANGE, "POLICY: kind %u or a count (%ld, %ld) out of range", (unsigned)m->u.pol.kind,
                    m->u.pol.a, m->u.pol.b);
  if (!node_ok(m->src) || !node_ok(m->dst) || !node_ok(m->hop_src) || !node_ok(m->hop_dst) || !node_ok(m->res.origin))
    return lb_error(LB_ERANGE, "%s: a node id does not fit 32 bits", lb_msg_type_name(m->type));
  for (size_t k = 0; k < m->nproc; k++)
    if (!node_ok(m->procs[k]->origin) || m->procs[k]->ctx_len >= NONE32)
      return lb_error(LB_ERANGE, "%s: process %llu does not fit the codec", lb_msg_type_name(m->type),
                      (unsigned long long)m->procs[k]->id);
  for (size_t k = 0; k < m->npair; k++)
    if (!node_ok(m->pairs[k].node)) return lb_error(LB_ERANGE, "ORDER: node id does not fit 32 bits");
  return LB_SUCCESS;
}

int lb_codec_encode(const lb_msg *m, uint32_t run, unsigned char *buf, size_t cap, size_t *len)
{
  size_t body = body_size(m);
  int rc = check_encodable(m, body);
  if (rc) return rc;
  *len = LB_CODEC_HEADER + body;
  if (!buf || cap < *len)
    return lb_error(LB_ERANGE, "%s needs %zu bytes, buffer has %zu", lb_msg_type_name(m->type), *len, cap);
  lb_wbuf w = {buf, cap, 0};
  w_msg(&w, m, run, body);
  if (w.len != *len) /* body_size's parts and the writers disagree */
    return lb_error(LB_ESTATE, "%s: %zu bytes written, %zu counted", lb_msg_type_name(m->type), w.len, *len);
  return LB_SUCCESS;
}

int lb_codec_encode_alloc(const lb_msg *m, uint32_t run, unsigned char **buf, size_t *len)
{
  *buf = NULL;
  size_t n = lb_codec_size(m);
  unsigned char *b = malloc(n ? n : 1);
  if (!b) return lb_error(LB_ENOMEM, "%s of %zu bytes", lb_msg_type_name(m->type), n);
  int rc = lb_codec_encode(m, run, b, n, len);
  if (rc) {
    free(b);
    return rc;
  }
  *buf = b;
  return LB_SUCCESS;
}

/* ---- decoding ---- */
typedef struct dec {
  lb_rbuf r;
  const lb_codec_limits *lim;
  const char *why; /* first problem found */
} dec;

static void bad(dec *d, const char *why)
{
  if (!d->why) d->why = why;
}

/* A node id: below lim->nodes, or none where `none_ok`. */
static size_t r_node(dec *d, int none_ok)
{
  uint32_t v = lb_r_u32(&d->r);
  if (v == NONE32 && none_ok) return LB_NO_NODE;
  if (v >= d->lim->nodes || v == NONE32) {
    bad(d, "node id out of range");
    return 0;
  }
  return v;
}

static long r_count(dec *d)
{
  int64_t v = lb_r_i64(&d->r);
  if (v < 0 || v > d->lim->max_count) {
    bad(d, "count out of range");
    return 0;
  }
  return (long)v;
}

static int r_flag(dec *d)
{
  unsigned v = lb_r_u8(&d->r);
  if (v > 1) bad(d, "flag not 0 or 1");
  return v == 1;
}

static double r_real(dec *d, double lo, double hi)
{
  double v = lb_r_f64(&d->r);
  if (!(v >= lo && v <= hi)) {
    bad(d, "real value not finite or out of range");
    return lo;
  }
  return v;
}

static int r_proc(dec *d, lb_msg *m)
{
  uint64_t id = lb_r_u64(&d->r);
  size_t origin = r_node(d, 0);
  double work = r_real(d, 0, nextafter(1e300, 0)); /* lb_proc_alloc's range */
  uint32_t quanta = lb_r_u32(&d->r), hops = lb_r_u32(&d->r);
  double est = r_real(d, 0, FLT_MAX), ran = r_real(d, 0, FLT_MAX);
  /* floats in lb_proc: a double that is not one would not encode back */
  if ((double)(float)est != est || (double)(float)ran != ran) bad(d, "estimate not in single precision");
  uint32_t clen = lb_r_u32(&d->r);
  if (clen > d->lim->max_ctx) bad(d, "context too long");
  else if (clen > lb_r_left(&d->r)) bad(d, "context longer than the message");
  if (d->why || d->r.bad) return LB_SUCCESS; /* recorded in d */
  const unsigned char *ctx = lb_r_take(&d->r, clen);
  lb_proc *p;
  int rc = lb_proc_alloc(id, origin, work, ctx, clen, &p);
  if (rc) return rc;
  p->quanta = quanta;
  p->hops = hops;
  p->est = (float)est;
  p->ran = (float)ran;
  if ((rc = lb_msg_add_proc(m, p))) lb_proc_free(p);
  return rc;
}

static int r_body(dec *d, lb_msg *m)
{
  int rc = LB_SUCCESS;
  switch (m->type) {
  case LB_MSG_RM:
    m->u.rm.hv = r_node(d, 0);
    m->u.rm.epn = r_count(d);
    m->u.rm.round = lb_r_u64(&d->r);
    m->u.rm.lease = r_real(d, 0, 1e12);
    break;
  case LB_MSG_AM:
    m->u.am.hv = r_node(d, 0);
    m->u.am.lv = r_node(d, 0);
    m->u.am.tag = lb_r_u64(&d->r);
    m->u.am.ipn = r_count(d);
    m->u.am.hops = lb_r_u32(&d->r);
    break;
  case LB_MSG_CM:
    m->u.cm.hv = r_node(d, 0);
    m->u.cm.lv = r_node(d, 0);
    m->u.cm.tag = lb_r_u64(&d->r);
    m->u.cm.aor = r_flag(d);
    m->u.cm.depn = r_count(d);
    break;
  case LB_MSG_LMM:
    m->u.lmm.hv = r_node(d, 0);
    m->u.lmm.lv = r_node(d, 0);
    m->u.lmm.tag = lb_r_u64(&d->r);
    m->u.lmm.fon = r_flag(d);
    m->u.lmm.total = r_count(d);
    break;
  case LB_MSG_DRM:
    m->u.drm.hv = r_node(d, 0);
    m->u.drm.lv = r_node(d, 0);
    m->u.drm.tag = lb_r_u64(&d->r);
    m->u.drm.fon = r_flag(d);
    break;
  case LB_MSG_ABORT:
    m->u.abort.hv = r_node(d, 0);
    m->u.abort.lv = r_node(d, 0);
    m->u.abort.tag = lb_r_u64(&d->r);
    break;
  case LB_MSG_PROBE: m->u.probe.round = lb_r_u64(&d->r); break;
  case LB_MSG_REPLY:
    m->u.reply.round = lb_r_u64(&d->r);
    m->u.reply.q = r_count(d);
    break;
  case LB_MSG_TRANSFER:
    m->u.transfer.ordered = r_count(d);
    m->u.transfer.epoch = lb_r_u32(&d->r);
    break;
  case LB_MSG_LOAD: m->u.load.q = r_count(d); break;
  case LB_MSG_INSTR: m->u.instr.min = r_count(d); break;
  case LB_MSG_REPORT:
    m->u.report.q = r_count(d);
    m->u.report.speed = r_real(d, 1e-300, 1e300);
    if (!(m->u.report.speed > 0)) bad(d, "speed not positive");
    m->u.report.in = r_count(d);
    m->u.report.out = r_count(d);
    m->u.report.epoch = lb_r_u32(&d->r);
    break;
  case LB_MSG_ORDER: {
    m->u.order.epoch = lb_r_u32(&d->r);
    uint32_t n = lb_r_u32(&d->r);
    /* 12 bytes a pair: a count that the rest cannot hold is refused
     * before anything is allocated. */
    if (n > d->lim->max_pairs || n > lb_r_left(&d->r) / 12) {
      bad(d, "too many pairs");
      break;
    }
    for (uint32_t k = 0; k < n && !rc && !d->why; k++) {
      size_t node = r_node(d, 0);
      long c = r_count(d);
      if (!d->why) rc = lb_msg_add_pair(m, node, c);
    }
    break;
  }
  case LB_MSG_POLICY:
    m->u.pol.kind = lb_r_u32(&d->r);
    if (m->u.pol.kind >= LB_MSG_POLICY_KINDS) bad(d, "policy message kind out of range");
    m->u.pol.tag = lb_r_u64(&d->r);
    m->u.pol.a = r_count(d);
    m->u.pol.b = r_count(d);
    break;
  case LB_MSG_RESULT:
  case LB_MSG_NTYPES: break;
  }
  if (!rc && !d->why && lb_msg_type_has_procs(m->type)) {
    uint32_t n = lb_r_u32(&d->r);
    /* 48 bytes at least a process */
    if (n > d->lim->max_procs || n > lb_r_left(&d->r) / 48) bad(d, "too many processes");
    for (uint32_t k = 0; k < n && !rc && !d->why; k++) rc = r_proc(d, m);
  }
  if (!rc && !d->why && lb_msg_type_has_result(m->type)) {
    m->res.pid = lb_r_u64(&d->r);
    m->res.origin = r_node(d, 0);
    m->res.len = lb_r_u64(&d->r);
    m->res.payload = r_flag(d);
    if (m->res.len > ((uint64_t)1 << 40)) bad(d, "result length out of range");
  }
  return rc;
}

int lb_codec_peek(const unsigned char *buf, size_t len, lb_msg_type *type, uint32_t *run)
{
  lb_rbuf r = {buf, buf ? len : 0, 0, 0};
  uint32_t magic = lb_r_u32(&r);
  unsigned ver = lb_r_u16(&r), t = lb_r_u16(&r);
  *run = lb_r_u32(&r);
  if (r.bad || len < LB_CODEC_HEADER) return lb_error(LB_EFORMAT, "message of %zu bytes: shorter than a header", len);
  if (magic != LB_CODEC_MAGIC) return lb_error(LB_EFORMAT, "not a protocol message (magic %08x)", (unsigned)magic);
  if (ver != LB_CODEC_VERSION)
    return lb_error(LB_EFORMAT, "protocol message version %u, expected %u", ver, LB_CODEC_VERSION);
  if (t >= LB_MSG_NTYPES) return lb_error(LB_EFORMAT, "unknown message type %u", t);
  *type = (lb_msg_type)t;
  return LB_SUCCESS;
}

int lb_codec_decode(const unsigned char *buf, size_t len, uint32_t run, const lb_codec_limits *lim, lb_msg **out)
{
  *out = NULL;
  lb_msg_type type;
  uint32_t mrun;
  int rc = lb_codec_peek(buf, len, &type, &mrun);
  if (rc) return rc;
  if (mrun != run) return lb_error(LB_EFORMAT, "%s of run %u, expected run %u", lb_msg_type_name(type), mrun, run);
  dec d = {{buf, len, 12, 0}, lim, NULL};
  lb_msg *m;
  if ((rc = lb_msg_alloc(type, LB_NO_NODE, LB_NO_NODE, &m))) return rc;
  m->src = r_node(&d, 0);
  m->dst = r_node(&d, 0);
  m->hop_src = r_node(&d, 0);
  m->hop_dst = r_node(&d, 0);
  uint32_t body = lb_r_u32(&d.r);
  if (!d.why && body != len - LB_CODEC_HEADER) bad(&d, "length in the header is not the message's");
  if (!d.why) rc = r_body(&d, m);
  if (!rc && !d.why && d.r.bad) bad(&d, "body shorter than its fields");
  if (!rc && !d.why && lb_r_left(&d.r)) bad(&d, "bytes left over after the body");
  if (rc || d.why) {
    if (!rc) rc = lb_error(LB_EFORMAT, "%s of %zu bytes: %s", lb_msg_type_name(type), len, d.why);
    lb_msg_free(m);
    return rc;
  }
  *out = m;
  return LB_SUCCESS;
}
