/* The node API: processes, messages, output list, schedules, outside
 * orders, result modes and policy none. */
#include "testutil.h"
#include "lb_node.h"
#include "lb_policy.h"
#include "lb_codec.h"
#include "lb_errno.h"

static void test_proc_msg_copy(void **state)
{
  (void)state;
  lb_proc *p, *c;
  assert_int_equal(lb_proc_alloc(7, 3, 2.5, "abc", 3, &p), LB_SUCCESS);
  p->quanta = 4;
  p->hops = 2;
  assert_int_equal(lb_proc_copy(p, &c), LB_SUCCESS);
  assert_true(c->ctx != p->ctx);
  assert_memory_equal(c->ctx, "abc", 3);
  assert_int_equal(c->origin, 3);
  assert_int_equal(c->quanta, 4);
  assert_int_equal(c->hops, 2);
  lb_proc_free(c);
  assert_int_equal(lb_proc_alloc(1, 0, -1, NULL, 0, &c), LB_EINVAL);
  lb_msg *m, *mc;
  assert_int_equal(lb_msg_alloc(LB_MSG_LMM, 0, 1, &m), LB_SUCCESS);
  assert_int_equal(m->u.lmm.hv, LB_NO_NODE);
  size_t empty = lb_msg_size(m);
  assert_int_equal(lb_msg_add_proc(m, p), LB_SUCCESS);
  /* a process on the wire: id 8, origin 4, work 8, quanta 4, hops 4, est 8, ran 8,
   * length 4, context */
  assert_int_equal(lb_msg_size(m), empty + 48 + 3);
  assert_int_equal(lb_msg_copy(m, &mc), LB_SUCCESS);
  assert_int_equal(mc->nproc, 1);
  assert_true(mc->procs[0] != m->procs[0]);
  assert_int_equal(mc->procs[0]->id, 7);
  assert_int_equal(lb_msg_size(mc), lb_msg_size(m));
  lb_msg_free(m);
  lb_msg_free(mc);
  /* A result's bytes count on the wire only when they travel. */
  assert_int_equal(lb_msg_alloc(LB_MSG_RESULT, 0, 1, &m), LB_SUCCESS);
  m->res = (lb_result_ref){5, 1, 1000, 0};
  size_t receipt = lb_msg_size(m);
  m->res.payload = 1;
  assert_int_equal(lb_msg_size(m), receipt + 1000);
  lb_msg_free(m);
  assert_string_equal(lb_msg_type_name(LB_MSG_DRM), "DRM");
}

/* A context lives in its process's allocation while it fits the room
 * made there; grown past it, in a block of its own; back within it,
 * in the room again.  Either way it reads the same. */
static void test_proc_context(void **state)
{
  (void)state;
  lb_proc *p;
  assert_int_equal(lb_proc_alloc(1, 0, 1, "12345678", 8, &p), LB_SUCCESS);
  unsigned char *inl = p->ctx;
  assert_ptr_equal(inl, (unsigned char *)(p + 1));
  assert_int_equal(lb_proc_set_ctx(p, "abcd", 4), LB_SUCCESS);
  assert_ptr_equal(p->ctx, inl);
  assert_memory_equal(p->ctx, "abcd", 4);
  assert_int_equal(lb_proc_set_ctx(p, "0123456789abcdef", 16), LB_SUCCESS);
  assert_true(p->ctx != inl);
  assert_int_equal(p->ctx_len, 16);
  assert_memory_equal(p->ctx, "0123456789abcdef", 16);
  assert_int_equal(lb_proc_set_ctx(p, p->ctx + 8, 8), LB_SUCCESS); /* from its own bytes */
  assert_ptr_equal(p->ctx, inl);
  assert_memory_equal(p->ctx, "89abcdef", 8);
  assert_int_equal(lb_proc_set_ctx(p, p->ctx + 2, 6), LB_SUCCESS); /* overlapping, in place */
  assert_memory_equal(p->ctx, "abcdef", 6);
  assert_int_equal(lb_proc_set_ctx(p, NULL, 0), LB_SUCCESS);
  assert_null(p->ctx);
  assert_int_equal(p->ctx_len, 0);
  assert_int_equal(lb_proc_set_ctx(p, NULL, 3), LB_EINVAL);
  assert_int_equal(lb_proc_set_ctx(p, "xyz", 3), LB_SUCCESS);
  assert_memory_equal(p->ctx, "xyz", 3);
  lb_proc_free(p);
  assert_int_equal(lb_proc_alloc(2, 0, 1, NULL, 5, &p), LB_EINVAL);
  assert_int_equal(lb_proc_alloc(3, 0, 1, NULL, 0, &p), LB_SUCCESS);
  assert_null(p->ctx);
  assert_int_equal(lb_proc_set_ctx(p, "grown", 5), LB_SUCCESS);
  assert_memory_equal(p->ctx, "grown", 5);
  lb_proc_free(p);
}

