/* Fuzz target: every decoder of farm/farm_wire.c, and the check of a
 * message's authenticity (farm/farm_auth.c), in one harness.  Byte 0
 * picks the decoder (envelope, SETUP, TASKS, ORDER, REPORT, SUM_REQ,
 * SUM_REP, payload head, a whole message as a transport takes it,
 * CLOCK, HEARTBEAT), byte 1 its parameter, the rest is the message
 * (fuzz_sel.h); also a journal of the master's (farm_journal.h), read
 * to its end as a resuming master reads it.  One target rather than eight: the decoders share their
 * reader, and a mutation that moves an input from one to another tries
 * real message bytes on the next.  A success must hold what the decoder
 * promises (a SETUP: every parameter in its lb_param.c range) and encode
 * back to the same bytes; a SETUP is then taken on as
 * the worker does (the hosts' graph and the node's runtime, a tick and
 * its first timers) when it is small enough to be quick.  A failure must
 * be LB_EFORMAT (or LB_ENOMEM) with a message, and own nothing.  A
 * message taken as authentic must name this task and its sender (or be
 * a payload or the self-test's), give a worker without the key the key
 * it carries, and be refused the second time (a replay). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <sodium.h>
#include "farm_wire.h"
#include "farm_auth.h"
#include "farm_throttle.h"
#include "farm_journal.h"
#include "lb_rt.h"
#include "lb_param.h"
#include "lb_errno.h"
#include "fuzz_check.h"
#include "fuzz_sel.h"

#define SMALL_SETUP 64 /* hosts up to which a SETUP is taken on */

static void check_failed(int rc)
{
  CHECK(rc == LB_EFORMAT || rc == LB_ENOMEM);
  CHECK(lb_errmsg()[0] != '\0');
}

static void check_same(const unsigned char *buf, size_t n, const uint8_t *want, size_t len)
{
  CHECK(n == len && !memcmp(buf, want, len));
}

static int cb_send(void *ctx, lb_msg *m, double now)
{
  (void)ctx;
  (void)now;
  lb_msg_free(m);
  return LB_SUCCESS;
}
static int cb_deliver(void *ctx, const lb_result_ref *r, double now)
{
  (void)ctx;
  (void)r;
  (void)now;
  return LB_SUCCESS;
}
static const lb_rt_ops ops = {.send = cb_send, .deliver = cb_deliver};

/* worker/lbworker.c setup(), without PVM: graph, runtime, first steps. */
static void take_on(const farm_setup *s)
{
  if (s->nhosts > SMALL_SETUP) return;
  size_t(*e)[2] = malloc((s->nedges + 1) * sizeof *e);
  CHECK(e);
  for (uint32_t k = 0; k < s->nedges; k++) {
    e[k][0] = s->edges[k][0];
    e[k][1] = s->edges[k][1];
  }
  lb_topo *t = NULL;
  int rc = lb_topo_from_edges(s->nhosts, (const size_t(*)[2])e, s->nedges, "farm", &t);
  free(e);
  lb_rt *rt = NULL;
  if (!rc && lb_topo_is_connected(t)) rc = lb_rt_alloc(s->policy, s->me, t, &s->par, &ops, NULL, &rt);
  if (rt) {
    lb_event tick = {.type = LB_EV_TICK};
    lb_rt_step(rt, &tick, 0);
    double at;
    for (int k = 0; k < 3 && lb_rt_next_timer(rt, &at); k++) {
      CHECK(isfinite(at));
      lb_rt_fire(rt, at);
    }
    lb_rt_free(rt);
  }
  lb_topo_free(t);
}

