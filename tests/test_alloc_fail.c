/* Out of memory at every allocation: a counting allocator (lb_mem.h)
 * refuses the k-th block, for every k of a short simulated run of each
 * policy (with a node failing, so the failure paths allocate too) and
 * of the codec's decoding of each kind of message.  Each must end with
 * an error status and a message, give back every block it took, leave
 * the caller's allocator in place, and a run after it must give what it
 * gives untouched.  (LeakSanitizer watches malloc in the sanitizer
 * build; the counts here watch lb_mem.) */
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "lb_sim.h"
#include "lb_codec.h"
#include "lb_mem.h"
#include "lb_errno.h"

typedef struct counting {
  unsigned long n;       /* blocks asked for */
  unsigned long fail_at; /* refuse the fail_at-th (0: none) */
  int and_after;         /* ... and every one after it */
  int refused;
  long blocks; /* taken and not given back */
  long long bytes;
} counting;

static void *count_alloc(void *ctx, size_t size)
{
  counting *c = ctx;
  c->n++;
  if (c->fail_at && (c->n == c->fail_at || (c->and_after && c->n > c->fail_at))) {
    c->refused = 1;
    return NULL;
  }
  void *p = size && size % 64 == 0 ? aligned_alloc(64, size) : malloc(size ? size : 1);
  if (p) {
    c->blocks++;
    c->bytes += (long long)size;
  }
  return p;
}

static void count_free(void *ctx, void *p, size_t size)
{
  counting *c = ctx;
  if (!p) return;
  c->blocks--;
  c->bytes -= (long long)size;
  free(p);
}

static lb_mem counting_mem(counting *c) { return (lb_mem){.alloc = count_alloc, .free = count_free, .ctx = c}; }

/* ---- simulated runs ---- */
typedef struct run {
  int rc;
  lb_sim_result r;
  counting cnt;
} run;

/* Two short runs of a policy.  0: a 3 x 3 torus where a node fails
 * midway (the survivors' repairs and the sink's re-runs allocate too);
 * 1: a ring whose nodes take messages between quanta at a cost, with
 * the other result mode, larger contexts leaving as on the farm, and an
 * outside order. */
static void sim_once(lb_policy pol, int variant, const lb_topo *t, unsigned long fail_at, int and_after, run *out)
{
  lb_sim_config c;
  lb_sim_config_default(&c);
  c.policy = pol;
  c.topo = t;
  c.jitter = 1.5;
  c.node.capacity = 2;
  c.max_events = 100000;
  int origin = pol == LB_POLICY_RMTLB;
  lb_sim_crash crash = {6, 3};
  lb_sim_order order = {2, 0, 1, 3};
  if (!variant) {
    c.seed = 4;
    c.nproc = 14;
    c.crashes = &crash;
    c.ncrashes = 1;
  } else {
    c.seed = 9;
    c.nproc = 20;
    c.poll = 1;
    c.cost_msg = 0.01;
    c.ctx_len = 300;
    c.leaving = 1;
    c.orders = &order;
    c.norders = 1;
    origin = !origin;
  }
  c.node.results = origin ? LB_RESULTS_ORIGIN : LB_RESULTS_DIRECT;
  memset(out, 0, sizeof *out);
  out->cnt.fail_at = fail_at;
  out->cnt.and_after = and_after;
  lb_mem m = counting_mem(&out->cnt);
  c.mem = &m;
  out->rc = lb_sim_run(&c, &out->r);
}

static void same_result(const lb_sim_result *a, const lb_sim_result *b)
{
  assert_true(a->makespan == b->makespan);
  assert_int_equal(a->events, b->events);
  assert_int_equal(a->messages, b->messages);
  assert_int_equal(a->bytes, b->bytes);
  assert_int_equal(a->migrated, b->migrated);
  assert_int_equal(a->reruns, b->reruns);
  assert_int_equal(a->violations, b->violations);
}

