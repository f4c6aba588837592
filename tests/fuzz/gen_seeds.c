/* gen_seeds: the seed corpora and the hand-made regression inputs of the
 * message targets (lb_codec, farm_wire, app_task, app_result), written by
 * the real encoders: valid messages of every kind into corpus/NAME/, and
 * into regress/NAME/ the same messages with one field out of range (ids
 * at and beyond the node count and 2^32-1, negative and huge counts,
 * NaN, infinities and 1e308 where a double is read, sizes that overflow);
 * and for lb_node, event scripts with a message of every type.
 * The output is a pure function of this file; tests/fuzz/gen_seeds.sh
 * builds and runs it.
 *
 * Usage: gen_seeds DIR   (writes DIR/corpus/NAME/ and DIR/regress/NAME/) */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "lb_codec.h"
#include "farm_journal.h"
#include "lb_wire.h"
#include "lb_errno.h"
#include "lb_node.h"
#include "lb_param.h"
#include "farm_wire.h"
#include "farm_auth.h"
#include "farm_throttle.h"
#include "app_impl.h"
#include "fuzz_sel.h"

static const char *top;

static void die(const char *what)
{
  fprintf(stderr, "gen_seeds: %s: %s\n", what, lb_errmsg()[0] ? lb_errmsg() : strerror(errno));
  exit(1);
}

static void mkdirs(const char *kind, const char *name)
{
  char p[4096];
  snprintf(p, sizeof p, "%s/%s", top, kind);
  mkdir(p, 0777);
  snprintf(p, sizeof p, "%s/%s/%s", top, kind, name);
  if (mkdir(p, 0777) && errno != EEXIST) die(p);
}

/* Write pre[0..npre-1] then b[0..n-1] to DIR/KIND/TARGET/FILE. */
static void put(const char *kind, const char *target, const char *file, const void *pre, size_t npre, const void *b,
                size_t n)
{
  char p[4096];
  mkdirs(kind, target);
  snprintf(p, sizeof p, "%s/%s/%s/%s", top, kind, target, file);
  FILE *f = fopen(p, "wb");
  if (!f || fwrite(pre, 1, npre, f) != npre || fwrite(b, 1, n, f) != n || fclose(f)) die(p);
}

static void p32(unsigned char *b, size_t off, uint32_t v)
{
  lb_wbuf w = {b + off, 4, 0};
  lb_w_u32(&w, v);
}
static void p64(unsigned char *b, size_t off, uint64_t v)
{
  lb_wbuf w = {b + off, 8, 0};
  lb_w_u64(&w, v);
}
static void pf64(unsigned char *b, size_t off, double v)
{
  lb_wbuf w = {b + off, 8, 0};
  lb_w_f64(&w, v);
}
static uint64_t g64(const unsigned char *b, size_t off)
{
  lb_rbuf r = {b + off, 8, 0, 0};
  return lb_r_u64(&r);
}

/* ---- lb_codec ---- */
static lb_proc *proc(uint64_t id, size_t len)
{
  unsigned char ctx[64];
  for (size_t k = 0; k < len; k++) ctx[k] = (unsigned char)(id * 31 + k);
  lb_proc *p;
  if (lb_proc_alloc(id, id % 16, 0.5 + (double)id, ctx, len, &p)) die("process");
  p->quanta = (uint32_t)id * 3;
  p->hops = (uint32_t)id + 1;
  p->est = 0.5f + (float)id;
  p->ran = 0.25f * (float)id;
  return p;
}

/* A message of type t, every field distinct, between nodes 3 and 11. */
static lb_msg *sample(lb_msg_type t)
{
  lb_msg *m;
  if (lb_msg_alloc(t, 3, 11, &m)) die("message");
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
  case LB_MSG_PROBE: m->u.probe.round = 12; break;
  case LB_MSG_REPLY:
    m->u.reply.round = 12;
    m->u.reply.q = 40;
    break;
  case LB_MSG_TRANSFER: m->u.transfer.ordered = 6; break;
  case LB_MSG_LOAD: m->u.load.q = 17; break;
  case LB_MSG_INSTR: m->u.instr.min = 2; break;
  case LB_MSG_REPORT:
    m->u.report.q = 8;
    m->u.report.speed = 0.3;
    m->u.report.in = 4;
    m->u.report.out = 5;
    break;
  case LB_MSG_ORDER:
    if (lb_msg_add_pair(m, 1, 4) || lb_msg_add_pair(m, 15, 1)) die("pair");
    break;
  default: break;
  }
  if (lb_msg_type_has_procs(t) && (lb_msg_add_proc(m, proc(100, 0)) || lb_msg_add_proc(m, proc(101, 40))))
    die("process");
  if (lb_msg_type_has_result(t)) m->res = (lb_result_ref){1ull << 35, 14, 123456, 1};
  return m;
}

/* Write m (encoded, then patched by the caller when `patch` is set). */
static void codec_put(const char *kind, const char *file, lb_msg *m, void (*patch)(unsigned char *, size_t))
{
  unsigned char *b;
  size_t n;
  if (lb_codec_encode_alloc(m, FZ_RUN, &b, &n)) die(file);
  if (patch) patch(b, n);
  unsigned char sel = FZ_CODEC_SEL;
  put(kind, "lb_codec", file, &sel, 1, b, n);
  free(b);
  lb_msg_free(m);
}

/* The first process's est (1.25, set by the caller) becomes 0.1, a
 * double that no float equals. */
static void est_double(unsigned char *b, size_t n)
{
  unsigned char want[8], to[8];
  pf64(want, 0, 1.25);
  pf64(to, 0, 0.1);
  for (size_t k = 0; k + 8 <= n; k++)
    if (!memcmp(b + k, want, 8)) {
      memcpy(b + k, to, 8);
      return;
    }
  die("est_double: no 1.25 in the message");
}

static void nproc_huge(unsigned char *b, size_t n)
{
  (void)n;
  p32(b, 24 + 8, 0xFFFFFFFFu);
} /* TRANSFER */
static void npair_huge(unsigned char *b, size_t n)
{
  (void)n;
  p32(b, 24, 0xFFFFFFFFu);
} /* ORDER */

