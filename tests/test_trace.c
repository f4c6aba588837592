/* The trace format of lb/lb_trace.h: rows formatted and parsed back, the
 * state intervals of one host, and the runtime's numbering: lb_rt gives
 * each message it sends a number (its own count, or the driver's), and
 * traces each message a node takes in under the number it came with. */
#include "testutil.h"
#include "lb_trace.h"
#include "lb_rt.h"
#include "lb_errno.h"

static void row_round_trip(const lb_trace_row *r, const char *want)
{
  char b[LB_TRACE_ROW_MAX], c[LB_TRACE_ROW_MAX];
  size_t n;
  assert_int_equal(lb_trace_format(r, b, sizeof b, &n), LB_SUCCESS);
  assert_string_equal(b, want);
  assert_int_equal(n, strlen(want));
  memcpy(c, b, n + 1);
  lb_trace_row p;
  assert_int_equal(lb_trace_parse(c, 2, &p), LB_SUCCESS);
  assert_int_equal(lb_trace_format(&p, c, sizeof c, &n), LB_SUCCESS);
  assert_string_equal(c, want);
}

static void test_rows(void **state)
{
  (void)state;
  lb_msg *m;
  assert_int_equal(lb_msg_alloc(LB_MSG_AM, 4, 0, &m), LB_SUCCESS);
  m->hop_src = 4;
  m->hop_dst = 3;
  m->u.am.hv = 0;
  m->u.am.lv = 4;
  m->u.am.tag = 9;
  m->u.am.ipn = 2;
  m->trace_id = 17;
  lb_trace_row r;
  lb_trace_msg(&r, LB_TRACE_SEND, 1.5, 4, m);
  char want[LB_TRACE_ROW_MAX];
  snprintf(want, sizeof want, "1.500000000,4,AM,4,3,0,4,9,2,0,%zu,send,17,", lb_msg_size(m));
  row_round_trip(&r, want);
  lb_trace_msg(&r, LB_TRACE_RECV, 1.75, 3, m);
  snprintf(want, sizeof want, "1.750000000,3,AM,4,3,0,4,9,2,0,%zu,recv,17,", lb_msg_size(m));
  row_round_trip(&r, want);
  lb_msg_free(m);
  lb_trace_payload(&r, LB_TRACE_SEND, LB_TRACE_DELIVER, 2, 1, 1, -1, 77, 150);
  row_round_trip(&r, "2.000000000,1,DELIVER,1,-1,,,,77,0,150,send,,");
  lb_trace_state(&r, 2, LB_HOST_IDLE, 0.25, 0.5);
  row_round_trip(&r, "0.250000000,2,idle,,,,,,,,,state,,0.500000000");
  /* What the format cannot hold, or a buffer too small. */
  char b[LB_TRACE_ROW_MAX];
  size_t n;
  lb_trace_state(&r, 2, LB_HOST_IDLE, 0.5, 0.25);
  assert_int_equal(lb_trace_format(&r, b, sizeof b, &n), LB_EINVAL);
  lb_trace_state(&r, 2, LB_HOST_IDLE, NAN, 1);
  assert_int_equal(lb_trace_format(&r, b, sizeof b, &n), LB_EINVAL);
  lb_trace_state(&r, 2, LB_HOST_IDLE, 0.25, 0.5);
  assert_int_equal(lb_trace_format(&r, b, 20, &n), LB_ERANGE);
  /* Version 1's rows are sends without an id. */
  char v1[] = "0.25,0,RM,0,1,0,,,4,0,60";
  assert_int_equal(lb_trace_parse(v1, 1, &r), LB_SUCCESS);
  assert_true(r.ev == LB_TRACE_SEND && !r.has_id && r.keys == LB_TRACE_HV && r.count == 4);
  assert_int_equal(lb_trace_columns_version(lb_trace_columns()), 2);
  assert_int_equal(lb_trace_columns_version(lb_trace_columns_v1()), 1);
  assert_int_equal(lb_trace_columns_version("time,host"), 0);
  char meta[] = "# clock: one clock, exact", *notmeta = (char[]){"#clock: x"};
  const char *k, *v;
  assert_true(lb_trace_meta_parse(meta, &k, &v));
  assert_string_equal(k, "clock");
  assert_string_equal(v, "one clock, exact");
  assert_false(lb_trace_meta_parse(notmeta, &k, &v));
  assert_int_equal(lb_trace_meta(b, sizeof b, "Clock", "x"), LB_EINVAL);
  assert_int_equal(lb_trace_meta(b, sizeof b, "clock", "a\nb"), LB_EINVAL);
}

