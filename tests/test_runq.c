/* The run queue against a model of it: which process a migration takes
 * (never the head; the most work left by what a host knows, declared
 * work less work run, the latest in the queue on ties), through queues short enough to be scanned and long enough to
 * be indexed (lb_qindex.h), under both schedules, with processes
 * arriving, running, finishing, running out of turn, discarded and
 * moved in and out in between, one by one and many at once. */
#include "testutil.h"
#include "lb_node_impl.h"
#include "lb_errno.h"
#include "lb_mem.h"

/* The model: the queue's ids, true work, declared work and work run,
 * head first. */
typedef struct model {
  uint64_t *id;
  double *work;
  float *est, *ran;
  size_t n, cap;
} model;

static void m_push(model *m, uint64_t id, double work, float est, float ran)
{
  if (m->n == m->cap) {
    m->cap = m->cap ? 2 * m->cap : 64;
    m->id = realloc(m->id, m->cap * sizeof *m->id);
    m->work = realloc(m->work, m->cap * sizeof *m->work);
    m->est = realloc(m->est, m->cap * sizeof *m->est);
    m->ran = realloc(m->ran, m->cap * sizeof *m->ran);
    assert_non_null(m->id);
    assert_non_null(m->work);
    assert_non_null(m->est);
    assert_non_null(m->ran);
  }
  m->id[m->n] = id;
  m->work[m->n] = work;
  m->est[m->n] = est;
  m->ran[m->n++] = ran;
}

static void m_remove(model *m, size_t k)
{
  memmove(m->id + k, m->id + k + 1, (m->n - k - 1) * sizeof *m->id);
  memmove(m->work + k, m->work + k + 1, (m->n - k - 1) * sizeof *m->work);
  memmove(m->est + k, m->est + k + 1, (m->n - k - 1) * sizeof *m->est);
  memmove(m->ran + k, m->ran + k + 1, (m->n - k - 1) * sizeof *m->ran);
  m->n--;
}

static double m_left(const model *m, size_t k) { return (double)m->est[k] - (double)m->ran[k]; }

/* The rule, by brute force: of q[1..n-1], the most known work left, the
 * last on ties. */
static size_t m_best(const model *m)
{
  size_t best = 0;
  for (size_t k = 1; k < m->n; k++)
    if (!best || m_left(m, k) >= m_left(m, best)) best = k;
  return best;
}

static uint64_t rnd(uint64_t *s)
{
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}

/* Work from a few values, so ties are common; zero sometimes. */
static double some_work(uint64_t *s) { return 0.5 * (double)(rnd(s) % 7); }

static void same_queue(const lb_node *nd, const model *m)
{
  assert_int_equal(lb_node_queue_len(nd), m->n);
  uint64_t *ids = malloc((m->n + 1) * sizeof *ids);
  assert_non_null(ids);
  assert_int_equal(lb_node_queue_ids(nd, ids, m->n), m->n);
  for (size_t k = 0; k < m->n; k++) assert_int_equal(ids[k], m->id[k]);
  free(ids);
}

static void step(lb_node *nd, lb_event *ev, lb_out *out) { assert_int_equal(lb_node_step(nd, ev, 0, out), LB_SUCCESS); }

/* Runs of operations that grow the queue to `peak` processes, drain it,
 * and grow it again, checking every process a migration takes. */