static void gen_codec(void)
{
  for (int t = 0; t < LB_MSG_NTYPES; t++) {
    char f[64];
    snprintf(f, sizeof f, "%s", lb_msg_type_name((lb_msg_type)t));
    codec_put("corpus", f, sample((lb_msg_type)t), NULL);
  }
  const char *R = "regress";
  lb_msg *m;
  /* node ids: at the node count (16), beyond it, 2^32-2, and 2^32-1
   * (none, where a node is required) */
  m = sample(LB_MSG_RM);
  m->u.rm.hv = 16;
  codec_put(R, "rm-hv-at-node-count", m, NULL);
  m = sample(LB_MSG_RM);
  m->u.rm.hv = 1000;
  codec_put(R, "rm-hv-beyond-node-count", m, NULL);
  m = sample(LB_MSG_RM);
  m->u.rm.hv = LB_NO_NODE;
  codec_put(R, "rm-hv-2p32-1", m, NULL);
  m = sample(LB_MSG_LOAD);
  m->src = 16;
  codec_put(R, "src-at-node-count", m, NULL);
  m = sample(LB_MSG_LOAD);
  m->dst = LB_NO_NODE;
  codec_put(R, "dst-2p32-1", m, NULL);
  m = sample(LB_MSG_AM);
  m->u.am.lv = 0xFFFFFFFEu;
  codec_put(R, "am-lv-2p32-2", m, NULL);
  m = sample(LB_MSG_ORDER);
  m->pairs[1].node = 16;
  codec_put(R, "order-node-at-node-count", m, NULL);
  m = sample(LB_MSG_ORDER);
  m->pairs[0].node = LB_NO_NODE;
  codec_put(R, "order-node-2p32-1", m, NULL);
  m = sample(LB_MSG_LMM);
  m->procs[1]->origin = LB_NO_NODE;
  codec_put(R, "lmm-proc-origin-2p32-1", m, NULL);
  m = sample(LB_MSG_DRM);
  m->res.origin = 16;
  codec_put(R, "drm-result-origin-at-node-count", m, NULL);
  /* counts: negative, the most negative, beyond 2^40, the largest */
  m = sample(LB_MSG_RM);
  m->u.rm.epn = -1;
  codec_put(R, "rm-epn-negative", m, NULL);
  m = sample(LB_MSG_RM);
  m->u.rm.epn = INT64_MIN;
  codec_put(R, "rm-epn-int64-min", m, NULL);
  m = sample(LB_MSG_AM);
  m->u.am.ipn = (1L << 40) + 1;
  codec_put(R, "am-ipn-huge", m, NULL);
  m = sample(LB_MSG_REPLY);
  m->u.reply.q = INT64_MAX;
  codec_put(R, "reply-q-int64-max", m, NULL);
  m = sample(LB_MSG_REPLY);
  m->u.reply.q = 1L << 31;
  codec_put(R, "reply-q-2p31", m, NULL);
  m = sample(LB_MSG_LMM);
  m->u.lmm.total = -5;
  codec_put(R, "lmm-total-negative", m, NULL);
  m = sample(LB_MSG_ORDER);
  m->pairs[0].count = -1;
  codec_put(R, "order-count-negative", m, NULL);
  m = sample(LB_MSG_ORDER);
  m->pairs[0].count = INT64_MAX;
  codec_put(R, "order-count-huge", m, NULL);
  m = sample(LB_MSG_REPORT);
  m->u.report.out = INT64_MIN;
  codec_put(R, "report-out-int64-min", m, NULL);
  m = sample(LB_MSG_TRANSFER);
  m->u.transfer.ordered = -1;
  codec_put(R, "transfer-ordered-negative", m, NULL);
  m = sample(LB_MSG_TRANSFER);
  codec_put(R, "transfer-nproc-2p32-1", m, nproc_huge);
  m = sample(LB_MSG_ORDER);
  codec_put(R, "order-npair-2p32-1", m, npair_huge);
  m = sample(LB_MSG_DRM);
  m->res.len = (1ull << 40) + 1;
  codec_put(R, "drm-result-len-huge", m, NULL);
  /* doubles: the RM lease, the REPORT speed, a process's work */
  static const struct {
    const char *name;
    double v;
  } bad[] = {
      {"nan", NAN}, {"inf", INFINITY}, {"minus-inf", -INFINITY}, {"1e308", 1e308}, {"negative", -1},
  };
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    char f[64];
    snprintf(f, sizeof f, "rm-lease-%s", bad[k].name);
    m = sample(LB_MSG_RM);
    m->u.rm.lease = bad[k].v;
    codec_put(R, f, m, NULL);
    snprintf(f, sizeof f, "report-speed-%s", bad[k].name);
    m = sample(LB_MSG_REPORT);
    m->u.report.speed = bad[k].v;
    codec_put(R, f, m, NULL);
    snprintf(f, sizeof f, "lmm-work-%s", bad[k].name);
    m = sample(LB_MSG_LMM);
    m->procs[0]->work = bad[k].v;
    codec_put(R, f, m, NULL);
  }
  m = sample(LB_MSG_REPORT);
  m->u.report.speed = 0;
  codec_put(R, "report-speed-0", m, NULL);
  m = sample(LB_MSG_REPORT);
  m->u.report.speed = 1e-310;
  codec_put(R, "report-speed-subnormal", m, NULL);
  m = sample(LB_MSG_TRANSFER);
  m->procs[1]->work = 1e300;
  codec_put(R, "transfer-work-1e300", m, NULL);
  /* a process's declared estimate and work run: floats on the wire as doubles */
  m = sample(LB_MSG_LMM);
  m->procs[0]->est = NAN;
  codec_put(R, "lmm-est-nan", m, NULL);
  m = sample(LB_MSG_LMM);
  m->procs[0]->est = -1;
  codec_put(R, "lmm-est-negative", m, NULL);
  m = sample(LB_MSG_LMM);
  m->procs[1]->ran = INFINITY;
  codec_put(R, "lmm-ran-inf", m, NULL);
  m = sample(LB_MSG_TRANSFER);
  m->procs[0]->est = 1.25f;
  codec_put(R, "transfer-est-not-single", m, est_double);
}

/* ---- farm_wire ---- */
static void wire_put(const char *kind, const char *file, unsigned dec, unsigned par, const void *b, size_t n)
{
  unsigned char pre[2] = {(unsigned char)dec, (unsigned char)par};
  put(kind, "farm_wire", file, pre, 2, b, n);
}

/* A SETUP as lbmaster sends it to host 1 of a ring of `hosts`. */
static farm_setup setup_sample(lb_policy pol, uint32_t hosts, lb_topo **topo)
{
  farm_setup s = {.me = 1,
                  .nhosts = hosts,
                  .policy = pol,
                  .throttle = FARM_THROTTLE_OFF,
                  .trace = 1,
                  .quantum_s = 0.01,
                  .t0 = 1.7e9};
  s.w = (app_workload){APP_PRIMES, 200000, 4 * hosts, 5};
  fz_key(s.key);
  if (lb_topo_ring(hosts, topo)) die("ring");
  lb_node_params_default(&s.par);
  s.par.hop_time = 0.002;
  s.par.dasud.period = s.par.cchspmd.period = s.par.diffusion.period = 0.05;
  if (lb_policy_prepare(pol, *topo, &s.par)) die("prepare");
  s.par.speed = 0.5;
  s.tids = malloc(hosts * sizeof *s.tids);
  s.nedges = (uint32_t)(*topo)->m;
  s.edges = malloc(((*topo)->m + 1) * sizeof *s.edges);
  if (!s.tids || !s.edges) die("setup");
  for (uint32_t i = 0; i < hosts; i++) s.tids[i] = 0x40001 + (int32_t)i;
  for (size_t k = 0; k < (*topo)->m; k++) {
    s.edges[k][0] = (uint32_t)(*topo)->edge[k][0];
    s.edges[k][1] = (uint32_t)(*topo)->edge[k][1];
  }
  return s;
}

static void setup_put(const char *kind, const char *file, farm_setup *s, lb_topo *t)
{
  unsigned char *b;
  size_t n;
  if (farm_setup_encode(s, &b, &n)) die(file);
  wire_put(kind, file, FZ_SETUP, 0, b, n);
  free(b);
  farm_setup_clear(s);
  lb_topo_free(t);
}

/* A SETUP with one little-endian field of `bytes` bytes at `off`
 * replaced (NEDGES: the edge count, a u32). */
