/* Transport solver and balancer: seed 003's worked example, brute force
 * on tiny problems, GLPK on random ones, both initial methods, bad input. */
#include "testutil.h"
#include "lb_errno.h"
#include "lb_rng.h"
#include "lb_topo.h"
#include "lb_paths.h"
#include "lb_transport.h"
#include "lb_transport_simplex.h"
#include "tp_glpk.h"

/* Feasibility: nothing negative, rows within supply, columns within
 * demand, and min(S, D) shipped.  Returns the plan's cost. */
static double check_plan(size_t m, size_t n, const double *c, const long *s, const long *d, const long *x)
{
  long S = 0, D = 0, tot = 0;
  double z = 0;
  for (size_t i = 0; i < m; i++) S += s[i];
  for (size_t j = 0; j < n; j++) D += d[j];
  for (size_t i = 0; i < m; i++) {
    long r = 0;
    for (size_t j = 0; j < n; j++) {
      assert_true(x[i * n + j] >= 0);
      r += x[i * n + j];
      z += c[i * n + j] * (double)x[i * n + j];
    }
    assert_true(r <= s[i]);
    tot += r;
  }
  for (size_t j = 0; j < n; j++) {
    long col = 0;
    for (size_t i = 0; i < m; i++) col += x[i * n + j];
    assert_true(col <= d[j]);
  }
  assert_int_equal(tot, S < D ? S : D);
  return z;
}

/* Exhaustive search over every integer plan of a tiny problem. */
static void brute(size_t m, size_t n, const double *c, long *rs, long *cd, size_t cell, long left, double z,
                  double *best)
{
  if (z >= *best) return;
  if (cell == m * n) {
    if (left == 0) *best = z;
    return;
  }
  size_t i = cell / n, j = cell % n;
  long hi = rs[i] < cd[j] ? rs[i] : cd[j];
  for (long q = 0; q <= hi; q++) {
    rs[i] -= q;
    cd[j] -= q;
    brute(m, n, c, rs, cd, cell + 1, left - q, z + c[cell] * (double)q, best);
    rs[i] += q;
    cd[j] += q;
  }
}

static void random_problem(lb_rng *r, size_t m, size_t n, long smax, double cmax, double *c, long *s, long *d)
{
  for (size_t i = 0; i < m; i++) s[i] = (long)lb_rng_below(r, (unsigned long)smax + 1);
  for (size_t j = 0; j < n; j++) d[j] = (long)lb_rng_below(r, (unsigned long)smax + 1);
  for (size_t a = 0; a < m * n; a++) c[a] = (double)lb_rng_below(r, (unsigned long)cmax + 1);
}

static void test_tp_brute_force(void **state)
{
  (void)state;
  lb_rng *r;
  assert_int_equal(lb_rng_alloc(3, &r), LB_SUCCESS);
  for (int k = 0; k < 200; k++) {
    size_t m = 1 + lb_rng_below(r, 3), n = 1 + lb_rng_below(r, 3);
    double c[9];
    long s[3], d[3], x[9], rs[3], cd[3];
    random_problem(r, m, n, 3, 9, c, s, d);
    long S = 0, D = 0;
    for (size_t i = 0; i < m; i++) {
      S += s[i];
      rs[i] = s[i];
    }
    for (size_t j = 0; j < n; j++) {
      D += d[j];
      cd[j] = d[j];
    }
    double best = INFINITY;
    brute(m, n, c, rs, cd, 0, S < D ? S : D, 0, &best);
    for (int init = 0; init < 2; init++) {
      double z;
      assert_int_equal(lb_tp_solve(m, n, c, s, d, (lb_tp_init)init, x, &z, NULL), LB_SUCCESS);
      assert_close(check_plan(m, n, c, s, d, x), z, 1e-12);
      assert_close(z, best, 1e-12);
    }
  }
  lb_rng_free(r);
}