static void runq_case(lb_sched sched, size_t peak, uint64_t seed)
{
  lb_topo *t;
  assert_int_equal(lb_topo_ring(3, &t), LB_SUCCESS);
  lb_node_params p;
  lb_node_params_default(&p);
  p.sched = sched;
  lb_node *nd;
  lb_out *out;
  assert_int_equal(lb_node_alloc(LB_POLICY_NONE, 0, t, &p, &nd), LB_SUCCESS);
  assert_int_equal(lb_out_alloc(&out), LB_SUCCESS);
  model m = {0};
  uint64_t s = seed, next = 0;
  size_t taken = 0, indexed = 0;
  for (int phase = 0; phase < 4; phase++) {
    int grow = phase % 2 == 0;
    for (int op = 0; op < 6000; op++) {
      unsigned r = (unsigned)(rnd(&s) % 100);
      if (grow ? m.n < peak && r < 45 : r < 8) { /* arrivals, one by one or as a TRANSFER */
        size_t c = r % 3 ? 1 : 1 + rnd(&s) % 20;
        lb_msg *tm;
        assert_int_equal(lb_msg_alloc(LB_MSG_TRANSFER, 1, 0, &tm), LB_SUCCESS);
        for (size_t i = 0; i < c; i++) {
          lb_proc *pr;
          double w = some_work(&s);
          assert_int_equal(lb_proc_alloc(next, 0, w, NULL, 0, &pr), LB_SUCCESS);
          /* declared work: none now and then, else from a few values
           * (ties), not always the true work; some already run */
          pr->est = r % 5 == 0 ? 0 : (float)(2 * some_work(&s));
          pr->ran = r % 7 == 0 ? 0.5f : 0;
          m_push(&m, next++, w, pr->est, pr->ran);
          if (c == 1) {
            lb_event ev = {.type = LB_EV_ARRIVE, .proc = pr};
            step(nd, &ev, out);
          } else assert_int_equal(lb_msg_add_proc(tm, pr), LB_SUCCESS);
        }
        if (c == 1) lb_msg_free(tm);
        else {
          tm->hop_src = 1;
          tm->hop_dst = 0;
          lb_event ev = {.type = LB_EV_MSG, .msg = tm};
          step(nd, &ev, out);
        }
      } else if (r < 75 && m.n) { /* a quantum: of the head, or now and then of another */
        size_t k = r % 10 == 0 ? (size_t)(rnd(&s) % m.n) : 0;
        double w = r % 4 ? 0.5 : 0;
        int fin = m.work[k] - w <= 0 && r % 3 == 0;
        lb_event ev = {.type = LB_EV_RAN, .pid = m.id[k], .work_done = w, .finished = fin, .result_len = 8};
        step(nd, &ev, out);
        uint64_t id = m.id[k];
        double left = m.work[k] - w < 0 ? 0 : m.work[k] - w;
        float est = m.est[k], ran = m.ran[k] + (float)w;
        if (fin) m_remove(&m, k);
        else {
          m.work[k] = left;
          m.ran[k] = ran;
          if (sched == LB_SCHED_RR && m.n > 1) {
            m_remove(&m, k);
            m_push(&m, id, left, est, ran);
          }
        }
      } else if (r < 97) { /* a migration of one to four, or now and then of up to a third of the queue */
        long c = 1 + (long)(rnd(&s) % (r % 8 == 0 ? m.n / 3 + 1 : 4));
        lb_event ev = {.type = LB_EV_ORDER, .dst = 1, .count = c};
        indexed += nd->qx != NULL;
        step(nd, &ev, out);
        lb_msg *tm = out->n ? lb_out_take_msg(out, 0) : NULL;
        for (long i = 0; i < c; i++) {
          size_t b = m_best(&m);
          if (!b) {
            assert_true(!tm || (size_t)i == tm->nproc);
            break;
          }
          assert_non_null(tm);
          assert_true((size_t)i < tm->nproc);
          assert_int_equal(tm->procs[i]->id, m.id[b]);
          assert_true(tm->procs[i]->work == m.work[b]);
          assert_true(tm->procs[i]->ran == m.ran[b]);
          m_remove(&m, b);
          taken++;
        }
        lb_msg_free(tm);
      } else if (m.n) { /* the driver cannot run one */
        size_t k = (size_t)(rnd(&s) % m.n);
        lb_event ev = {.type = LB_EV_DISCARD, .pid = m.id[k]};
        step(nd, &ev, out);
        m_remove(&m, k);
      }
      lb_out_clear(out);
      if (op % 97 == 0) same_queue(nd, &m);
    }
    same_queue(nd, &m);
  }
  /* The long queues were indexed, the short ones scanned. */
  assert_true(taken > 1000);
  if (peak >= LB_NODE_QX_MIN) assert_true(indexed > 100);
  lb_out_free(out);
  lb_node_free(nd);
  lb_topo_free(t);
  free(m.id);
  free(m.work);
  free(m.est);
  free(m.ran);
}

/* A counting allocator (lb_mem.h) that refuses the fail_at-th block. */
typedef struct counting {
  unsigned long n, fail_at;
  long blocks;
} counting;

static void *count_alloc(void *ctx, size_t size)
{
  counting *c = ctx;
  if (++c->n == c->fail_at) return NULL;
  void *p = size && size % 64 == 0 ? aligned_alloc(64, size) : malloc(size ? size : 1);
  if (p) c->blocks++;
  return p;
}

static void count_free(void *ctx, void *p, size_t size)
{
  (void)size;
  counting *c = ctx;
  if (!p) return;
  c->blocks--;
  free(p);
}