#define NEDGES ((size_t)-1)
static void setup_patch_w(const char *file, size_t off, unsigned bytes, uint32_t v)
{
  lb_topo *t;
  farm_setup s = setup_sample(LB_POLICY_RMTLB, 3, &t);
  unsigned char *b;
  size_t n;
  if (farm_setup_encode(&s, &b, &n)) die(file);
  lb_wbuf w = {b + (off == NEDGES ? n - 8 * s.nedges - 4 : off), bytes, 0};
  lb_w_uint(&w, v, bytes);
  wire_put("regress", file, FZ_SETUP, 0, b, n);
  free(b);
  farm_setup_clear(&s);
  lb_topo_free(t);
}
static void setup_patch(const char *file, size_t off, uint32_t v) { setup_patch_w(file, off, 4, v); }

static void gen_setup(void)
{
  lb_topo *t;
  farm_setup s;
  for (int p = 0; p < LB_POLICY_COUNT; p++) {
    char f[64];
    snprintf(f, sizeof f, "setup-%s", lb_policy_name((lb_policy)p));
    s = setup_sample((lb_policy)p, p == LB_POLICY_CCHSPMD ? 6 : 3, &t);
    setup_put("corpus", f, &s, t);
  }
  const char *R = "regress";
  /* every real of a SETUP: NaN, infinite, 1e308 */
  static const struct {
    const char *name;
    double v;
  } bad[] = {
      {"nan", NAN},
      {"inf", INFINITY},
      {"1e308", 1e308},
  };
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    double v = bad[k].v;
    char f[64];
#define BAD_REAL(field)                                                                                                \
  do {                                                                                                                 \
    s = setup_sample(LB_POLICY_RMTLB, 3, &t);                                                                          \
    s.field = v;                                                                                                       \
    snprintf(f, sizeof f, "setup-%s-%s", #field, bad[k].name);                                                         \
    for (char *c = f; *c; c++)                                                                                         \
      if (*c == '.') *c = '-';                                                                                         \
    setup_put(R, f, &s, t);                                                                                            \
  } while (0)
    BAD_REAL(par.speed);
    BAD_REAL(par.hop_time);
    BAD_REAL(par.rmtlb.tmax);
    BAD_REAL(par.lowest.timeout);
    BAD_REAL(par.threshold);
    BAD_REAL(par.rmtlb.drain);
    BAD_REAL(par.rmtlb.work_mean);
    BAD_REAL(par.dasud.period);
    BAD_REAL(par.cchspmd.period);
    BAD_REAL(par.diffusion.period);
    BAD_REAL(par.diffusion.alpha);
    BAD_REAL(par.diffusion.beta);
    BAD_REAL(quantum_s);
    BAD_REAL(t0);
#undef BAD_REAL
  }
  s = setup_sample(LB_POLICY_RMTLB, 3, &t);
  s.t0 = -1;
  setup_put(R, "setup-t0-negative", &s, t);
  s = setup_sample(LB_POLICY_RMTLB, 3, &t);
  s.par.speed = 0;
  setup_put(R, "setup-speed-0", &s, t);
  s = setup_sample(LB_POLICY_RMTLB, 3, &t);
  s.par.capacity = -1;
  setup_put(R, "setup-capacity-negative", &s, t);
  s = setup_sample(LB_POLICY_RMTLB, 3, &t);
  s.par.cchspmd.controller = 3;
  setup_put(R, "setup-controller-at-host-count", &s, t);
  s = setup_sample(LB_POLICY_RMTLB, 3, &t);
  s.me = 3;
  setup_put(R, "setup-me-at-host-count", &s, t);
  s = setup_sample(LB_POLICY_RMTLB, 3, &t);
  s.policy = LB_POLICY_COUNT;
  setup_put(R, "setup-policy-unknown", &s, t);
  s = setup_sample(LB_POLICY_RMTLB, 3, &t);
  s.w.kind = (app_kind)3;
  setup_put(R, "setup-workload-kind-3", &s, t);
  s = setup_sample(LB_POLICY_RMTLB, 3, &t);
  s.w.size = 4000000001UL;
  setup_put(R, "setup-workload-size-huge", &s, t);
  s = setup_sample(LB_POLICY_RMTLB, 3, &t);
  s.w.nproc = 0;
  setup_put(R, "setup-workload-no-procs", &s, t);
  s = setup_sample(LB_POLICY_RMTLB, 3, &t);
  s.tids[2] = -5;
  setup_put(R, "setup-tid-negative", &s, t);
  s = setup_sample(LB_POLICY_RMTLB, 3, &t);
  s.edges[1][1] = 3;
  setup_put(R, "setup-edge-at-host-count", &s, t);
  s = setup_sample(LB_POLICY_RMTLB, 3, &t);
  s.edges[0][0] = 0xFFFFFFFFu;
  setup_put(R, "setup-edge-2p32-1", &s, t);
  s = setup_sample(LB_POLICY_RMTLB, 3, &t);
  s.par.rmtlb.backoff_max = 31;
  setup_put(R, "setup-backoff-31", &s, t);
  /* the parameters, each through the table's range (lb_param.c) */
  s = setup_sample(LB_POLICY_RMTLB, 3, &t);
  s.par.rmtlb.estimate = (lb_rmtlb_estimate)3;
  setup_put(R, "setup-estimate-3", &s, t);
  s = setup_sample(LB_POLICY_RMTLB, 3, &t);
  s.par.rmtlb.drain = -1;
  setup_put(R, "setup-drain-negative", &s, t);
  s = setup_sample(LB_POLICY_RMTLB, 3, &t);
  s.par.hop_time = 0;
  setup_put(R, "setup-hop-time-0", &s, t);
  s = setup_sample(LB_POLICY_LOWEST, 3, &t);
  s.par.lowest.probes = 0;
  setup_put(R, "setup-probes-0", &s, t);
  s = setup_sample(LB_POLICY_LOWEST, 3, &t);
  s.par.lowest.backoff_max = 31;
  setup_put(R, "setup-lowest-backoff-31", &s, t);
  s = setup_sample(LB_POLICY_DIFFUSION2, 3, &t);
  s.par.diffusion.beta = 2;
  setup_put(R, "setup-beta-2", &s, t);
  s = setup_sample(LB_POLICY_RMTLB, 3, &t);
  s.par.results = (lb_results)2;
  setup_put(R, "setup-results-2", &s, t);
  s = setup_sample(LB_POLICY_RMTLB, 3, &t);
  s.par.threshold_ceil = 2;
  setup_put(R, "setup-threshold-ceil-2", &s, t);
  s = setup_sample(LB_POLICY_RMTLB, 3, &t);
  s.par.seed = 1ul << 33;
  setup_put(R, "setup-seed-2p33", &s, t);
  /* the parameter list: one fewer, a name not this build's */
  /* (after the key, host, hosts, policy and speed: the u16 count at
   * 32 + 20, the first name's length at 32 + 22 and its first letter at
   * 32 + 23) */
  setup_patch_w("setup-params-one-fewer", FARM_KEY_LEN + 20, 2, (uint32_t)lb_param_count() - 1);
  setup_patch_w("setup-param-name-other", FARM_KEY_LEN + 23, 1, 'k');
  /* the host count: none, one too many, 2^32-1; the edge count 2^32-1 */
  setup_patch("setup-nhosts-0", FARM_KEY_LEN + 4, 0);
  setup_patch("setup-nhosts-4097", FARM_KEY_LEN + 4, FARM_MAX_HOSTS + 1);
  setup_patch("setup-nhosts-2p32-1", FARM_KEY_LEN + 4, 0xFFFFFFFFu);
  setup_patch("setup-nedges-2p32-1", NEDGES, 0xFFFFFFFFu);
  setup_patch("setup-nedges-2p30", NEDGES, 0x40000000u);
}