static void test_policy_names(void **state)
{
  (void)state;
  for (int k = 0; k < LB_POLICY_COUNT; k++) {
    lb_policy p;
    assert_int_equal(lb_policy_from_name(lb_policy_name((lb_policy)k), &p), LB_SUCCESS);
    assert_int_equal(p, k);
    assert_non_null(strstr(lb_policy_list(), lb_policy_name((lb_policy)k)));
  }
  lb_policy p;
  assert_int_equal(lb_policy_from_name("fastest", &p), LB_EINVAL);
  assert_non_null(strstr(lb_errmsg(), "unknown policy 'fastest'"));
  lb_results r;
  assert_int_equal(lb_results_from_name("direct", &r), LB_SUCCESS);
  assert_int_equal(r, LB_RESULTS_DIRECT);
  assert_string_equal(lb_results_name(r), "direct");
  assert_int_equal(lb_results_from_name("home", &r), LB_EINVAL);
}

static void test_bad_params(void **state)
{
  (void)state;
  lb_topo *t;
  lb_node *nd;
  lb_node_params p;
  assert_int_equal(lb_topo_ring(4, &t), LB_SUCCESS);
  lb_node_params_default(&p);
  p.speed = 0;
  assert_int_equal(lb_node_alloc(LB_POLICY_NONE, 0, t, &p, &nd), LB_EINVAL);
  assert_non_null(strstr(lb_errmsg(), "speed 0 <= 0"));
  lb_node_params_default(&p);
  assert_int_equal(lb_node_alloc(LB_POLICY_NONE, 4, t, &p, &nd), LB_EINVAL);
  p.hop_time = 0;
  assert_int_equal(lb_node_alloc(LB_POLICY_NONE, 0, t, &p, &nd), LB_EINVAL);
  /* Second-order diffusion needs beta: prepare sets beta_opt, which on a
   * ring of 4 (Boillat alpha 1/3) is 2 / (1 + sqrt(1 - 1/9)). */
  lb_node_params_default(&p);
  assert_int_equal(lb_node_alloc(LB_POLICY_DIFFUSION2, 0, t, &p, &nd), LB_EINVAL);
  assert_int_equal(lb_policy_prepare(LB_POLICY_DIFFUSION2, t, &p), LB_SUCCESS);
  assert_close(p.diffusion.beta, 2 / (1 + sqrt(1 - 1.0 / 9)), 1e-9);
  assert_int_equal(lb_node_alloc(LB_POLICY_DIFFUSION2, 0, t, &p, &nd), LB_SUCCESS);
  lb_node_free(nd);
  p.cchspmd.controller = 9;
  assert_int_equal(lb_policy_prepare(LB_POLICY_CCHSPMD, t, &p), LB_EINVAL);
  lb_topo_free(t);
}

/* One node of a ring of 3 (the topology is borrowed), driven by hand. */
typedef struct bench {
  lb_node *nd;
  lb_out *out;
  double now;
} bench;

static void bench_new(bench *b, const lb_topo *t, lb_policy pol, size_t id, const lb_node_params *p)
{
  assert_int_equal(lb_node_alloc(pol, id, t, p, &b->nd), LB_SUCCESS);
  assert_int_equal(lb_out_alloc(&b->out), LB_SUCCESS);
  b->now = 0;
}

/* A node of policy none, the id-th of ring:3, at the default
 * parameters (the node keeps its own copy); returns the ring. */
static lb_topo *bench_none(bench *b, size_t id)
{
  lb_node_params p;
  lb_node_params_default(&p);
  lb_topo *t;
  assert_int_equal(lb_topo_ring(3, &t), LB_SUCCESS);
  bench_new(b, t, LB_POLICY_NONE, id, &p);
  return t;
}

static void bench_free(bench *b)
{
  lb_out_free(b->out);
  lb_node_free(b->nd);
}