static void setup(const uint8_t *b, size_t len)
{
  farm_setup s;
  int rc = farm_setup_decode(b, len, &s);
  if (rc) {
    check_failed(rc);
    CHECK(!s.tids && !s.edges);
    return;
  }
  CHECK(s.nhosts >= 1 && s.nhosts <= FARM_MAX_HOSTS && s.me < s.nhosts);
  CHECK((unsigned)s.policy < LB_POLICY_COUNT && s.par.cchspmd.controller < s.nhosts);
  CHECK(s.par.speed > 0 && s.par.speed <= 1 && s.par.hop_time > 0 && isfinite(s.par.hop_time));
  CHECK(lb_params_check(&s.par) == LB_SUCCESS); /* every parameter in its table range */
  CHECK(isfinite(s.quantum_s) && s.quantum_s > 0 && isfinite(s.t0) && s.t0 >= 0);
  CHECK(app_workload_check(&s.w) == LB_SUCCESS);
  for (uint32_t i = 0; i < s.nhosts; i++) CHECK(s.tids[i] > 0);
  for (uint32_t k = 0; k < s.nedges; k++) CHECK(s.edges[k][0] < s.nhosts && s.edges[k][1] < s.nhosts);
  unsigned char *buf;
  size_t n;
  CHECK(farm_setup_encode(&s, &buf, &n) == LB_SUCCESS);
  check_same(buf, n, b, len);
  free(buf);
  take_on(&s);
  farm_setup_clear(&s);
}

static void tasks(const uint8_t *b, size_t len, uint32_t host)
{
  lb_proc **p = (lb_proc **)1;
  size_t np = 7;
  int rc = farm_tasks_decode(b, len, host, &p, &np);
  if (rc) {
    check_failed(rc);
    CHECK(!p && !np);
    return;
  }
  for (size_t k = 0; k < np; k++) CHECK(p[k]->origin == host && isfinite(p[k]->work) && p[k]->work >= 0);
  unsigned char *buf;
  size_t n;
  CHECK(farm_tasks_encode(p, np, &buf, &n) == LB_SUCCESS);
  check_same(buf, n, b, len);
  free(buf);
  for (size_t k = 0; k < np; k++) lb_proc_free(p[k]);
  free(p);
}

static void report(const uint8_t *b, size_t len, uint32_t nhosts)
{
  farm_report r;
  int rc = farm_report_decode(b, len, nhosts, &r);
  if (rc) {
    check_failed(rc);
    CHECK(!r.trace);
    return;
  }
  CHECK(r.me < nhosts && r.throttle < FARM_THROTTLE_NMODES);
  for (int k = 0; k < FARM_NCOUNTERS; k++) CHECK(r.c[k] >= 0);
  CHECK(isfinite(r.busy + r.cpu + r.span + r.msg + r.idle));
  CHECK(!r.trace_len || (r.trace[r.trace_len] == '\0' && strlen(r.trace) == r.trace_len));
  unsigned char *buf;
  size_t n;
  CHECK(farm_report_encode(&r, &buf, &n) == LB_SUCCESS);
  check_same(buf, n, b, len);
  free(buf);
  farm_report_clear(&r);
}

/* The MAC a sender would put there (farm_auth.h): the envelope's first
 * bytes and the body, or a payload's head. */
static void reseal(uint8_t *m, size_t len, int payload)
{
  unsigned char key[32];
  fz_key(key);
  size_t body = payload ? FARM_PAYLOAD_HEAD : len - FARM_ENVELOPE;
  if (body > len - FARM_ENVELOPE) return;
  crypto_auth_hmacsha512256_state st;
  crypto_auth_hmacsha512256_init(&st, key, sizeof key);
  crypto_auth_hmacsha512256_update(&st, m, FARM_ENV_SIGNED);
  crypto_auth_hmacsha512256_update(&st, m + FARM_ENVELOPE, body);
  crypto_auth_hmacsha512256_final(&st, m + FARM_ENV_SIGNED);
}