static void every_k(lb_policy pol, int variant)
{
  lb_topo *t;
  assert_int_equal(lb_topo_from_spec(variant ? "ring:7" : "torus:3x3", &t), LB_SUCCESS);
  /* The caller's own allocator, which every run must leave in place. */
  counting mine = {0};
  lb_mem m = counting_mem(&mine), now;
  lb_mem_set(&m);
  run ref;
  sim_once(pol, variant, t, 0, 0, &ref);
  if (ref.rc) fail_msg("%s (%d): %s", lb_policy_name(pol), variant, lb_errmsg());
  assert_int_equal(ref.r.violations, 0);
  assert_int_equal(ref.cnt.blocks, 0);
  assert_int_equal(ref.cnt.bytes, 0);
  assert_int_equal(ref.r.crashed, variant ? 0 : 1);
  assert_true(pol == LB_POLICY_NONE || ref.r.migrated > 0);
  unsigned long total = ref.cnt.n;
  assert_true(total > 30); /* none on torus:3x3 makes 43 (the nodes share one output list) */
  /* The k-th refused, then (memory that stays short) every one from
   * the k-th on. */
  for (unsigned long j = 0; j < 2 * total; j++) {
    unsigned long k = j % total + 1;
    run f;
    lb_error_clear();
    sim_once(pol, variant, t, k, j >= total, &f);
    assert_true(f.cnt.refused);
    if (f.rc != LB_ENOMEM)
      fail_msg("%s (%d): allocation %lu of %lu refused%s: status %d (%s), %lu violations (%s)", lb_policy_name(pol),
               variant, k, total, j >= total ? " and after" : "", f.rc, f.rc ? lb_errmsg() : "none", f.r.violations,
               f.r.first_violation);
    assert_true(lb_errmsg()[0]); /* and says what it could not make */
    if (f.cnt.blocks || f.cnt.bytes)
      fail_msg("%s (%d): allocation %lu of %lu refused%s: %ld blocks (%lld bytes) not given back", lb_policy_name(pol),
               variant, k, total, j >= total ? " and after" : "", f.cnt.blocks, f.cnt.bytes);
    lb_mem_get(&now);
    assert_true(now.alloc == count_alloc && now.ctx == &mine);
    assert_int_equal(mine.n, 0); /* the run took nothing from the caller's */
    if (j % 16 == 1 || k == total) {
      /* and the next run is as if nothing had happened */
      run again;
      sim_once(pol, variant, t, 0, 0, &again);
      assert_int_equal(again.rc, LB_SUCCESS);
      same_result(&again.r, &ref.r);
      assert_int_equal(again.cnt.n, total);
    }
  }
  lb_mem_set(NULL);
  lb_topo_free(t);
}

static void every_k_both(lb_policy pol)
{
  every_k(pol, 0);
  every_k(pol, 1);
}

static void test_none(void **state)
{
  (void)state;
  every_k_both(LB_POLICY_NONE);
}
static void test_rmtlb(void **state)
{
  (void)state;
  every_k_both(LB_POLICY_RMTLB);
}
static void test_lowest(void **state)
{
  (void)state;
  every_k_both(LB_POLICY_LOWEST);
}
static void test_dasud(void **state)
{
  (void)state;
  every_k_both(LB_POLICY_DASUD);
}
static void test_cchspmd(void **state)
{
  (void)state;
  every_k_both(LB_POLICY_CCHSPMD);
}
static void test_diffusion(void **state)
{
  (void)state;
  every_k_both(LB_POLICY_DIFFUSION);
}
static void test_diffusion2(void **state)
{
  (void)state;
  every_k_both(LB_POLICY_DIFFUSION2);
}
static void test_steal(void **state)
{
  (void)state;
  every_k_both(LB_POLICY_STEAL);
}
static void test_pool(void **state)
{
  (void)state;
  every_k_both(LB_POLICY_POOL);
}
static void test_dasud_ring(void **state)
{
  (void)state;
  every_k_both(LB_POLICY_DASUD_RING);
}

/* ---- the codec ---- */
#define RUN 7u

