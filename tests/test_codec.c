/* The message codec: every type round-trips field for field and byte
 * for byte; damaged input (truncated, wrong length, unknown type, wrong
 * version or run, ids and counts out of range, non-finite reals,
 * oversized claims, every single-byte change) gives LB_EFORMAT with a
 * message, never a crash; no pvmd anywhere. */
#include "testutil.h"
#include "lb_codec.h"
#include "lb_wire.h"
#include "lb_errno.h"

#define RUN   0x1234abcdu
#define NODES 16

static lb_codec_limits lim;

static lb_proc *proc(uint64_t id, size_t len)
{
  unsigned char ctx[64];
  for (size_t k = 0; k < len; k++) ctx[k] = (unsigned char)(id * 31 + k);
  lb_proc *p;
  assert_int_equal(lb_proc_alloc(id, id % NODES, 0.5 + (double)id, ctx, len, &p), LB_SUCCESS);
  p->quanta = (uint32_t)id * 3;
  p->est = 1.25f + (float)id;
  p->ran = 0.75f;
  p->hops = (uint32_t)id + 1;
  return p;
}

/* One message of type t with every field it has set to something
 * distinct. */
static lb_msg *sample(lb_msg_type t)
{
  lb_msg *m;
  assert_int_equal(lb_msg_alloc(t, 3, 11, &m), LB_SUCCESS);
  switch (t) {
  case LB_MSG_RM:
    m->u.rm.hv = 5;
    m->u.rm.epn = 7;
    m->u.rm.round = 1ull << 40;
    m->u.rm.lease = 0.125;
    break;
  case LB_MSG_AM:
    m->u.am.hv = 5;
    m->u.am.lv = 9;
    m->u.am.tag = 77;
    m->u.am.ipn = 3;
    m->u.am.hops = 4;
    break;
  case LB_MSG_CM:
    m->u.cm.hv = 5;
    m->u.cm.lv = 9;
    m->u.cm.tag = 77;
    m->u.cm.aor = 1;
    m->u.cm.depn = 2;
    break;
  case LB_MSG_LMM:
    m->u.lmm.hv = 5;
    m->u.lmm.lv = 9;
    m->u.lmm.tag = 78;
    m->u.lmm.fon = 1;
    m->u.lmm.total = 2;
    break;
  case LB_MSG_DRM:
    m->u.drm.hv = 5;
    m->u.drm.lv = 9;
    m->u.drm.tag = 79;
    m->u.drm.fon = 1;
    break;
  case LB_MSG_ABORT:
    m->u.abort.hv = 5;
    m->u.abort.lv = 9;
    m->u.abort.tag = 80;
    break;
  case LB_MSG_PROBE: m->u.probe.round = 12; break;
  case LB_MSG_REPLY:
    m->u.reply.round = 12;
    m->u.reply.q = 40;
    break;
  case LB_MSG_TRANSFER:
    m->u.transfer.ordered = 6;
    m->u.transfer.epoch = 2;
    break;
  case LB_MSG_LOAD: m->u.load.q = 17; break;
  case LB_MSG_INSTR: m->u.instr.min = 2; break;
  case LB_MSG_REPORT:
    m->u.report.q = 8;
    m->u.report.speed = 0.3;
    m->u.report.in = 4;
    m->u.report.out = 5;
    m->u.report.epoch = 1;
    break;
  case LB_MSG_ORDER:
    m->u.order.epoch = 3;
    assert_int_equal(lb_msg_add_pair(m, 1, 4), LB_SUCCESS);
    assert_int_equal(lb_msg_add_pair(m, 15, 1), LB_SUCCESS);
    break;
  default: break;
  }
  if (lb_msg_type_has_procs(t)) {
    assert_int_equal(lb_msg_add_proc(m, proc(100, 0)), LB_SUCCESS);
    assert_int_equal(lb_msg_add_proc(m, proc(101, 40)), LB_SUCCESS);
  }
  if (lb_msg_type_has_result(t)) m->res = (lb_result_ref){1ull << 35, 14, 123456, 1};
  return m;
}

static void assert_proc_equal(const lb_proc *a, const lb_proc *b)
{
  assert_int_equal(a->id, b->id);
  assert_int_equal(a->origin, b->origin);
  assert_true(a->work == b->work);
  assert_int_equal(a->quanta, b->quanta);
  assert_true(a->est == b->est && a->ran == b->ran);
  assert_int_equal(a->hops, b->hops);
  assert_int_equal(a->ctx_len, b->ctx_len);
  if (a->ctx_len) assert_memory_equal(a->ctx, b->ctx, a->ctx_len);
}