/* Out of memory while a queue grows past the size that has an index and
 * on (its buffer, the index's record, numbers or heap): the arrival is
 * refused with LB_ENOMEM, the queue is as it was, and once memory is
 * back the choices are still the model's, and every block goes back. */
static void test_long_queue_out_of_memory(void **state)
{
  (void)state;
  counting c = {0};
  lb_mem mine = {.alloc = count_alloc, .free = count_free, .ctx = &c}, prev;
  lb_mem_get(&prev);
  lb_mem_set(&mine);
  lb_topo *t;
  assert_int_equal(lb_topo_ring(3, &t), LB_SUCCESS);
  lb_node_params p;
  lb_node_params_default(&p);
  lb_node *nd;
  lb_out *out;
  assert_int_equal(lb_node_alloc(LB_POLICY_NONE, 0, t, &p, &nd), LB_SUCCESS);
  assert_int_equal(lb_out_alloc(&out), LB_SUCCESS);
  model m = {0};
  uint64_t s = 7;
  size_t refused = 0;
  for (uint64_t id = 0; id < 4 * LB_NODE_QX_MIN; id++) {
    double w = some_work(&s);
    for (unsigned long k = 1;; k++) {
      lb_proc *pr;
      assert_int_equal(lb_proc_alloc(id, 0, w, NULL, 0, &pr), LB_SUCCESS);
      pr->est = (float)w;
      c.fail_at = c.n + k;
      lb_event ev = {.type = LB_EV_ARRIVE, .proc = pr};
      int rc = lb_node_step(nd, &ev, 0, out);
      int hit = c.n >= c.fail_at;
      c.fail_at = 0;
      if (!rc) {
        assert_false(hit);
        break;
      }
      assert_int_equal(rc, LB_ENOMEM); /* the process is freed: consumed either way */
      same_queue(nd, &m);
      refused++;
    }
    m_push(&m, id, w, (float)w, 0);
  }
  assert_non_null(nd->qx);
  assert_true(refused >= 8); /* growths to 8, 16, ... slots, each refused at each of its blocks */
  same_queue(nd, &m);
  /* A migration of many that finds no memory for the message or its
   * list of processes takes none. */
  for (unsigned long k = 1; k <= 2; k++) {
    c.fail_at = c.n + k;
    lb_event ord = {.type = LB_EV_ORDER, .dst = 1, .count = 100};
    assert_int_equal(lb_node_step(nd, &ord, 0, out), LB_ENOMEM);
    c.fail_at = 0;
    assert_int_equal(out->n, 0);
    same_queue(nd, &m);
  }
  for (;;) { /* everything movable leaves, in the model's order */
    lb_event ord = {.type = LB_EV_ORDER, .dst = 1, .count = 7};
    assert_int_equal(lb_node_step(nd, &ord, 0, out), LB_SUCCESS);
    if (!out->n) break;
    lb_msg *tm = lb_out_take_msg(out, 0);
    for (size_t i = 0; i < tm->nproc; i++) {
      size_t b = m_best(&m);
      assert_int_equal(tm->procs[i]->id, m.id[b]);
      m_remove(&m, b);
    }
    lb_msg_free(tm);
    lb_out_clear(out);
  }
  assert_int_equal(m.n, 1);
  lb_out_free(out);
  lb_node_free(nd);
  lb_topo_free(t);
  assert_int_equal(c.blocks, 0);
  lb_mem_set(&prev);
  free(m.id);
  free(m.work);
  free(m.est);
  free(m.ran);
}

static void test_short_rr(void **s)
{
  (void)s;
  runq_case(LB_SCHED_RR, 40, 1);
}
static void test_short_fifo(void **s)
{
  (void)s;
  runq_case(LB_SCHED_FIFO, 40, 2);
}
static void test_long_rr(void **s)
{
  (void)s;
  runq_case(LB_SCHED_RR, 3 * LB_NODE_QX_MIN, 3);
}
static void test_long_fifo(void **s)
{
  (void)s;
  runq_case(LB_SCHED_FIFO, 3 * LB_NODE_QX_MIN, 4);
}
static void test_longer_rr(void **s)
{
  (void)s;
  runq_case(LB_SCHED_RR, 10 * LB_NODE_QX_MIN, 5);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_short_rr),  cmocka_unit_test(test_short_fifo),
      cmocka_unit_test(test_long_rr),   cmocka_unit_test(test_long_fifo),
      cmocka_unit_test(test_longer_rr), cmocka_unit_test(test_long_queue_out_of_memory),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