static void test_tp_glpk(void **state)
{
  (void)state;
  lb_rng *r;
  assert_int_equal(lb_rng_alloc(7, &r), LB_SUCCESS);
  enum { MAXD = 30 };
  static double c[MAXD * MAXD];
  static long x[MAXD * MAXD];
  long s[MAXD], d[MAXD];
  for (int k = 0; k < 60; k++) {
    size_t m = 1 + lb_rng_below(r, MAXD), n = 1 + lb_rng_below(r, MAXD);
    /* Few distinct costs and small amounts make degenerate bases and
     * ties common, which is where a MODI code breaks. */
    random_problem(r, m, n, k % 2 ? 5 : 60, k % 3 ? 4 : 100, c, s, d);
    double ref;
    assert_int_equal(tp_glpk_cost(m, n, c, s, d, &ref), 0);
    for (int init = 0; init < 2; init++) {
      double z;
      lb_tp_stats st;
      assert_int_equal(lb_tp_solve(m, n, c, s, d, (lb_tp_init)init, x, &z, &st), LB_SUCCESS);
      assert_close(check_plan(m, n, c, s, d, x), z, 1e-12);
      assert_close(z, ref, 1e-9);
      assert_true(st.init_cost >= z - 1e-9);
    }
  }
  lb_rng_free(r);
}

/* Larger random instances against GLPK's primal and dual simplex (which
 * must agree with each other): few distinct costs (ties everywhere),
 * assignment problems (all amounts 1: every basis is half degenerate),
 * amounts whose running sums meet often (the starts close a row and a
 * column together), zero supplies and demands, supply above and below
 * demand, and real-valued costs. */
static void test_tp_glpk_kinds(void **state)
{
  (void)state;
  lb_rng *r;
  assert_int_equal(lb_rng_alloc(11, &r), LB_SUCCESS);
  enum { MAXD = 90 };
  static double c[MAXD * MAXD];
  static long x[MAXD * MAXD];
  long s[MAXD], d[MAXD];
  for (int k = 0; k < 48; k++) {
    int kind = k % 6;
    size_t m = 20 + lb_rng_below(r, MAXD - 19), n = 20 + lb_rng_below(r, MAXD - 19);
    if (kind == 1) n = m;
    for (size_t a = 0; a < m * n; a++)
      c[a] = kind == 5 ? lb_rng_range(r, 0, 50) : (double)(1 + lb_rng_below(r, kind == 0 ? 3 : 9));
    for (size_t i = 0; i < m; i++) s[i] = kind == 1 ? 1 : 1 + (long)lb_rng_below(r, 9);
    for (size_t j = 0; j < n; j++) d[j] = kind == 1 ? 1 : 1 + (long)lb_rng_below(r, 9);
    if (kind == 2) { /* demands cut from the supplies' running sums */
      long left = 0;
      for (size_t i = 0; i < m; i++) left += s[i];
      for (size_t j = 0; j < n; j++) {
        d[j] = j + 1 < n ? (j < m ? s[j] : 0) : left;
        left -= d[j];
        if (left < 0) {
          d[j] += left;
          left = 0;
        }
      }
    }
    if (kind == 3)
      for (size_t i = 0; i < m; i += 3) s[i] = 0;
    if (kind == 4)
      for (size_t j = 0; j < n; j += 4) d[j] = 0;
    if (kind == 3 || kind == 4) { /* one side well above the other */
      long *big = kind == 3 ? d : s;
      big[0] += 200;
    }
    double zp, zd;
    assert_int_equal(tp_glpk_solve(m, n, c, s, d, 0, &zp), 0);
    assert_int_equal(tp_glpk_solve(m, n, c, s, d, 1, &zd), 0);
    assert_close(zp, zd, 1e-9);
    for (int init = 0; init < 2; init++) {
      double z;
      lb_tp_stats st;
      assert_int_equal(lb_tp_solve(m, n, c, s, d, (lb_tp_init)init, x, &z, &st), LB_SUCCESS);
      assert_close(check_plan(m, n, c, s, d, x), z, 1e-12);
      assert_close(z, zp, 1e-9);
      assert_true(st.init_cost >= z - 1e-9);
    }
  }
  lb_rng_free(r);
}