static unsigned char *task_blob(app_kind kind, unsigned long size, unsigned long nproc, size_t index,
                                unsigned long units, size_t *n)
{
  app_workload w = {kind, size, nproc, 7};
  app_task *t;
  unsigned long ran;
  if (app_task_alloc(&w, index, &t)) die("task");
  app_task_set_origin(t, 1);
  if (units && app_task_run(t, units, &ran)) die("run");
  *n = app_task_blob_size(t);
  unsigned char *b = malloc(*n);
  if (!b || app_task_save(t, b, *n)) die("save");
  app_task_free(t);
  return b;
}

static void tasks_put(const char *kind, const char *file, unsigned host, lb_proc **p, size_t np)
{
  unsigned char *b;
  size_t n;
  if (farm_tasks_encode(p, np, &b, &n)) die(file);
  wire_put(kind, file, FZ_TASKS, host, b, n);
  free(b);
}

static void gen_tasks(void)
{
  lb_proc *p[3];
  size_t n;
  unsigned char *b = task_blob(APP_PRIMES, 100000, 6, 1, 0, &n);
  if (lb_proc_alloc(1, 1, 16666, b, n, &p[0])) die("proc");
  free(b);
  b = task_blob(APP_MATMUL, 12, 4, 2, 0, &n);
  if (lb_proc_alloc(2, 1, 36, b, n, &p[1])) die("proc");
  free(b);
  b = task_blob(APP_PRIMES, 100000, 6, 4, 100, &n);
  if (lb_proc_alloc(4, 1, 16566, b, n, &p[2])) die("proc");
  free(b);
  tasks_put("corpus", "tasks-3", 1, p, 3);
  tasks_put("corpus", "tasks-0", 1, p, 0);
  const char *R = "regress";
  double w = p[0]->work;
  static const struct {
    const char *name;
    double v;
  } bad[] = {
      {"nan", NAN}, {"inf", INFINITY}, {"1e308", 1e308}, {"1e19", 1e19}, {"negative", -1},
  };
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    char f[64];
    snprintf(f, sizeof f, "tasks-work-%s", bad[k].name);
    p[0]->work = bad[k].v;
    tasks_put(R, f, 1, p, 3);
  }
  p[0]->work = w;
  tasks_put(R, "tasks-origin-other-host", 2, p, 3);
  p[1]->origin = 0xFFFFFFFFu;
  tasks_put(R, "tasks-origin-2p32-1", 1, p, 3);
  p[1]->origin = 1;
  if (farm_tasks_encode(p, 3, &b, &n)) die("tasks");
  p32(b, 0, 0xFFFFFFFFu);
  wire_put(R, "tasks-count-2p32-1", FZ_TASKS, 1, b, n);
  p32(b, 0, 4);
  wire_put(R, "tasks-count-one-more", FZ_TASKS, 1, b, n);
  p32(b, 0, 3);
  p32(b, 4 + 8 + 4 + 8, 0xFFFFFFF0u); /* the first context's length */
  wire_put(R, "tasks-ctx-len-huge", FZ_TASKS, 1, b, n);
  free(b);
  for (int k = 0; k < 3; k++) lb_proc_free(p[k]);
}

static void order_put(const char *kind, const char *file, unsigned par, uint32_t dst, int64_t count)
{
  farm_order o = {dst, count};
  unsigned char b[16];
  size_t n;
  if (farm_order_encode(&o, b, sizeof b, &n)) die(file);
  wire_put(kind, file, FZ_ORDER, par, b, n);
}

/* A REPORT as a worker sends it at the end of a run. */
static farm_report report_sample(void)
{
  farm_report r = {.me = 2, .throttle = 2, .busy = 1.25, .cpu = 1.1, .span = 1.5, .msg = 0.01, .idle = 0.2};
  for (int k = 0; k < FARM_NCOUNTERS; k++) r.c[k] = k * 3;
  for (int k = 0; k < LB_MSG_NTYPES; k++) r.lbsent[k] = k;
  static char trace[] = "0.010000000,2,RM,2,1,2,,0,3,0,44\n0.012000000,2,RM,2,3,2,,0,3,0,44\n";
  r.trace = trace;
  r.trace_len = sizeof trace - 1;
  return r;
}

static void report_put(const char *kind, const char *file, const farm_report *r, void (*patch)(unsigned char *, size_t))
{
  unsigned char *b;
  size_t n;
  if (farm_report_encode(r, &b, &n)) die(file);
  if (patch) patch(b, n);
  wire_put(kind, file, FZ_REPORT, 3 /* 6 hosts */, b, n);
  free(b);
}

#define REPORT_TRACE_LEN (8 + 8 * (FARM_NCOUNTERS + LB_MSG_NTYPES) + 5 * 8)
static void trace_len_huge(unsigned char *b, size_t n)
{
  (void)n;
  p32(b, REPORT_TRACE_LEN, 0xFFFFFFFFu);
}
static void trace_nul(unsigned char *b, size_t n) { b[n - 5] = 0; }