static void arrive(bench *b, uint64_t id, size_t origin, double work)
{
  lb_proc *pr;
  assert_int_equal(lb_proc_alloc(id, origin, work, NULL, 0, &pr), LB_SUCCESS);
  lb_event ev = {.type = LB_EV_ARRIVE, .proc = pr};
  assert_int_equal(lb_node_step(b->nd, &ev, b->now, b->out), LB_SUCCESS);
}

/* A process that arrives with what a host knows of it: its declared
 * work est and the work ran of it on earlier nodes. */
static void arrive_known(bench *b, uint64_t id, double work, float est, float ran)
{
  lb_proc *pr;
  assert_int_equal(lb_proc_alloc(id, 0, work, NULL, 0, &pr), LB_SUCCESS);
  pr->est = est;
  pr->ran = ran;
  lb_event ev = {.type = LB_EV_ARRIVE, .proc = pr};
  assert_int_equal(lb_node_step(b->nd, &ev, b->now, b->out), LB_SUCCESS);
}

/* One quantum of at most q work units of the head; returns its id. */
static uint64_t quantum(bench *b, double q)
{
  const lb_proc *cur = lb_node_current(b->nd);
  assert_non_null(cur);
  uint64_t id = cur->id;
  double w = cur->work < q ? cur->work : q;
  b->now += w;
  lb_event ev = {.type = LB_EV_RAN, .pid = id, .work_done = w, .finished = cur->work - w <= 0, .result_len = 8};
  assert_int_equal(lb_node_step(b->nd, &ev, b->now, b->out), LB_SUCCESS);
  return id;
}

/* Completion time of each process under the two schedules: works 1, 2
 * and 3, quanta of 1.  FIFO: 1, 3, 6.  Round robin: p0 at 1; then p1,
 * p2, p1 (done at 4), p2, p2 (done at 6). */
static void schedule_case(lb_sched sched, const double *want)
{
  lb_node_params p;
  lb_node_params_default(&p);
  p.sched = sched;
  lb_topo *t;
  assert_int_equal(lb_topo_ring(3, &t), LB_SUCCESS);
  bench b;
  bench_new(&b, t, LB_POLICY_NONE, 1, &p);
  for (uint64_t k = 0; k < 3; k++) arrive(&b, k, 1, 1.0 + (double)k);
  double done[3] = {-1, -1, -1};
  while (lb_node_current(b.nd)) {
    quantum(&b, 1);
    for (size_t k = 0; k < b.out->n; k++) {
      const lb_out_item *it = &b.out->v[k];
      if (it->type == LB_OUT_HOME) done[it->res.pid] = b.now;
    }
    lb_out_clear(b.out);
  }
  for (int k = 0; k < 3; k++) assert_close(done[k], want[k], 0);
  bench_free(&b);
  lb_topo_free(t);
}

static void test_schedules(void **state)
{
  (void)state;
  schedule_case(LB_SCHED_FIFO, (double[]){1, 3, 6});
  schedule_case(LB_SCHED_RR, (double[]){1, 4, 6});
}

/* Policy none: every process runs here and its result is home and
 * delivered here, exactly once; it never sends anything, and refuses
 * policy messages. */