/* Bland's rule alone (the fallback after long degenerate runs, which
 * the instances above do not reach): the same optima as GLPK on
 * degenerate and tied instances, from both starts. */
static void test_tp_bland(void **state)
{
  (void)state;
  lb_rng *r;
  assert_int_equal(lb_rng_alloc(13, &r), LB_SUCCESS);
  enum { MAXD = 25 };
  static double c[MAXD * MAXD];
  static long x[MAXD * MAXD];
  long s[MAXD], d[MAXD];
  for (int k = 0; k < 40; k++) {
    size_t m = 1 + lb_rng_below(r, MAXD), n = k % 2 ? m : 1 + lb_rng_below(r, MAXD);
    random_problem(r, m, n, k % 2 ? 1 : 6, k % 3 ? 3 : 40, c, s, d);
    double ref;
    assert_int_equal(tp_glpk_cost(m, n, c, s, d, &ref), 0);
    for (int init = 0; init < 2; init++) {
      double z;
      assert_int_equal(lb_tp_solve_bland(m, n, c, s, d, (lb_tp_init)init, 0, x, &z, NULL), LB_SUCCESS);
      assert_close(check_plan(m, n, c, s, d, x), z, 1e-12);
      assert_close(z, ref, 1e-9);
    }
  }
  lb_rng_free(r);
}

/* A classic textbook instance (3 x 4, balanced): optimum 743 whatever
 * the start; Vogel's start is already optimal here, NWC's is not. */
static void test_tp_textbook(void **state)
{
  (void)state;
  const double c[12] = {19, 30, 50, 10, 70, 30, 40, 60, 40, 8, 70, 20};
  const long s[3] = {7, 9, 18}, d[4] = {5, 8, 7, 14};
  long x[12];
  double z;
  lb_tp_stats st;
  assert_int_equal(lb_tp_solve(3, 4, c, s, d, LB_TP_NWC, x, &z, &st), LB_SUCCESS);
  assert_close(z, 743, 0);
  assert_close(st.init_cost, 1015, 0);
  assert_true(st.pivots > 0);
  assert_int_equal(lb_tp_solve(3, 4, c, s, d, LB_TP_VOGEL, x, &z, &st), LB_SUCCESS);
  assert_close(st.init_cost, 779, 0);
  assert_close(z, 743, 0);
}

static const long ex_load[10] = {100, 104, 96, 96, 99, 100, 103, 101, 102, 96};

static void run_example(lb_transport_variant v, lb_tp_init init, long *after, long *delta)
{
  lb_topo *t;
  lb_paths *p;
  assert_int_equal(lb_topo_complete(10, &t), LB_SUCCESS);
  assert_int_equal(lb_paths_alloc(10, &p), LB_SUCCESS);
  assert_int_equal(lb_paths_floyd(t, NULL, p), LB_SUCCESS);
  assert_int_equal(lb_transport_plan_paths(p, ex_load, v, init, delta), LB_SUCCESS);
  lb_transport_apply(10, ex_load, delta, after);
  lb_paths_free(p);
  lb_topo_free(t);
}

/* Seed 003's example on a complete (uniform-distance) graph.  Every
 * feasible plan is optimal there; with the north-west corner start the
 * method returns exactly the paper's outcomes: T leaves 97 on the last
 * processor, TB then takes one task from each of the first two. */