static void auth(const uint8_t *b, size_t len, unsigned par)
{
  int tag = FZ_AUTH_TAG(par), payload = tag == FARM_PAYLOAD || tag == FARM_RESULT;
  int keyless = (par & FZ_AUTH_KEYLESS) != 0;
  uint32_t src = par & FZ_AUTH_OTHER_SRC ? FZ_SRC + 1 : FZ_SRC;
  unsigned char key[32], commit[32];
  fz_key(key);
  farm_auth *a, *k;
  CHECK(farm_auth_alloc(FZ_SELF, &a) == LB_SUCCESS && farm_auth_alloc(0, &k) == LB_SUCCESS);
  farm_auth_set_key(k, key);
  farm_auth_commit(k, commit);
  farm_auth_free(k);
  if (keyless) farm_auth_expect(a, commit);
  else farm_auth_set_key(a, key);
  uint8_t *m = malloc(len + 1);
  CHECK(m);
  memcpy(m, b, len);
  farm_envelope e;
  int rc = farm_wire_accept(tag, len >= FARM_ENVELOPE ? m : NULL, len, FZ_RUN, &e);
  if (rc) {
    check_failed(rc);
    goto out;
  }
  if (par & FZ_AUTH_RESEAL) reseal(m, len, payload);
  size_t take = payload ? FARM_PAYLOAD_HEAD : e.body_len;
  rc = farm_auth_open(a, tag, src, m, m + FARM_ENVELOPE, take);
  if (rc) {
    check_failed(rc);
    if (keyless) CHECK(!farm_auth_has_key(a));
    goto out;
  }
  if (tag == FARM_SUM_REQ || tag == FARM_SUM_REP) goto out;
  CHECK(farm_auth_has_key(a));
  if (payload) {
    CHECK(e.to == FARM_ID_ANY && e.seq == 0 && !keyless);
    farm_payload_head h;
    rc = farm_payload_head_get(m + FARM_ENVELOPE, FARM_PAYLOAD_HEAD, 0xFFFFFFFFu, &h);
    if (!rc)
      rc = farm_auth_check_bytes(a, &h, m + FARM_ENVELOPE + FARM_PAYLOAD_HEAD, len - FARM_ENVELOPE - FARM_PAYLOAD_HEAD);
    if (rc) check_failed(rc);
    goto out;
  }
  CHECK(e.to == FZ_SELF && e.from == src);
  if (keyless) CHECK((tag == FARM_SETUP || tag == FARM_QUIT) && !memcmp(farm_auth_key(a), m + FARM_ENVELOPE, 32));
  /* the same message again: a replay */
  rc = farm_auth_open(a, tag, src, m, m + FARM_ENVELOPE, take);
  CHECK(rc == LB_EFORMAT);
out:
  free(m);
  farm_auth_free(a);
}

/* A journal: its header, then its records to the end; each record read
 * must lie inside the bytes, be of the run's range and encode back to
 * itself; a bad end says whether it is a torn last record. */