static void gen_small(void)
{
  const char *R = "regress";
  /* ORDER, for 6 hosts (parameter 3) */
  order_put("corpus", "order", 3, 4, 2);
  order_put(R, "order-dst-at-host-count", 3, 6, 2);
  order_put(R, "order-dst-2p32-1", 3, 0xFFFFFFFFu, 2);
  order_put(R, "order-count-negative", 3, 4, -1);
  order_put(R, "order-count-int64-min", 3, 4, INT64_MIN);
  order_put(R, "order-count-huge", 3, 4, 1000001);
  /* REPORT */
  farm_report r = report_sample();
  report_put("corpus", "report", &r, NULL);
  r.trace_len = 0;
  report_put("corpus", "report-no-trace", &r, NULL);
  r = report_sample();
  r.me = 6;
  report_put(R, "report-me-at-host-count", &r, NULL);
  r = report_sample();
  r.c[FARM_C_UNITS] = -1;
  report_put(R, "report-counter-negative", &r, NULL);
  r = report_sample();
  r.lbsent[3] = INT64_MIN;
  report_put(R, "report-sent-int64-min", &r, NULL);
  r = report_sample();
  r.busy = NAN;
  report_put(R, "report-busy-nan", &r, NULL);
  r = report_sample();
  r.idle = INFINITY;
  report_put(R, "report-idle-inf", &r, NULL);
  r = report_sample();
  r.span = 1e308;
  report_put(R, "report-span-1e308", &r, NULL);
  r = report_sample();
  report_put(R, "report-trace-len-2p32-1", &r, trace_len_huge);
  r = report_sample();
  report_put(R, "report-trace-nul", &r, trace_nul);
  /* SUM_REQ, SUM_REP */
  int32_t v[5] = {1, -2, 1000000, -1000000, 7};
  unsigned char *b;
  size_t n;
  if (farm_sum_req_encode(v, 5, &b, &n)) die("sum");
  wire_put("corpus", "sum-req", FZ_SUM_REQ, 0, b, n);
  p32(b, 0, 0xFFFFFFFFu);
  wire_put(R, "sum-req-count-2p32-1", FZ_SUM_REQ, 0, b, n);
  p32(b, 0, 0x40000001u); /* 4 n wraps to 4 in 32 bits */
  wire_put(R, "sum-req-count-wraps", FZ_SUM_REQ, 0, b, n);
  free(b);
  unsigned char s[16];
  if (farm_sum_rep_encode(5, 6, s, sizeof s, &n)) die("sum");
  wire_put("corpus", "sum-rep", FZ_SUM_REP, 0, s, n);
  wire_put(R, "sum-rep-short", FZ_SUM_REP, 0, s, n - 1);
  /* CLOCK: the master's question, a worker's answer */
  unsigned char c[FARM_CLOCK_MAX];
  farm_clock q = {.round = 3, .master = 0.0125};
  if (farm_clock_encode(&q, c, sizeof c, &n)) die("clock");
  wire_put("corpus", "clock-request", FZ_CLOCK, 0, c, n);
  farm_clock a = {.round = 3,
                  .reply = 1,
                  .master = 0.0125,
                  .node = 0.0126,
                  .mono = 8123.5,
                  .boot = "1de68e83-a72a-4002-a407-598474500365"};
  if (farm_clock_encode(&a, c, sizeof c, &n)) die("clock");
  wire_put("corpus", "clock-reply", FZ_CLOCK, 0, c, n);
  wire_put(R, "clock-reply-short", FZ_CLOCK, 0, c, n - 1);
  c[n - 1] = 'X';
  wire_put(R, "clock-reply-boot-not-hex", FZ_CLOCK, 0, c, n);
  p32(c, 4, 2);
  wire_put(R, "clock-kind-2", FZ_CLOCK, 0, c, 16);
  a.boot[0] = '\0';
  a.node = INFINITY;
  if (farm_clock_encode(&a, c, sizeof c, &n)) die("clock");
  wire_put(R, "clock-reply-node-inf", FZ_CLOCK, 0, c, n);
  /* payload head, for 6 hosts */
  unsigned char h[FARM_PAYLOAD_HEAD];
  farm_payload_head ph = {.pid = 17, .origin = 1, .exec = 4, .len = 96};
  for (int k = 0; k < FARM_MAC_LEN; k++) ph.digest[k] = (unsigned char)(0x30 + k);
  farm_payload_head_put(h, &ph);
  wire_put("corpus", "payload-head", FZ_PAYLOAD_HEAD, 3, h, sizeof h);
  ph.len = 0;
  farm_payload_head_put(h, &ph);
  wire_put(R, "payload-len-0", FZ_PAYLOAD_HEAD, 3, h, sizeof h);
  ph.len = (1ull << 34) + 1;
  farm_payload_head_put(h, &ph);
  wire_put(R, "payload-len-huge", FZ_PAYLOAD_HEAD, 3, h, sizeof h);
  ph.len = 96;
  ph.origin = 6;
  farm_payload_head_put(h, &ph);
  wire_put(R, "payload-origin-at-host-count", FZ_PAYLOAD_HEAD, 3, h, sizeof h);
  ph.origin = 1;
  ph.exec = 0xFFFFFFFFu;
  farm_payload_head_put(h, &ph);
  wire_put(R, "payload-exec-2p32-1", FZ_PAYLOAD_HEAD, 3, h, sizeof h);
  /* envelopes: each of our tags (parameter: tag - 7100), a body after */
  unsigned char e[FARM_ENVELOPE + 4] = {0};
  for (int tag = FARM_TAG_MIN; tag < FARM_TAG_MIN + FARM_NTAGS; tag++) {
    char f[64];
    snprintf(f, sizeof f, "envelope-%s", farm_tag_name(tag));
    farm_envelope env = {.tag = tag, .run = FZ_RUN, .body_len = 4, .from = FZ_SRC, .to = FZ_SELF, .seq = 7};
    memset(env.mac, 0x5a, sizeof env.mac);
    farm_envelope_put(e, &env);
    wire_put("corpus", f, FZ_ENVELOPE, (unsigned)(tag - 7100), e, sizeof e);
  }
  farm_envelope_put(e, &(farm_envelope){.tag = FARM_EXITED, .run = FZ_RUN, .body_len = 4});
  wire_put(R, "envelope-other-run", FZ_ENVELOPE, 0x80 | 4, e, sizeof e);
  wire_put(R, "envelope-short", FZ_ENVELOPE, 4, e, FARM_ENVELOPE - 1);
  wire_put(R, "envelope-tag-7100", FZ_ENVELOPE, 0, e, sizeof e);
  e[4] = 1;
  wire_put(R, "envelope-version-1", FZ_ENVELOPE, 4, e, sizeof e);
}

/* ---- authenticated messages (FZ_AUTH) ---- */
static farm_auth *sender(void)
{
  farm_auth *a;
  unsigned char key[32];
  fz_key(key);
  if (farm_auth_alloc(FZ_SRC, &a)) die("auth");
  farm_auth_set_key(a, key);
  return a;
}

/* A message from FZ_SRC to `to` as its transport carries it, sealed by
 * a (NULL: a fresh sender, sequence number 1); patch may spoil it. */
static void auth_put(const char *kind, const char *file, unsigned par, farm_auth *a, uint32_t to, const void *body,
                     size_t n, void (*patch)(unsigned char *, size_t))
{
  farm_auth *own = a ? NULL : (a = sender());
  int tag = FZ_AUTH_TAG(par);
  unsigned char *m = malloc(FARM_ENVELOPE + n + 1);
  if (!m) die("auth");
  farm_auth_seal(a, m, tag, FZ_RUN, to, body, n);
  if (n) memcpy(m + FARM_ENVELOPE, body, n);
  if (patch) patch(m, FARM_ENVELOPE + n);
  wire_put(kind, file, FZ_AUTH, par, m, FARM_ENVELOPE + n);
  free(m);
  farm_auth_free(own);
}

static void payload_put(const char *kind, const char *file, unsigned par, void (*patch)(unsigned char *, size_t))
{
  farm_auth *a = sender();
  unsigned char m[FARM_ENVELOPE + FARM_PAYLOAD_HEAD + 16], bytes[16];
  for (int k = 0; k < 16; k++) bytes[k] = (unsigned char)(3 * k + 1);
  farm_payload_head h = {.pid = 17, .origin = 1, .exec = 4, .len = sizeof bytes};
  farm_auth_seal_payload(a, m, m + FARM_ENVELOPE, FZ_RUN, &h, bytes);
  memcpy(m + FARM_ENVELOPE + FARM_PAYLOAD_HEAD, bytes, sizeof bytes);
  if (patch) patch(m, sizeof m);
  wire_put(kind, file, FZ_AUTH, par, m, sizeof m);
  farm_auth_free(a);
}

static void flip_mac(unsigned char *b, size_t n)
{
  (void)n;
  b[FARM_ENV_SIGNED + 5] ^= 1;
}
static void flip_body(unsigned char *b, size_t n) { b[n - 1] ^= 0x80; }
static void seq_1(unsigned char *b, size_t n)
{
  (void)n;
  p64(b, 24, 1);
}