static void test_states(void **state)
{
  (void)state;
  lb_trace_states st;
  lb_trace_row r;
  lb_trace_states_init(&st);
  assert_int_equal(lb_trace_enter(&st, 3, LB_HOST_BUSY, 0, &r), 0);
  assert_int_equal(lb_trace_enter(&st, 3, LB_HOST_BUSY, 1, &r), 0); /* goes on */
  assert_int_equal(lb_trace_enter(&st, 3, LB_HOST_IDLE, 2, &r), 1);
  assert_true(r.ev == LB_TRACE_STATE && r.host == 3 && r.type == LB_HOST_BUSY && r.t == 0 && r.end == 2);
  assert_int_equal(lb_trace_enter(&st, 3, LB_HOST_BALANCING, 2, &r), 0); /* idle for no time */
  assert_int_equal(lb_trace_enter(&st, 3, LB_HOST_IDLE, 1.5, &r), 0);    /* a clock read late: at 2 */
  assert_int_equal(lb_trace_leave(&st, 3, 2.5, &r), 1);
  assert_true(r.type == LB_HOST_IDLE && r.t == 2 && r.end == 2.5);
  assert_int_equal(lb_trace_leave(&st, 3, 3, &r), 0); /* none open */
}

/* Two runtimes of policy none on ring:3: node 0 transfers by order, its
 * rows and the message's number are kept here, node 1 takes it in. */
typedef struct side {
  char rows[4][LB_TRACE_ROW_MAX];
  int n;
  lb_msg *sent;
  uint32_t next;
} side;
static int cb_send(void *ctx, lb_msg *m, double now)
{
  (void)now;
  ((side *)ctx)->sent = m;
  return LB_SUCCESS;
}
static int cb_deliver(void *ctx, const lb_result_ref *r, double now)
{
  (void)ctx;
  (void)r;
  (void)now;
  return 0;
}
static void cb_trace(void *ctx, const char *row)
{
  side *s = ctx;
  if (s->n < 4) snprintf(s->rows[s->n++], LB_TRACE_ROW_MAX, "%s", row);
}
static uint32_t cb_id(void *ctx) { return ((side *)ctx)->next++; } /* as a transport counts */

static void transfer(const lb_rt_ops *ops, uint32_t want)
{
  lb_topo *t;
  assert_int_equal(lb_topo_ring(3, &t), LB_SUCCESS);
  lb_node_params p;
  lb_node_params_default(&p);
  side a = {.next = 41}, b = {0};
  lb_rt *ra, *rb;
  assert_int_equal(lb_rt_alloc(LB_POLICY_NONE, 0, t, &p, ops, &a, &ra), LB_SUCCESS);
  assert_int_equal(lb_rt_alloc(LB_POLICY_NONE, 1, t, &p, ops, &b, &rb), LB_SUCCESS);
  for (uint64_t k = 0; k < 3; k++) {
    lb_proc *pr;
    assert_int_equal(lb_proc_alloc(k, 0, 5, NULL, 0, &pr), LB_SUCCESS);
    lb_event ev = {.type = LB_EV_ARRIVE, .proc = pr};
    assert_int_equal(lb_rt_step(ra, &ev, 0), LB_SUCCESS);
  }
  lb_event ord = {.type = LB_EV_ORDER, .dst = 1, .count = 1};
  for (int k = 0; k < 2; k++) {
    a.sent = NULL;
    assert_int_equal(lb_rt_step(ra, &ord, 1 + k), LB_SUCCESS);
    assert_non_null(a.sent);
    assert_int_equal(a.sent->trace_id, want + (uint32_t)k);
    assert_int_equal(lb_rt_step(rb, &(lb_event){.type = LB_EV_MSG, .msg = a.sent}, 2 + k), LB_SUCCESS);
  }
  char w[LB_TRACE_ROW_MAX];
  assert_int_equal(a.n, 2);
  assert_int_equal(b.n, 2);
  for (int k = 0; k < 2; k++) {
    snprintf(w, sizeof w, ",send,%u,", want + (uint32_t)k);
    assert_non_null(strstr(a.rows[k], w));
    assert_non_null(strstr(a.rows[k], ",0,TRANSFER,0,1,"));
    snprintf(w, sizeof w, ",recv,%u,", want + (uint32_t)k);
    assert_non_null(strstr(b.rows[k], w));
    assert_non_null(strstr(b.rows[k], ",1,TRANSFER,0,1,"));
  }
  assert_int_equal(lb_node_queue_len(lb_rt_node(rb)), 2);
  lb_rt_free(ra);
  lb_rt_free(rb);
  lb_topo_free(t);
}

static void test_numbering(void **state)
{
  (void)state;
  const lb_rt_ops own = {.send = cb_send, .deliver = cb_deliver, .trace = cb_trace};
  const lb_rt_ops drivers = {.send = cb_send, .deliver = cb_deliver, .trace = cb_trace, .msg_id = cb_id};
  transfer(&own, 1);      /* the runtime counts: 1, 2 */
  transfer(&drivers, 41); /* the driver's: 41, 42 */
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_rows),
      cmocka_unit_test(test_states),
      cmocka_unit_test(test_numbering),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