static void test_none_runs_locally(void **state)
{
  (void)state;
  bench b;
  lb_topo *t = bench_none(&b, 1);
  for (uint64_t k = 0; k < 10; k++) arrive(&b, k, 1, 1.0 + (double)k);
  assert_int_equal(lb_node_queue_len(b.nd), 10);
  assert_int_equal(lb_node_state(b.nd), 1); /* 10 > 4 + 1: heavy */
  int homed[10] = {0}, delivered[10] = {0};
  while (lb_node_current(b.nd)) {
    quantum(&b, 0.5);
    for (size_t k = 0; k < b.out->n; k++) {
      const lb_out_item *it = &b.out->v[k];
      assert_true(it->type == LB_OUT_HOME || it->type == LB_OUT_DELIVER);
      assert_int_equal(it->res.origin, 1);
      assert_int_equal(it->res.len, 8);
      if (it->type == LB_OUT_HOME) homed[it->res.pid]++;
      else delivered[it->res.pid]++;
    }
    lb_out_clear(b.out);
  }
  for (int k = 0; k < 10; k++) assert_true(homed[k] == 1 && delivered[k] == 1);
  assert_close(b.now, 55, 1e-12); /* sum of work 1..10 at speed 1 */
  const lb_node_stats *st = lb_node_stats_get(b.nd);
  assert_int_equal(st->executed, 10);
  assert_int_equal(st->homed, 10);
  assert_int_equal(st->delivered, 10);
  assert_int_equal(st->bytes, 0);
  assert_true(lb_node_quiescent(b.nd));
  /* Running a process it does not hold is a protocol error. */
  lb_event bad = {.type = LB_EV_RAN, .pid = 99, .work_done = 1};
  assert_int_equal(lb_node_step(b.nd, &bad, b.now, b.out), LB_ESTATE);
  lb_msg *m;
  assert_int_equal(lb_msg_alloc(LB_MSG_RM, 0, 1, &m), LB_SUCCESS);
  lb_event em = {.type = LB_EV_MSG, .msg = m};
  assert_int_equal(lb_node_step(b.nd, &em, b.now, b.out), LB_ESTATE);
  /* A message for another node is refused too. */
  assert_int_equal(lb_msg_alloc(LB_MSG_LOAD, 0, 2, &m), LB_SUCCESS);
  em.msg = m;
  assert_int_equal(lb_node_step(b.nd, &em, b.now, b.out), LB_ESTATE);
  bench_free(&b);
  lb_topo_free(t);
}

/* An outside order moves processes whatever the policy: never the head,
 * the ones with the most work left first; under round robin they have
 * started.  The receiver takes the TRANSFER, runs them, and their
 * results go back to the origin: the bytes with them (origin mode), or
 * delivered where they ran with a receipt going home (direct mode). */
static void order_case(lb_results mode)
{
  lb_node_params p;
  lb_node_params_default(&p);
  p.results = mode;
  lb_topo *t;
  assert_int_equal(lb_topo_ring(3, &t), LB_SUCCESS);
  bench a, b;
  bench_new(&a, t, LB_POLICY_NONE, 0, &p);
  bench_new(&b, t, LB_POLICY_NONE, 2, &p);
  for (uint64_t k = 0; k < 4; k++) arrive_known(&a, k, 10.0 + (double)k, 10.0f + (float)k, 0);
  for (int k = 0; k < 4; k++) quantum(&a, 1); /* each has run once */
  lb_out_clear(a.out);
  uint64_t head = lb_node_current(a.nd)->id;
  lb_event ord = {.type = LB_EV_ORDER, .dst = 2, .count = 2};
  assert_int_equal(lb_node_step(a.nd, &ord, a.now, a.out), LB_SUCCESS);
  assert_int_equal(a.out->n, 1);
  lb_msg *m = lb_out_take_msg(a.out, 0);
  lb_out_clear(a.out);
  assert_int_equal(m->type, LB_MSG_TRANSFER);
  assert_int_equal(m->dst, 2);
  assert_int_equal(m->nproc, 2);
  for (size_t k = 0; k < 2; k++) {
    assert_true(m->procs[k]->id != head);
    assert_true(m->procs[k]->id >= 2); /* most work left: 12, 13 */
    assert_int_equal(m->procs[k]->quanta, 1);
    assert_int_equal(m->procs[k]->hops, 1);
  }
  assert_int_equal(lb_node_stats_get(a.nd)->migrated_started, 2);
  lb_event em = {.type = LB_EV_MSG, .msg = m};
  assert_int_equal(lb_node_step(b.nd, &em, b.now, b.out), LB_SUCCESS);
  assert_int_equal(lb_node_queue_len(b.nd), 2);
  size_t results = 0, delivered = 0;
  while (lb_node_current(b.nd)) {
    quantum(&b, 100);
    for (size_t k = 0; k < b.out->n; k++) {
      lb_out_item *it = &b.out->v[k];
      if (it->type == LB_OUT_DELIVER) {
        delivered++;
        continue;
      }
      assert_int_equal(it->type, LB_OUT_SEND);
      assert_int_equal(it->msg->type, LB_MSG_RESULT);
      assert_int_equal(it->msg->res.origin, 0);
      assert_int_equal(it->msg->res.payload, mode == LB_RESULTS_ORIGIN);
      lb_msg *r = lb_out_take_msg(b.out, k);
      lb_event er = {.type = LB_EV_MSG, .msg = r};
      assert_int_equal(lb_node_step(a.nd, &er, b.now, a.out), LB_SUCCESS);
      results++;
    }
    lb_out_clear(b.out);
  }
  assert_int_equal(results, 2);
  assert_int_equal(delivered, mode == LB_RESULTS_DIRECT ? 2 : 0);
  /* At the origin: HOME for both, DELIVER only when the bytes came too. */
  size_t home = 0, here = 0;
  for (size_t k = 0; k < a.out->n; k++) {
    home += a.out->v[k].type == LB_OUT_HOME;
    here += a.out->v[k].type == LB_OUT_DELIVER;
  }
  assert_int_equal(home, 2);
  assert_int_equal(here, mode == LB_RESULTS_ORIGIN ? 2 : 0);
  /* An order to itself or to no node is refused. */
  ord.dst = 0;
  assert_int_equal(lb_node_step(a.nd, &ord, a.now, a.out), LB_EINVAL);
  bench_free(&a);
  bench_free(&b);
  lb_topo_free(t);
}