static void test_worked_example(void **state)
{
  (void)state;
  static const long t_paper[10] = {100, 100, 100, 100, 100, 100, 100, 100, 100, 97};
  static const long tb_paper[10] = {99, 99, 100, 100, 100, 100, 100, 100, 100, 99};
  long after[10], delta[100];
  run_example(LB_TRANSPORT_T, LB_TP_NWC, after, delta);
  for (int i = 0; i < 10; i++) assert_int_equal(after[i], t_paper[i]);
  long moved = 0;
  for (int a = 0; a < 100; a++) moved += delta[a];
  assert_int_equal(moved, 10); /* all excess over 100, one hop each */
  run_example(LB_TRANSPORT_TB, LB_TP_NWC, after, delta);
  for (int i = 0; i < 10; i++) assert_int_equal(after[i], tb_paper[i]);
  moved = 0;
  for (int a = 0; a < 100; a++) moved += delta[a];
  assert_int_equal(moved, 12);
  /* Vogel gives another optimum: same balance and volume, any layout. */
  run_example(LB_TRANSPORT_TB, LB_TP_VOGEL, after, delta);
  long mx = 0, mn = 1000, sum = 0;
  for (int i = 0; i < 10; i++) {
    mx = after[i] > mx ? after[i] : mx;
    mn = after[i] < mn ? after[i] : mn;
    sum += after[i];
  }
  assert_int_equal(mx, 100);
  assert_int_equal(mn, 99);
  assert_int_equal(sum, 997);
}

/* On a ring the transfers follow shortest routes hop by hop: delta is
 * only on edges, and its net effect gives the balanced loads. */
static void test_ring_routes(void **state)
{
  (void)state;
  lb_topo *t;
  assert_int_equal(lb_topo_ring(8, &t), LB_SUCCESS);
  const long load[8] = {20, 0, 0, 0, 0, 0, 0, 0};
  long delta[64], after[8];
  assert_int_equal(lb_transport_plan(t, load, LB_TRANSPORT_TB, delta), LB_SUCCESS);
  lb_transport_apply(8, load, delta, after);
  long sum = 0;
  for (size_t i = 0; i < 8; i++) {
    assert_true(after[i] == 2 || after[i] == 3);
    sum += after[i];
    for (size_t j = 0; j < 8; j++)
      if (delta[i * 8 + j]) assert_true(lb_topo_adjacent(t, i, j));
  }
  assert_int_equal(sum, 20);
  /* T alone: node 0 keeps 3 and sends 17 where 21 are wanted, so the
   * 4 fictitious tasks cover the farthest demand (node 4, then one of
   * 3/5): hop volume 1*6 + 2*6 + 3*5 = 33. */
  assert_int_equal(lb_transport_plan(t, load, LB_TRANSPORT_T, delta), LB_SUCCESS);
  long vol = 0;
  for (int a = 0; a < 64; a++) vol += delta[a];
  assert_int_equal(vol, 33);
  lb_transport_apply(8, load, delta, after);
  assert_int_equal(after[4], 0);
  lb_topo_free(t);
}

static void test_bad_input(void **state)
{
  (void)state;
  const double c[4] = {1, 2, 3, NAN};
  const long s[2] = {1, -1}, d[2] = {1, 1};
  long x[4];
  assert_int_equal(lb_tp_solve(2, 2, c, s, d, LB_TP_NWC, x, NULL, NULL), LB_EINVAL);
  assert_non_null(strstr(lb_errmsg(), "supply"));
  const long s2[2] = {1, 1};
  assert_int_equal(lb_tp_solve(2, 2, c, s2, d, LB_TP_NWC, x, NULL, NULL), LB_EINVAL);
  assert_non_null(strstr(lb_errmsg(), "not finite"));
  lb_topo *t;
  assert_int_equal(lb_topo_ring(4, &t), LB_SUCCESS);
  const long load[4] = {1, -2, 3, 4};
  long delta[16];
  assert_int_equal(lb_transport_plan(t, load, LB_TRANSPORT_T, delta), LB_EINVAL);
  assert_non_null(strstr(lb_errmsg(), "load -2"));
  lb_topo_free(t);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_tp_textbook), cmocka_unit_test(test_tp_brute_force),
      cmocka_unit_test(test_tp_glpk),     cmocka_unit_test(test_tp_glpk_kinds),
      cmocka_unit_test(test_tp_bland),    cmocka_unit_test(test_worked_example),
      cmocka_unit_test(test_ring_routes), cmocka_unit_test(test_bad_input),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