static void gen_auth(void)
{
  const char *R = "regress";
  unsigned char key[32], four[4] = {1, 2, 3, 4};
  fz_key(key);
  /* every tag, as a task with the key takes it */
  for (int tag = FARM_TAG_MIN; tag < FARM_TAG_MIN + FARM_NTAGS; tag++) {
    char f[64];
    unsigned par = FZ_AUTH_PAR(tag);
    snprintf(f, sizeof f, "auth-%s", farm_tag_name(tag));
    if (tag == FARM_PAYLOAD || tag == FARM_RESULT) payload_put("corpus", f, par, NULL);
    else if (tag == FARM_QUIT) auth_put("corpus", f, par, NULL, FZ_SELF, key, sizeof key, NULL);
    else auth_put("corpus", f, par, NULL, FZ_SELF, four, sizeof four, NULL);
  }
  /* a worker without the key: its SETUP and QUIT */
  lb_topo *t;
  farm_setup s = setup_sample(LB_POLICY_RMTLB, 3, &t);
  unsigned char *b;
  size_t n;
  if (farm_setup_encode(&s, &b, &n)) die("setup");
  auth_put("corpus", "auth-setup-keyless", (FARM_SETUP - FARM_TAG_MIN) | FZ_AUTH_KEYLESS, NULL, FZ_SELF, b, n, NULL);
  auth_put("corpus", "auth-quit-keyless", (FARM_QUIT - FARM_TAG_MIN) | FZ_AUTH_KEYLESS, NULL, FZ_SELF, key, sizeof key,
           NULL);
  /* ... and what it must refuse: another key's SETUP, a policy message */
  s.key[0] ^= 1;
  free(b);
  if (farm_setup_encode(&s, &b, &n)) die("setup");
  auth_put(R, "auth-setup-keyless-other-key", (FARM_SETUP - FARM_TAG_MIN) | FZ_AUTH_KEYLESS, NULL, FZ_SELF, b, n, NULL);
  auth_put(R, "auth-lbmsg-keyless", (FARM_LBMSG - FARM_TAG_MIN) | FZ_AUTH_KEYLESS, NULL, FZ_SELF, four, 4, NULL);
  free(b);
  farm_setup_clear(&s);
  lb_topo_free(t);
  /* a forged MAC, a changed body, another receiver, a claimed sender,
   * the second of two with one sequence number; a payload's envelope
   * with a sequence number, and with its bytes changed (its head's MAC
   * holds; the master's check of the bytes does not) */
  unsigned lbmsg = FARM_LBMSG - FARM_TAG_MIN;
  auth_put(R, "auth-lbmsg-mac-flipped", lbmsg, NULL, FZ_SELF, four, 4, flip_mac);
  auth_put(R, "auth-lbmsg-body-changed", lbmsg, NULL, FZ_SELF, four, 4, flip_body);
  auth_put(R, "auth-lbmsg-other-receiver", lbmsg, NULL, FZ_SELF + 1, four, 4, NULL);
  auth_put(R, "auth-lbmsg-other-sender", lbmsg | FZ_AUTH_OTHER_SRC, NULL, FZ_SELF, four, 4, NULL);
  auth_put(R, "auth-lbmsg-mac-flipped-resealed", lbmsg | FZ_AUTH_RESEAL, NULL, FZ_SELF, four, 4, flip_mac);
  unsigned pay = FARM_PAYLOAD - FARM_TAG_MIN;
  payload_put(R, "auth-payload-seq-1", pay | FZ_AUTH_RESEAL, seq_1);
  payload_put(R, "auth-payload-bytes-changed", pay, flip_body);
  payload_put(R, "auth-payload-keyless", pay | FZ_AUTH_KEYLESS, NULL);
}

/* ---- HEARTBEAT and the master's journal (FZ_BEAT, FZ_JOURNAL) ---- */
static void gen_beat_journal(void)
{
  const char *R = "regress";
  unsigned char b[FARM_BEAT_LEN];
  size_t n;
  farm_beat hb = {5, 1234, 5678901, 7};
  if (farm_beat_encode(&hb, b, sizeof b, &n)) die("beat");
  wire_put("corpus", "beat", FZ_BEAT, 3 /* 6 hosts */, b, n);
  wire_put(R, "beat-host-at-host-count", FZ_BEAT, 2 /* 3 hosts */, b, n);
  hb.held = (uint64_t)1 << 32;
  if (farm_beat_encode(&hb, b, sizeof b, &n)) die("beat");
  wire_put(R, "beat-held-2p32", FZ_BEAT, 3, b, n);
  /* A journal of a run of 16 processes: its header and three records
   * (results of up to 64 bytes); cut inside its last record; damaged
   * inside its second; a tail of zero bytes. */
  unsigned char *j, *r;
  size_t jl, rl;
  if (farm_journal_header_encode("workload primes, size 200000, 16 processes, seed 5", &j, &jl)) die("journal");
  for (unsigned k = 0; k < 3; k++) {
    unsigned char res[40];
    for (unsigned i = 0; i < sizeof res; i++) res[i] = (unsigned char)(k * 7 + i);
    if (farm_journal_record_encode(2 * k + 1, res, 24 + 8 * k, &r, &rl)) die("journal");
    if (!(j = realloc(j, jl + rl))) die("journal");
    memcpy(j + jl, r, rl);
    jl += rl;
    free(r);
  }
  unsigned par = 4 /* 16 processes */ | 0 << 3 /* 64 bytes */;
  wire_put("corpus", "journal", FZ_JOURNAL, par, j, jl);
  wire_put(R, "journal-cut", FZ_JOURNAL, par, j, jl - 9);
  wire_put(R, "journal-process-out-of-range", FZ_JOURNAL, 3 /* 6 processes */, j, jl);
  unsigned char *z = calloc(jl + 40, 1);
  if (!z) die("journal");
  memcpy(z, j, jl);
  wire_put(R, "journal-zero-tail", FZ_JOURNAL, par, z, jl + 40);
  free(z);
  j[jl - 2 * 100] ^= 1;
  wire_put(R, "journal-damaged", FZ_JOURNAL, par, j, jl);
  free(j);
}

/* ---- app_task, app_result ---- */
enum { H_KIND = 8, H_COST = 32, H_TOTAL = 40, H_CURSOR = 48, BODY = 56 };

static void task_put(const char *kind, const char *file, const unsigned char *b, size_t n)
{
  put(kind, "app_task", file, "", 0, b, n);
}