static void journal(const uint8_t *b, size_t len, unsigned par)
{
  char *desc = (char *)1;
  size_t off;
  int rc = farm_journal_header_decode(b, len, &desc, &off);
  if (rc) {
    check_failed(rc);
    CHECK(!desc);
    return;
  }
  CHECK(off <= len && strlen(desc) <= FARM_JOURNAL_DESC_MAX);
  free(desc);
  uint64_t np = fz_hosts(par), max = FZ_JOURNAL_MAX(par);
  for (;;) {
    farm_journal_rec r;
    int have, torn;
    size_t at = off;
    rc = farm_journal_next(b, len, &off, np, max, &r, &have, &torn);
    if (rc) {
      check_failed(rc);
      CHECK(off == at);
      break;
    }
    if (!have) {
      CHECK(off == len);
      break;
    }
    CHECK(r.pid < np && r.len <= max && off > at && off <= len);
    CHECK(r.bytes == b + at + FARM_JOURNAL_REC_HEAD);
    unsigned char *buf;
    size_t n;
    CHECK(farm_journal_record_encode(r.pid, r.bytes, (size_t)r.len, &buf, &n) == LB_SUCCESS);
    check_same(buf, n, b + at, off - at);
    free(buf);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  if (size < 2) return 0;
  unsigned dec = data[0] % FZ_NDECODERS, par = data[1];
  const uint8_t *b = data + 2;
  size_t len = size - 2;
  unsigned char out[FARM_PAYLOAD_HEAD > FARM_ENVELOPE ? FARM_PAYLOAD_HEAD : FARM_ENVELOPE];
  size_t n;
  int rc;
  switch (dec) {
  case FZ_ENVELOPE: {
    farm_envelope e = {.body_len = 12345};
    uint32_t run = par & 0x80 ? FZ_RUN + 1 : FZ_RUN;
    int tag = FZ_ENV_TAG(par);
    rc = farm_envelope_check(b, len, tag, run, &e);
    if (rc) {
      check_failed(rc);
      CHECK(e.body_len == 12345);
      break;
    }
    CHECK(len >= FARM_ENVELOPE && e.tag == tag && e.run == run);
    farm_envelope_put(out, &e);
    check_same(out, FARM_ENVELOPE, b, FARM_ENVELOPE);
    break;
  }
  case FZ_SETUP: setup(b, len); break;
  case FZ_TASKS: tasks(b, len, par); break;
  case FZ_ORDER: {
    farm_order o;
    uint32_t nh = fz_hosts(par);
    rc = farm_order_decode(b, len, nh, &o);
    if (rc) {
      check_failed(rc);
      break;
    }
    CHECK(o.dst < nh && o.count >= 0);
    CHECK(farm_order_encode(&o, out, sizeof out, &n) == LB_SUCCESS);
    check_same(out, n, b, len);
    break;
  }
  case FZ_REPORT: report(b, len, fz_hosts(par)); break;
  case FZ_SUM_REQ: {
    int32_t *v = (int32_t *)1;
    uint32_t k;
    rc = farm_sum_req_decode(b, len, &v, &k);
    if (rc) {
      check_failed(rc);
      CHECK(!v);
      break;
    }
    unsigned char *buf;
    CHECK(farm_sum_req_encode(v, k, &buf, &n) == LB_SUCCESS);
    check_same(buf, n, b, len);
    free(buf);
    free(v);
    break;
  }
  case FZ_SUM_REP: {
    int64_t k, sum;
    rc = farm_sum_rep_decode(b, len, &k, &sum);
    if (rc) {
      check_failed(rc);
      break;
    }
    CHECK(farm_sum_rep_encode(k, sum, out, sizeof out, &n) == LB_SUCCESS);
    check_same(out, n, b, len);
    break;
  }
  case FZ_PAYLOAD_HEAD: {
    farm_payload_head h;
    uint32_t nh = fz_hosts(par);
    rc = farm_payload_head_get(b, len, nh, &h);
    if (rc) {
      check_failed(rc);
      break;
    }
    CHECK(h.origin < nh && h.exec < nh && h.len >= 1 && h.len <= (uint64_t)1 << 34);
    farm_payload_head_put(out, &h);
    check_same(out, FARM_PAYLOAD_HEAD, b, len);
    break;
  }
  case FZ_AUTH: auth(b, len, par); break;
  case FZ_CLOCK: {
    farm_clock c;
    unsigned char cb[FARM_CLOCK_MAX];
    rc = farm_clock_decode(b, len, &c);
    if (rc) {
      check_failed(rc);
      break;
    }
    CHECK((c.reply == 0 || c.reply == 1) && isfinite(c.master) && isfinite(c.node) && isfinite(c.mono));
    CHECK(!c.boot[0] || strlen(c.boot) == FARM_BOOT_ID_LEN);
    CHECK(farm_clock_encode(&c, cb, sizeof cb, &n) == LB_SUCCESS);
    check_same(cb, n, b, len);
    break;
  }
  case FZ_BEAT: {
    farm_beat h;
    uint32_t nh = fz_hosts(par);
    rc = farm_beat_decode(b, len, nh, &h);
    if (rc) {
      check_failed(rc);
      break;
    }
    CHECK(h.me < nh && !(h.quanta >> 53) && !(h.units >> 62) && !(h.held >> 32));
    CHECK(farm_beat_encode(&h, out, sizeof out, &n) == LB_SUCCESS);
    check_same(out, n, b, len);
    break;
  }
  case FZ_JOURNAL: journal(b, len, par); break;
  }
  return 0;
}