/* The node picks the leaving process by what a host knows (declared
 * work less work run), never by the true work left, which only the
 * simulator holds: the same choice in both drivers. */
static void test_take_movable_known_work(void **state)
{
  (void)state;
  bench b;
  lb_topo *t = bench_none(&b, 0);
  arrive_known(&b, 0, 50, 50, 0); /* the head: never taken */
  arrive_known(&b, 1, 40, 4, 0);  /* most true work, little declared: 4 */
  arrive_known(&b, 2, 3, 9, 0);   /* 9 */
  arrive_known(&b, 3, 9, 12, 6);  /* 12 - 6 = 6 */
  arrive_known(&b, 4, 7, 6, 0);   /* 6, a tie with 3: nearer the tail */
  uint64_t want[] = {2, 4, 3, 1};
  for (size_t k = 0; k < 4; k++) {
    lb_proc *pr = lb_node_take_movable(b.nd);
    assert_non_null(pr);
    assert_int_equal(pr->id, want[k]);
    lb_proc_free(pr);
  }
  assert_null(lb_node_take_movable(b.nd)); /* only the head is left */
  assert_int_equal(lb_node_queue_len(b.nd), 1);
  /* With no estimate, the least run leaves first. */
  arrive_known(&b, 5, 30, 0, 2);
  arrive_known(&b, 6, 1, 0, 0.5f);
  arrive_known(&b, 7, 30, 0, 3);
  lb_proc *pr = lb_node_take_movable(b.nd);
  assert_non_null(pr);
  assert_int_equal(pr->id, 6);
  lb_proc_free(pr);
  bench_free(&b);
  lb_topo_free(t);
}

/* A quantum's context: the whole of it, or only its first bytes
 * (ctx_head), the rest and the length kept; a context shorter than the
 * bytes given becomes them. */
static void test_ran_context_head(void **state)
{
  (void)state;
  bench b;
  lb_topo *t = bench_none(&b, 0);
  lb_proc *pr;
  assert_int_equal(lb_proc_alloc(1, 0, 5, "0123456789abcdef", 16, &pr), LB_SUCCESS);
  lb_event ev = {.type = LB_EV_ARRIVE, .proc = pr};
  assert_int_equal(lb_node_step(b.nd, &ev, 0, b.out), LB_SUCCESS);
  const lb_proc *cur = lb_node_current(b.nd);
  lb_event ran = {.type = LB_EV_RAN, .pid = 1, .work_done = 1, .ctx = "ABCD", .ctx_len = 4, .ctx_head = 1};
  assert_int_equal(lb_node_step(b.nd, &ran, 0, b.out), LB_SUCCESS);
  assert_int_equal(cur->ctx_len, 16);
  assert_memory_equal(cur->ctx, "ABCD456789abcdef", 16);
  ran.ctx = "wxyz";
  ran.ctx_head = 0; /* the whole context */
  assert_int_equal(lb_node_step(b.nd, &ran, 0, b.out), LB_SUCCESS);
  assert_int_equal(cur->ctx_len, 4);
  assert_memory_equal(cur->ctx, "wxyz", 4);
  ran.ctx = "0123456789";
  ran.ctx_len = 10;
  ran.ctx_head = 1; /* longer than the context */
  assert_int_equal(lb_node_step(b.nd, &ran, 0, b.out), LB_SUCCESS);
  assert_int_equal(cur->ctx_len, 10);
  assert_memory_equal(cur->ctx, "0123456789", 10);
  bench_free(&b);
  lb_topo_free(t);
}

