/* Fuzz target: the protocol codec, lb_codec_decode, as a worker runs it
 * on a received LBMSG body.  Byte 0 picks the node count, the limits and
 * whether the run matches (fuzz_sel.h); the rest is the message.  A
 * success must respect every limit (ids below the node count, counts,
 * processes, contexts, pairs, finite reals) and encode back to the very
 * same bytes, also from a copy; a failure must be LB_EFORMAT (or
 * LB_ENOMEM) with a message and no message out. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include "lb_codec.h"
#include "lb_errno.h"
#include "fuzz_check.h"
#include "fuzz_sel.h"

static void limits(unsigned sel, lb_codec_limits *l)
{
  lb_codec_limits_default(l, fz_nodes(sel));
  switch (FZ_LIMITS(sel)) {
  case FZ_LIM_TIGHT:
    l->max_procs = 3;
    l->max_ctx = 64;
    l->max_pairs = l->nodes < 4 ? l->nodes : 4;
    l->max_count = 1000;
    break;
  case FZ_LIM_NO_CTX: l->max_ctx = 0; break;
  case FZ_LIM_NO_COUNT: l->max_count = 0; break;
  default: break;
  }
}

static int node_in(const lb_codec_limits *l, size_t v) { return v < l->nodes && v < 0xFFFFFFFFu; }
static int count_in(const lb_codec_limits *l, long v) { return v >= 0 && v <= l->max_count; }

/* What a decoded message promises its receiver. */
static void check_fields(const lb_msg *m, const lb_codec_limits *l)
{
  CHECK((unsigned)m->type < LB_MSG_NTYPES);
  CHECK(node_in(l, m->src) && node_in(l, m->dst));
  switch (m->type) {
  case LB_MSG_RM:
    CHECK(node_in(l, m->u.rm.hv) && count_in(l, m->u.rm.epn));
    CHECK(isfinite(m->u.rm.lease) && m->u.rm.lease >= 0);
    break;
  case LB_MSG_AM: CHECK(node_in(l, m->u.am.hv) && node_in(l, m->u.am.lv) && count_in(l, m->u.am.ipn)); break;
  case LB_MSG_CM:
    CHECK(node_in(l, m->u.cm.hv) && node_in(l, m->u.cm.lv) && count_in(l, m->u.cm.depn));
    CHECK(m->u.cm.aor == 0 || m->u.cm.aor == 1);
    break;
  case LB_MSG_LMM:
    CHECK(node_in(l, m->u.lmm.hv) && node_in(l, m->u.lmm.lv) && count_in(l, m->u.lmm.total));
    CHECK(m->u.lmm.fon == 0 || m->u.lmm.fon == 1);
    break;
  case LB_MSG_DRM: CHECK(node_in(l, m->u.drm.hv) && node_in(l, m->u.drm.lv)); break;
  case LB_MSG_REPLY: CHECK(count_in(l, m->u.reply.q)); break;
  case LB_MSG_TRANSFER: CHECK(count_in(l, m->u.transfer.ordered)); break;
  case LB_MSG_LOAD: CHECK(count_in(l, m->u.load.q)); break;
  case LB_MSG_INSTR: CHECK(count_in(l, m->u.instr.min)); break;
  case LB_MSG_REPORT:
    CHECK(count_in(l, m->u.report.q) && count_in(l, m->u.report.in) && count_in(l, m->u.report.out));
    CHECK(isfinite(m->u.report.speed) && m->u.report.speed > 0);
    break;
  default: break;
  }
  CHECK(m->nproc <= l->max_procs && (m->nproc == 0 || lb_msg_type_has_procs(m->type)));
  for (size_t k = 0; k < m->nproc; k++) {
    const lb_proc *p = m->procs[k];
    CHECK(node_in(l, p->origin) && p->ctx_len <= l->max_ctx);
    CHECK(isfinite(p->work) && p->work >= 0);
  }
  CHECK(m->npair <= l->max_pairs && (m->npair == 0 || m->type == LB_MSG_ORDER));
  for (size_t k = 0; k < m->npair; k++) CHECK(node_in(l, m->pairs[k].node) && count_in(l, m->pairs[k].count));
  if (lb_msg_type_has_result(m->type)) CHECK(node_in(l, m->res.origin) && m->res.len <= (uint64_t)1 << 40);
}

static void check_encodes_to(const lb_msg *m, const uint8_t *want, size_t len)
{
  unsigned char *buf;
  size_t n;
  CHECK(lb_codec_encode_alloc(m, FZ_RUN, &buf, &n) == LB_SUCCESS);
  CHECK(n == len && lb_codec_size(m) == len && !memcmp(buf, want, len));
  CHECK(lb_msg_size(m) >= len);
  free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  if (size < 1) return 0;
  unsigned sel = data[0];
  lb_codec_limits l;
  limits(sel, &l);
  const uint8_t *msg = data + 1;
  size_t len = size - 1;
  lb_msg *m = (lb_msg *)1;
  int rc = lb_codec_decode(msg, len, sel & FZ_OTHER_RUN ? FZ_RUN + 1 : FZ_RUN, &l, &m);
  if (rc) {
    CHECK(rc == LB_EFORMAT || rc == LB_ENOMEM);
    CHECK(m == NULL && lb_errmsg()[0] != '\0');
    return 0;
  }
  CHECK(!(sel & FZ_OTHER_RUN));
  check_fields(m, &l);
  check_encodes_to(m, msg, len);
  lb_msg *c;
  CHECK(lb_msg_copy(m, &c) == LB_SUCCESS);
  check_encodes_to(c, msg, len);
  lb_msg_free(c);
  lb_msg_free(m);
  return 0;
}