static void gen_app_task(void)
{
  size_t n;
  unsigned char *b;
  b = task_blob(APP_PRIMES, 100000, 6, 1, 0, &n);
  task_put("corpus", "primes-fresh", b, n);
  free(b);
  b = task_blob(APP_PRIMES, 100000, 6, 5, 1000, &n);
  task_put("corpus", "primes-started", b, n);
  free(b);
  b = task_blob(APP_MATMUL, 12, 4, 2, 0, &n);
  task_put("corpus", "matmul-fresh", b, n);
  free(b);
  /* blocks of 10 rows of order 40: 10 units are a first panel (16 of k) */
  b = task_blob(APP_MATMUL, 40, 4, 1, 10, &n);
  task_put("corpus", "matmul-started", b, n);
  free(b);
  b = task_blob(APP_MATMUL, 12, 4, 3, 36, &n);
  task_put("corpus", "matmul-finished", b, n);
  free(b);
  const char *R = "regress";
  /* primes: a range far above any workload, from the prime 2^63 - 25
   * (which alone costs 1.5e9 trial divisions), one ending beyond the
   * largest workload, one starting below 2 */
  b = task_blob(APP_PRIMES, 100000, 6, 1, 0, &n);
  uint64_t total = g64(b, H_TOTAL);
  p64(b, BODY, (1ull << 63) - 25);
  p64(b, BODY + 8, (1ull << 63) - 25 + total);
  task_put(R, "primes-lo-near-2p63", b, n);
  p64(b, BODY, 3999999990ull);
  p64(b, BODY + 8, 3999999990ull + total);
  task_put(R, "primes-hi-beyond-size", b, n);
  p64(b, BODY, 0);
  p64(b, BODY + 8, total);
  task_put(R, "primes-lo-0", b, n);
  p64(b, BODY, 2);
  p64(b, BODY + 8, 2 + total);
  p64(b, BODY + 16, 1); /* a prime counted before any number was tested */
  task_put(R, "primes-count-beyond-cursor", b, n);
  free(b);
  /* the head: cost, kind, cursor */
  static const struct {
    const char *name;
    double v;
  } bad[] = {
      {"nan", NAN},
      {"inf", INFINITY},
      {"1e308", 1e308},
      {"negative", -1},
  };
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    char f[64];
    snprintf(f, sizeof f, "cost-%s", bad[k].name);
    b = task_blob(APP_PRIMES, 100000, 6, 5, 1000, &n);
    pf64(b, H_COST, bad[k].v);
    task_put(R, f, b, n);
    free(b);
  }
  b = task_blob(APP_PRIMES, 100000, 6, 5, 1000, &n);
  p32(b, H_KIND, 3);
  task_put(R, "kind-3", b, n);
  p32(b, H_KIND, APP_PRIMES);
  p64(b, H_CURSOR, g64(b, H_TOTAL) + 1);
  task_put(R, "cursor-beyond-total", b, n);
  task_put(R, "truncated-head", b, BODY - 1);
  free(b);
  /* matmul: order 0 and 8193, a block beyond the matrix, a cursor that
   * is not whole values of k, a body that is not the cursor's (partial
   * sums cut short, or present before any panel ran) */
  b = task_blob(APP_MATMUL, 40, 4, 1, 10, &n);
  unsigned char *c = malloc(n + 1);
  memcpy(c, b, n);
  p64(c, BODY, 0);
  task_put(R, "matmul-order-0", c, n);
  memcpy(c, b, n);
  p64(c, BODY, 8193);
  p64(c, H_TOTAL, 8193);
  p64(c, H_CURSOR, 8193);
  task_put(R, "matmul-order-8193", c, n);
  memcpy(c, b, n);
  p64(c, BODY + 16, 31);
  task_put(R, "matmul-rows-beyond-order", c, n);
  memcpy(c, b, n);
  p64(c, H_TOTAL, 41 * 40);
  task_put(R, "matmul-more-rows-than-order", c, n);
  memcpy(c, b, n);
  p64(c, H_CURSOR, 11);
  task_put(R, "matmul-cursor-part-column", c, n);
  memcpy(c, b, n);
  p64(c, H_CURSOR, 0);
  task_put(R, "matmul-sums-before-a-panel", c, n);
  memcpy(c, b, n);
  task_put(R, "matmul-body-short", c, n - 8);
  memcpy(c, b, n);
  c[n] = 0;
  task_put(R, "matmul-trailing-byte", c, n + 1);
  free(c);
  free(b);
}

static unsigned char *result_blob(app_kind kind, unsigned long size, unsigned long nproc, size_t index, size_t *n)
{
  app_workload w = {kind, size, nproc, 9};
  app_task *t;
  unsigned long ran;
  if (app_task_alloc(&w, index, &t) || app_task_run(t, 1UL << 30, &ran)) die("task");
  while (!app_task_finished(t)) app_task_run(t, 1UL << 30, &ran);
  *n = app_task_result_size(t);
  unsigned char *b = malloc(*n);
  if (!b || app_task_result(t, b, *n)) die("result");
  app_task_free(t);
  return b;
}

/* The prefix names the workload the result belongs to. */
static void result_put(const char *kind, const char *file, unsigned nproc, uint32_t size, const unsigned char *b,
                       size_t n)
{
  unsigned char pre[FZ_RESULT_PREFIX] = {(unsigned char)nproc, 9};
  p32(pre, 2, size);
  put(kind, "app_result", file, pre, sizeof pre, b, n);
}

static void gen_app_result(void)
{
  size_t n;
  unsigned char *b;
  b = result_blob(APP_PRIMES, 50000, 5, 3, &n);
  result_put("corpus", "primes", 5, 50000, b, n);
  free(b);
  b = result_blob(APP_MATMUL, 16, 4, 1, &n);
  result_put("corpus", "matmul", 4, 16, b, n);
  free(b);
  b = result_blob(APP_MATMUL, 5, 5, 4, &n);
  result_put("corpus", "matmul-one-row", 5, 5, b, n);
  free(b);
  const char *R = "regress";
  static const struct {
    const char *name;
    double v;
  } bad[] = {
      {"nan", NAN},
      {"inf", INFINITY},
      {"1e308", 1e308},
      {"negative", -1},
  };
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    char f[64];
    snprintf(f, sizeof f, "cost-%s", bad[k].name);
    b = result_blob(APP_PRIMES, 50000, 5, 3, &n);
    pf64(b, H_COST, bad[k].v);
    result_put(R, f, 5, 50000, b, n);
    free(b);
  }
  /* matmul rows: 2^51 rows of order 8192 make 2^64 entries, which wrap
   * to the 0 of the head; no rows; a block past the last row */
  b = result_blob(APP_MATMUL, 16, 4, 1, &n);
  unsigned char *c = malloc(n);
  memcpy(c, b, 80);
  p64(c, H_TOTAL, 0);
  p64(c, H_CURSOR, 0);
  p64(c, BODY, 8192);
  p64(c, BODY + 16, 1ull << 51);
  result_put(R, "matmul-rows-wrap", 4, 16, c, 80);
  memcpy(c, b, 80);
  p64(c, H_TOTAL, 0);
  p64(c, H_CURSOR, 0);
  p64(c, BODY + 16, 0);
  result_put(R, "matmul-no-rows", 4, 16, c, 80);
  memcpy(c, b, n);
  p64(c, BODY + 8, 13);
  result_put(R, "matmul-rows-past-order", 4, 16, c, n);
  memcpy(c, b, n);
  p64(c, BODY, 0);
  result_put(R, "matmul-order-0", 4, 16, c, n);
  result_put(R, "matmul-short", 4, 16, b, n - 1);
  free(c);
  free(b);
}