static void test_order_origin(void **s)
{
  (void)s;
  order_case(LB_RESULTS_ORIGIN);
}
static void test_order_direct(void **s)
{
  (void)s;
  order_case(LB_RESULTS_DIRECT);
}

static void reply(bench *b, size_t from, long q, uint64_t round)
{
  lb_msg *m;
  assert_int_equal(lb_msg_alloc(LB_MSG_REPLY, from, 0, &m), LB_SUCCESS);
  m->u.reply.q = q;
  m->u.reply.round = round;
  lb_event ev = {.type = LB_EV_MSG, .msg = m};
  assert_int_equal(lb_node_step(b->nd, &ev, b->now, b->out), LB_SUCCESS);
}

static size_t transfers(bench *b, size_t *dst)
{
  size_t n = 0;
  for (size_t k = 0; k < b->out->n; k++)
    if (b->out->v[k].type == LB_OUT_SEND && b->out->v[k].msg->type == LB_MSG_TRANSFER) {
      *dst = b->out->v[k].dst;
      n++;
    }
  return n;
}

/* LOWEST counts only the first answer of each node it probed: a reply
 * from a node it did not probe, or a second one, cannot end the round
 * or win the processes. */
static void test_lowest_counts_probed_replies(void **state)
{
  (void)state;
  lb_node_params p;
  lb_node_params_default(&p);
  p.lowest.probes = 2;
  lb_topo *t;
  assert_int_equal(lb_topo_from_spec("complete:4", &t), LB_SUCCESS);
  bench b;
  bench_new(&b, t, LB_POLICY_LOWEST, 0, &p);
  for (uint64_t k = 0; k < 10; k++) arrive(&b, k, 0, 5);
  lb_out_clear(b.out);
  lb_event tick = {.type = LB_EV_TICK};
  assert_int_equal(lb_node_step(b.nd, &tick, b.now, b.out), LB_SUCCESS);
  size_t probed[2], np = 0, other = 0;
  for (size_t k = 0; k < b.out->n; k++)
    if (b.out->v[k].type == LB_OUT_SEND && b.out->v[k].msg->type == LB_MSG_PROBE) probed[np++] = b.out->v[k].dst;
  assert_int_equal(np, 2);
  while (other == 0 || other == probed[0] || other == probed[1]) other++;
  lb_out_clear(b.out);
  size_t dst = 0;
  reply(&b, other, 0, 1);     /* not probed */
  reply(&b, probed[0], 9, 1); /* probed, heavy */
  reply(&b, probed[0], 9, 1); /* the same again */
  assert_int_equal(transfers(&b, &dst), 0);
  reply(&b, probed[1], 0, 1); /* probed, light: the round ends */
  assert_int_equal(transfers(&b, &dst), 1);
  assert_int_equal(dst, probed[1]);
  lb_out_clear(b.out);
  bench_free(&b);
  lb_topo_free(t);
}

/* A driver's totals: every count of every node, added. */
static void test_stats_add(void **state)
{
  (void)state;
  lb_node_stats a, b, sum = {0};
  unsigned long *x = (unsigned long *)&a, *y = (unsigned long *)&b;
  size_t n = sizeof a / sizeof *x;
  for (size_t k = 0; k < n; k++) {
    x[k] = k + 1;
    y[k] = 1000 * (k + 1);
  }
  lb_node_stats_add(&sum, &a);
  lb_node_stats_add(&sum, &b);
  const unsigned long *z = (const unsigned long *)&sum;
  for (size_t k = 0; k < n; k++) assert_int_equal(z[k], 1001 * (k + 1));
  assert_int_equal(sum.placed[7], b.placed[7] + a.placed[7]);
  assert_int_equal(sum.dissolved, 1001 * n); /* the last count */
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_lowest_counts_probed_replies),
      cmocka_unit_test(test_proc_msg_copy),
      cmocka_unit_test(test_proc_context),
      cmocka_unit_test(test_policy_names),
      cmocka_unit_test(test_bad_params),
      cmocka_unit_test(test_schedules),
      cmocka_unit_test(test_none_runs_locally),
      cmocka_unit_test(test_take_movable_known_work),
      cmocka_unit_test(test_ran_context_head),
      cmocka_unit_test(test_order_origin),
      cmocka_unit_test(test_order_direct),
      cmocka_unit_test(test_stats_add),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