static void assert_msg_equal(const lb_msg *a, const lb_msg *b)
{
  assert_int_equal(a->type, b->type);
  assert_int_equal(a->src, b->src);
  assert_int_equal(a->dst, b->dst);
  assert_int_equal(a->hop_src, b->hop_src);
  assert_int_equal(a->hop_dst, b->hop_dst);
  assert_memory_equal(&a->u, &b->u, sizeof a->u);
  assert_int_equal(a->nproc, b->nproc);
  for (size_t k = 0; k < a->nproc; k++) assert_proc_equal(a->procs[k], b->procs[k]);
  assert_int_equal(a->npair, b->npair);
  for (size_t k = 0; k < a->npair; k++) {
    assert_int_equal(a->pairs[k].node, b->pairs[k].node);
    assert_int_equal(a->pairs[k].count, b->pairs[k].count);
  }
  assert_memory_equal(&a->res, &b->res, sizeof a->res);
}

static void test_round_trip(void **state)
{
  (void)state;
  for (int t = 0; t < LB_MSG_NTYPES; t++) {
    lb_msg *m = sample((lb_msg_type)t), *d;
    unsigned char *buf, *again;
    size_t len, len2;
    assert_int_equal(lb_codec_encode_alloc(m, RUN, &buf, &len), LB_SUCCESS);
    assert_int_equal(len, lb_codec_size(m));
    lb_msg_type pt;
    uint32_t prun;
    assert_int_equal(lb_codec_peek(buf, len, &pt, &prun), LB_SUCCESS);
    assert_int_equal(pt, t);
    assert_int_equal(prun, RUN);
    if (lb_codec_decode(buf, len, RUN, &lim, &d)) fail_msg("%s: %s", lb_msg_type_name(m->type), lb_errmsg());
    assert_msg_equal(m, d);
    assert_int_equal(lb_codec_encode_alloc(d, RUN, &again, &len2), LB_SUCCESS);
    assert_int_equal(len2, len);
    assert_memory_equal(buf, again, len);
    /* Too small a buffer is refused, not overrun. */
    unsigned char small[8];
    assert_int_equal(lb_codec_encode(m, RUN, small, sizeof small, &len2), LB_ERANGE);
    free(buf);
    free(again);
    lb_msg_free(m);
    lb_msg_free(d);
  }
}

/* The bytes of a known message, to check the layout stays put. */
static void test_layout(void **state)
{
  (void)state;
  lb_msg *m;
  assert_int_equal(lb_msg_alloc(LB_MSG_LOAD, 1, 2, &m), LB_SUCCESS);
  m->u.load.q = 258;
  unsigned char buf[64];
  size_t len;
  assert_int_equal(lb_codec_encode(m, 7, buf, sizeof buf, &len), LB_SUCCESS);
  static const unsigned char want[] = {'L', 'B',         'M', '1', LB_CODEC_VERSION,
                                       0,   LB_MSG_LOAD, 0,   7,   0,
                                       0,   0,           1,   0,   0,
                                       0,   2,           0,   0,   0,
                                       1,   0,           0,   0,   2,
                                       0,   0,           0,   8,   0,
                                       0,   0,           2,   1,   0,
                                       0,   0,           0,   0,   0};
  assert_int_equal(len, sizeof want);
  assert_memory_equal(buf, want, sizeof want);
  lb_msg_free(m);
}

static void expect_bad(const unsigned char *buf, size_t len, uint32_t run, const char *needle)
{
  lb_msg *d = (lb_msg *)1;
  int rc = lb_codec_decode(buf, len, run, &lim, &d);
  if (rc != LB_EFORMAT) fail_msg("decoded (rc %d) where '%s' was expected", rc, needle);
  assert_null(d);
  if (needle && !strstr(lb_errmsg(), needle)) fail_msg("message '%s' lacks '%s'", lb_errmsg(), needle);
}

static unsigned char *encode(const lb_msg *m, size_t *len)
{
  unsigned char *buf;
  assert_int_equal(lb_codec_encode_alloc(m, RUN, &buf, len), LB_SUCCESS);
  return buf;
}

static void put_u32(unsigned char *b, uint32_t v)
{
  lb_wbuf w = {b, 4, 0};
  lb_w_u32(&w, v);
}

static void test_damaged_header(void **state)
{
  (void)state;
  lb_msg *m = sample(LB_MSG_LMM);
  size_t len;
  unsigned char *buf = encode(m, &len);
  /* every truncation */
  for (size_t k = 0; k < len; k++) expect_bad(buf, k, RUN, NULL);
  expect_bad(NULL, 0, RUN, "shorter than a header");
  expect_bad(buf, len, RUN + 1, "of run");
  unsigned char *c = malloc(len + 1);
  memcpy(c, buf, len);
  c[0] ^= 1;
  expect_bad(c, len, RUN, "not a protocol message");
  memcpy(c, buf, len);
  c[4] = LB_CODEC_VERSION - 1; /* the previous version's processes lack est and ran */
  expect_bad(c, len, RUN, "version 1");
  memcpy(c, buf, len);
  c[6] = LB_MSG_NTYPES;
  expect_bad(c, len, RUN, "unknown message type");
  memcpy(c, buf, len);
  put_u32(c + 28, (uint32_t)(len - LB_CODEC_HEADER + 1));
  expect_bad(c, len, RUN, "length in the header");
  memcpy(c, buf, len);
  c[len] = 0; /* one byte too many, header updated to match */
  put_u32(c + 28, (uint32_t)(len + 1 - LB_CODEC_HEADER));
  expect_bad(c, len + 1, RUN, "left over");
  memcpy(c, buf, len);
  put_u32(c + 12, NODES); /* src out of range */
  expect_bad(c, len, RUN, "node id out of range");
  free(c);
  free(buf);
  lb_msg_free(m);
}