static lb_msg *message(lb_msg_type type)
{
  lb_msg *m;
  assert_int_equal(lb_msg_alloc(type, 1, 2, &m), LB_SUCCESS);
  m->hop_src = 1;
  m->hop_dst = 2;
  if (lb_msg_type_has_procs(type))
    for (uint64_t k = 0; k < 5; k++) {
      unsigned char ctx[100];
      memset(ctx, (int)k, sizeof ctx);
      lb_proc *p;
      /* contexts of several sizes, none too */
      assert_int_equal(lb_proc_alloc(10 + k, 0, 2.5, k ? ctx : NULL, k ? 20 * k : 0, &p), LB_SUCCESS);
      assert_int_equal(lb_msg_add_proc(m, p), LB_SUCCESS);
    }
  if (type == LB_MSG_ORDER)
    for (size_t k = 0; k < 5; k++) assert_int_equal(lb_msg_add_pair(m, k, (long)k + 1), LB_SUCCESS);
  if (type == LB_MSG_LMM) {
    m->u.lmm.hv = 1;
    m->u.lmm.lv = 2;
    m->u.lmm.total = 5;
  }
  if (type == LB_MSG_DRM) {
    m->u.drm.hv = 1;
    m->u.drm.lv = 2;
  }
  if (lb_msg_type_has_result(type)) m->res = (lb_result_ref){3, 0, 8, 1};
  return m;
}

static void test_decode(void **state)
{
  (void)state;
  static const lb_msg_type types[] = {LB_MSG_TRANSFER, LB_MSG_LMM,  LB_MSG_ORDER,
                                      LB_MSG_DRM,      LB_MSG_LOAD, LB_MSG_POLICY};
  lb_codec_limits lim;
  lb_codec_limits_default(&lim, 8);
  for (size_t i = 0; i < sizeof types / sizeof *types; i++) {
    lb_msg *m = message(types[i]);
    unsigned char *buf;
    size_t len;
    assert_int_equal(lb_codec_encode_alloc(m, RUN, &buf, &len), LB_SUCCESS);
    lb_msg_free(m);
    counting c = {0};
    lb_mem mem = counting_mem(&c);
    lb_mem_set(&mem);
    lb_msg *d;
    if (lb_codec_decode(buf, len, RUN, &lim, &d)) fail_msg("%s", lb_errmsg());
    lb_msg_free(d);
    unsigned long total = c.n;
    assert_true(total >= 1);
    assert_int_equal(c.blocks, 0);
    for (unsigned long j = 0; j < 2 * total; j++) {
      c = (counting){.fail_at = j % total + 1, .and_after = j >= total};
      d = (lb_msg *)1;
      lb_error_clear();
      assert_int_equal(lb_codec_decode(buf, len, RUN, &lim, &d), LB_ENOMEM);
      assert_null(d);
      assert_true(lb_errmsg()[0]);
      assert_int_equal(c.blocks, 0);
      assert_int_equal(c.bytes, 0);
      /* The same bytes decode again, to the same message. */
      c = (counting){0};
      assert_int_equal(lb_codec_decode(buf, len, RUN, &lim, &d), LB_SUCCESS);
      unsigned char *again;
      size_t len2;
      assert_int_equal(lb_codec_encode_alloc(d, RUN, &again, &len2), LB_SUCCESS);
      assert_int_equal(len2, len);
      assert_memory_equal(again, buf, len);
      free(again);
      lb_msg_free(d);
      assert_int_equal(c.blocks, 0);
    }
    lb_mem_set(NULL);
    free(buf);
  }
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_none),       cmocka_unit_test(test_rmtlb),   cmocka_unit_test(test_lowest),
      cmocka_unit_test(test_dasud),      cmocka_unit_test(test_cchspmd), cmocka_unit_test(test_diffusion),
      cmocka_unit_test(test_diffusion2), cmocka_unit_test(test_steal),   cmocka_unit_test(test_pool),
      cmocka_unit_test(test_dasud_ring), cmocka_unit_test(test_decode),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