/* ---- lb_node: event scripts (fuzz_lb_node.c) ---- */
/* A message of type t from node 2 to node 1 of 7, ids all in range. */
static lb_msg *node_sample(lb_msg_type t)
{
  lb_msg *m;
  if (lb_msg_alloc(t, 2, 1, &m)) die("message");
  switch (t) {
  case LB_MSG_RM:
    m->u.rm.hv = 2;
    m->u.rm.epn = 3;
    m->u.rm.round = 1;
    m->u.rm.lease = 0.01;
    break;
  case LB_MSG_AM:
    m->u.am.hv = 1;
    m->u.am.lv = 2;
    m->u.am.tag = 1;
    m->u.am.ipn = 2;
    m->u.am.hops = 1;
    break;
  case LB_MSG_CM:
    m->u.cm.hv = 1;
    m->u.cm.lv = 2;
    m->u.cm.tag = 1;
    m->u.cm.aor = 1;
    m->u.cm.depn = 2;
    break;
  case LB_MSG_LMM:
    m->u.lmm.hv = 2;
    m->u.lmm.lv = 1;
    m->u.lmm.tag = 1;
    m->u.lmm.fon = 1;
    m->u.lmm.total = 2;
    break;
  case LB_MSG_DRM:
    m->u.drm.hv = 2;
    m->u.drm.lv = 1;
    m->u.drm.tag = 1;
    m->u.drm.fon = 1;
    break;
  case LB_MSG_PROBE: m->u.probe.round = 1; break;
  case LB_MSG_REPLY:
    m->u.reply.round = 1;
    m->u.reply.q = 0;
    break;
  case LB_MSG_TRANSFER: m->u.transfer.ordered = 2; break;
  case LB_MSG_LOAD: m->u.load.q = 9; break;
  case LB_MSG_INSTR: m->u.instr.min = 1; break;
  case LB_MSG_REPORT:
    m->u.report.q = 9;
    m->u.report.speed = 0.5;
    m->u.report.in = 1;
    m->u.report.out = 0;
    break;
  case LB_MSG_ORDER:
    if (lb_msg_add_pair(m, 0, 1) || lb_msg_add_pair(m, 3, 2)) die("pair");
    break;
  case LB_MSG_POLICY:
    m->u.pol.kind = 0;
    m->u.pol.tag = 1;
    m->u.pol.a = 0;
    m->u.pol.b = 1;
    break;
  default: break;
  }
  for (uint64_t k = 0; lb_msg_type_has_procs(t) && k < 2; k++) {
    lb_proc *p;
    if (lb_proc_alloc(0x900 + k, 2, 5, NULL, 0, &p) || lb_msg_add_proc(m, p)) die("process");
  }
  if (lb_msg_type_has_result(t)) m->res = (lb_result_ref){0x901, 1, 100, 1};
  return m;
}

/* Script: [policy and topology][nodes and me][capacity], then records
 * (op byte and its arguments); a message record is 0, type, sender,
 * body length, body. */
static void gen_node(void)
{
  for (int p = 0; p < LB_POLICY_COUNT; p++) {
    unsigned char b[4096];
    size_t n = 0;
    b[n++] = (unsigned char)p;
    b[n++] = 0x15; /* 7 nodes, this one 1 */
    b[n++] = 3;    /* capacity 4 */
    for (int k = 0; k < 8; k++) {
      b[n++] = 1;
      b[n++] = (unsigned char)(20 + k);
    } /* processes */
    static const unsigned char run[] = {3, 2, 40, 6, 60, 4, 3, 2, 255, 3, 5, 2, 1, 6, 60, 4, 3};
    memcpy(b + n, run, sizeof run);
    n += sizeof run;
    for (int t = 0; t < LB_MSG_NTYPES; t++) {
      unsigned char *e;
      size_t len;
      lb_msg *m = node_sample((lb_msg_type)t);
      if (lb_codec_encode_alloc(m, FZ_RUN, &e, &len) || len - LB_CODEC_HEADER > 255) die("node message");
      b[n++] = 0;
      b[n++] = (unsigned char)t;
      b[n++] = 2;
      b[n++] = (unsigned char)(len - LB_CODEC_HEADER);
      memcpy(b + n, e + LB_CODEC_HEADER, len - LB_CODEC_HEADER);
      n += len - LB_CODEC_HEADER;
      b[n++] = 6;
      b[n++] = 20;
      b[n++] = 4;
      b[n++] = 3; /* time, a timer, a tick */
      free(e);
      lb_msg_free(m);
    }
    /* the other kinds of a policy's own message (steal's, pool's,
     * dasud-ring's answers and wakes), then node 3 fails */
    for (uint32_t kind = 1; kind <= 2; kind++) {
      unsigned char *e;
      size_t len;
      lb_msg *m = node_sample(LB_MSG_POLICY);
      m->u.pol.kind = kind;
      if (lb_codec_encode_alloc(m, FZ_RUN, &e, &len) || len - LB_CODEC_HEADER > 255) die("node message");
      b[n++] = 0;
      b[n++] = LB_MSG_POLICY;
      b[n++] = 2;
      b[n++] = (unsigned char)(len - LB_CODEC_HEADER);
      memcpy(b + n, e + LB_CODEC_HEADER, len - LB_CODEC_HEADER);
      n += len - LB_CODEC_HEADER;
      b[n++] = 3;
      free(e);
      lb_msg_free(m);
    }
    b[n++] = 7;
    b[n++] = 3;
    b[n++] = 3;
    b[n++] = 6;
    b[n++] = 200;
    b[n++] = 4;
    b[n++] = 3;
    char f[64];
    snprintf(f, sizeof f, "%s", lb_policy_name((lb_policy)p));
    put("corpus", "lb_node", f, "", 0, b, n);
    b[0] |= 0x40 | 0x10; /* complete graph, results direct */
    snprintf(f, sizeof f, "%s-complete-direct", lb_policy_name((lb_policy)p));
    put("corpus", "lb_node", f, "", 0, b, n);
  }
  /* CCHSPMD node 1 of a 4-ring: two TRANSFERs without processes, each
   * ordering 2^31 - 1, then a tick and its timer: a REPORT whose books
   * no decoder takes (open, docs/FUZZING.md). */
  unsigned char c[64] = {LB_POLICY_CCHSPMD, 0x12, 3};
  size_t n = 3;
  for (int k = 0; k < 2; k++) {
    unsigned char body[12];
    lb_wbuf w = {body, sizeof body, 0};
    lb_w_i64(&w, INT32_MAX);
    lb_w_u32(&w, 0);
    c[n++] = 0;
    c[n++] = LB_MSG_TRANSFER;
    c[n++] = 0;
    c[n++] = sizeof body;
    memcpy(c + n, body, sizeof body);
    n += sizeof body;
  }
  c[n++] = 3;
  c[n++] = 6;
  c[n++] = 100;
  c[n++] = 4;
  put("corpus", "lb_node", "cchspmd-books-beyond-int-max", "", 0, c, n);
  /* LOWEST node 0 of a 3-ring, heavy, probes; both replies say 2^31,
   * which an int made -2^31, light, and room C + A + 2^31 overflowed. */
  unsigned char l[64] = {LB_POLICY_LOWEST, 0x01, 0};
  n = 3;
  for (int k = 0; k < 4; k++) {
    l[n++] = 1;
    l[n++] = 50;
  }
  l[n++] = 3;
  for (unsigned src = 1; src <= 2; src++) {
    unsigned char body[16];
    lb_wbuf w = {body, sizeof body, 0};
    lb_w_u64(&w, 1);
    lb_w_i64(&w, (int64_t)1 << 31);
    l[n++] = 0;
    l[n++] = LB_MSG_REPLY;
    l[n++] = (unsigned char)src;
    l[n++] = sizeof body;
    memcpy(l + n, body, sizeof body);
    n += sizeof body;
  }
  put("regress", "lb_node", "lowest-reply-2p31", "", 0, l, n);
}

int main(int argc, char **argv)
{
  if (argc != 2) {
    fprintf(stderr, "usage: gen_seeds DIR\n");
    return 2;
  }
  top = argv[1];
  gen_codec();
  gen_setup();
  gen_tasks();
  gen_small();
  gen_auth();
  gen_beat_journal();
  gen_app_task();
  gen_app_result();
  gen_node();
  return 0;
}