/* Body fields out of range, one at a time, at their known offsets. */
static void test_damaged_body(void **state)
{
  (void)state;
  size_t len;
  lb_msg *m = sample(LB_MSG_RM);
  unsigned char *buf = encode(m, &len);
  unsigned char *c = malloc(len);
  /* RM: hv at 32, epn at 36, round at 44, lease at 52 */
  memcpy(c, buf, len);
  memset(c + 36, 0xff, 8); /* EPN -1 */
  expect_bad(c, len, RUN, "count out of range");
  memcpy(c, buf, len);
  double nan = NAN;
  memcpy(c + 52, &nan, 8);
  expect_bad(c, len, RUN, "not finite");
  memcpy(c, buf, len);
  put_u32(c + 32, 0xFFFFFFFFu); /* no HV */
  expect_bad(c, len, RUN, "node id out of range");
  free(c);
  free(buf);
  lb_msg_free(m);
  /* CM: the AOR flag at 48 must be 0 or 1 */
  m = sample(LB_MSG_CM);
  buf = encode(m, &len);
  buf[48] = 2;
  expect_bad(buf, len, RUN, "flag");
  free(buf);
  lb_msg_free(m);
  /* TRANSFER: a process count the message cannot hold is refused
   * before anything is allocated; a context longer than the message too. */
  m = sample(LB_MSG_TRANSFER);
  buf = encode(m, &len);
  put_u32(buf + 44, 0x7fffffffu);
  expect_bad(buf, len, RUN, "too many processes");
  free(buf);
  buf = encode(m, &len);
  /* the first process's context length: after ordered (8), count (4),
   * id 8, origin 4, work 8, quanta 4, hops 4, est 8, ran 8; epoch 4
   * after ordered */
  put_u32(buf + 32 + 8 + 4 + 4 + 8 + 4 + 8 + 4 + 4 + 8 + 8, 0x10000);
  expect_bad(buf, len, RUN, "context longer");
  free(buf);
  lb_msg_free(m);
  /* ORDER: more pairs than nodes (after the epoch) */
  m = sample(LB_MSG_ORDER);
  buf = encode(m, &len);
  put_u32(buf + 36, NODES + 1);
  expect_bad(buf, len, RUN, "too many pairs");
  free(buf);
  lb_msg_free(m);
  /* A speed of 0 in a REPORT (offset 40) */
  m = sample(LB_MSG_REPORT);
  buf = encode(m, &len);
  memset(buf + 40, 0, 8);
  expect_bad(buf, len, RUN, NULL);
  free(buf);
  lb_msg_free(m);
}

/* Every single-byte change of every type either decodes to a message
 * that encodes back to the changed bytes, or is refused: never a crash,
 * never a half-built message. */
static void test_every_byte(void **state)
{
  (void)state;
  for (int t = 0; t < LB_MSG_NTYPES; t++) {
    lb_msg *m = sample((lb_msg_type)t);
    size_t len;
    unsigned char *buf = encode(m, &len);
    static const unsigned char flips[] = {0x01, 0x80, 0xff};
    for (size_t k = 0; k < len; k++)
      for (size_t f = 0; f < sizeof flips; f++) {
        buf[k] ^= flips[f];
        lb_msg *d;
        if (lb_codec_decode(buf, len, RUN, &lim, &d) == LB_SUCCESS) {
          unsigned char *again;
          size_t len2;
          assert_int_equal(lb_codec_encode_alloc(d, RUN, &again, &len2), LB_SUCCESS);
          assert_int_equal(len2, len);
          assert_memory_equal(again, buf, len);
          free(again);
          lb_msg_free(d);
        } else {
          assert_true(lb_errmsg()[0] != '\0');
        }
        buf[k] ^= flips[f];
      }
    free(buf);
    lb_msg_free(m);
  }
}

/* Values the wire cannot carry are refused by the encoder. */
static void test_unencodable(void **state)
{
  (void)state;
  lb_msg *m;
  assert_int_equal(lb_msg_alloc(LB_MSG_LOAD, (size_t)1 << 33, 1, &m), LB_SUCCESS);
  size_t len;
  unsigned char buf[64];
  assert_int_equal(lb_codec_encode(m, RUN, buf, sizeof buf, &len), LB_ERANGE);
  lb_msg_free(m);
}

static int setup(void **state)
{
  (void)state;
  lb_codec_limits_default(&lim, NODES);
  return 0;
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_round_trip),   cmocka_unit_test(test_layout),     cmocka_unit_test(test_damaged_header),
      cmocka_unit_test(test_damaged_body), cmocka_unit_test(test_every_byte), cmocka_unit_test(test_unencodable),
  };
  return cmocka_run_group_tests(tests, setup, NULL);
}
