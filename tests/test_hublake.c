/* Hu-Blake optimal diffusion: closed forms, a dense second solver,
 * integer rounding invariants and the transfer schedule. */
#include "testutil.h"
#include <gsl/gsl_linalg.h>
#include "lb_errno.h"
#include "lb_rng.h"
#include "lb_topo.h"
#include "lb_topo_matrix.h"
#include "lb_hublake.h"

static void test_closed_forms(void **state)
{
  (void)state;
  lb_topo *t;
  double lam[4], f[4];
  /* ring of 4, all load on node 0: b = (3,-1,-1,-1); by symmetry
   * 1.5 leaves on each side and 0.5 reaches the far node each way. */
  assert_int_equal(lb_topo_ring(4, &t), LB_SUCCESS);
  const double l[4] = {4, 0, 0, 0};
  size_t it;
  assert_int_equal(lb_hublake_solve(t, l, 1e-12, lam, &it), LB_SUCCESS);
  assert_true(it <= 4);
  lb_hublake_flow(t, lam, f);
  for (size_t k = 0; k < t->m; k++) {
    size_t a = t->edge[k][0], b = t->edge[k][1];
    double want = (a == 0) ? 1.5 : (b == 2 ? 0.5 : -0.5); /* (0,1),(0,3),(1,2),(2,3) */
    assert_close(f[k], want, 1e-9);
  }
  assert_close(lam[0] + lam[1] + lam[2] + lam[3], 0, 1e-9); /* min norm: mean 0 */
  lb_topo_free(t);
}

/* Second route: (L + J/n) lambda = b is non-singular and, since b sums
 * to zero, its solution is the mean-zero (minimum-norm) one. */
static void test_vs_dense(void **state)
{
  (void)state;
  lb_rng *r;
  assert_int_equal(lb_rng_alloc(11, &r), LB_SUCCESS);
  for (int k = 0; k < 20; k++) {
    lb_topo *t;
    size_t n = 5 + lb_rng_below(r, 40);
    assert_int_equal(lb_topo_random(n, lb_rng_below(r, 2 * n), r, &t), LB_SUCCESS);
    double *l = malloc(n * sizeof *l), *lam = malloc(n * sizeof *lam), avg = 0;
    for (size_t i = 0; i < n; i++) {
      l[i] = lb_rng_range(r, 0, 100);
      avg += l[i];
    }
    avg /= (double)n;
    size_t it;
    assert_int_equal(lb_hublake_solve(t, l, 1e-13, lam, &it), LB_SUCCESS);
    assert_true(it <= n + 5);
    gsl_matrix *L = gsl_matrix_alloc(n, n);
    gsl_vector *b = gsl_vector_alloc(n), *x = gsl_vector_alloc(n);
    gsl_permutation *perm = gsl_permutation_alloc(n);
    assert_int_equal(lb_topo_laplacian(t, L), LB_SUCCESS);
    for (size_t i = 0; i < n; i++) {
      gsl_vector_set(b, i, l[i] - avg);
      for (size_t j = 0; j < n; j++) gsl_matrix_set(L, i, j, gsl_matrix_get(L, i, j) + 1.0 / (double)n);
    }
    int sg;
    gsl_linalg_LU_decomp(L, perm, &sg);
    gsl_linalg_LU_solve(L, perm, b, x);
    for (size_t i = 0; i < n; i++) assert_close(lam[i], gsl_vector_get(x, i), 1e-7);
    gsl_matrix_free(L);
    gsl_vector_free(b);
    gsl_vector_free(x);
    gsl_permutation_free(perm);
    free(l);
    free(lam);
    lb_topo_free(t);
  }
  lb_rng_free(r);
}

static void check_schedule(const lb_topo *t, const long *load, const long *flow, const long *target)
{
  lb_transfer *tr;
  size_t nt, nr, n = t->n;
  assert_int_equal(lb_transfer_schedule(t, load, flow, &tr, &nt, &nr), LB_SUCCESS);
  long *cur = malloc(n * sizeof *cur), *held = malloc(n * sizeof *held);
  memcpy(cur, load, n * sizeof *cur);
  size_t q = 0;
  for (size_t round = 0; round < nr; round++) {
    memcpy(held, cur, n * sizeof *cur);
    for (; q < nt && tr[q].round == round; q++) {
      assert_true(lb_topo_adjacent(t, tr[q].from, tr[q].to));
      assert_true(tr[q].amount > 0);
      held[tr[q].from] -= tr[q].amount; /* may only spend what it held */
      assert_true(held[tr[q].from] >= 0);
      cur[tr[q].from] -= tr[q].amount;
      cur[tr[q].to] += tr[q].amount;
    }
  }
  assert_int_equal(q, nt);
  for (size_t i = 0; i < n; i++) assert_int_equal(cur[i], target[i]);
  free(cur);
  free(held);
  free(tr);
}

static void test_integer_plan(void **state)
{
  (void)state;
  lb_rng *r;
  assert_int_equal(lb_rng_alloc(5, &r), LB_SUCCESS);
  for (int k = 0; k < 40; k++) {
    lb_topo *t;
    size_t n = 2 + lb_rng_below(r, 30);
    assert_int_equal(lb_topo_random(n, lb_rng_below(r, n), r, &t), LB_SUCCESS);
    long *l = malloc(n * sizeof *l), *tg = malloc(n * sizeof *tg), *fl = malloc(t->m * sizeof *fl), sum = 0;
    for (size_t i = 0; i < n; i++) {
      l[i] = (long)lb_rng_below(r, k % 2 ? 5 : 1000);
      sum += l[i];
    }
    double *dl = malloc(n * sizeof *dl), *lam = malloc(n * sizeof *lam), *fr = malloc(t->m * sizeof *fr);
    for (size_t i = 0; i < n; i++) dl[i] = (double)l[i];
    assert_int_equal(lb_hublake_solve(t, dl, 1e-12, lam, NULL), LB_SUCCESS);
    lb_hublake_flow(t, lam, fr);
    assert_int_equal(lb_hublake_plan(t, l, fl, tg, NULL), LB_SUCCESS);
    long *net = calloc(n, sizeof *net), tsum = 0;
    for (size_t e = 0; e < t->m; e++) {
      net[t->edge[e][0]] += fl[e];
      net[t->edge[e][1]] -= fl[e];
    }
    for (size_t i = 0; i < n; i++) {
      assert_true(tg[i] == sum / (long)n || tg[i] == sum / (long)n + 1);
      assert_int_equal(net[i], l[i] - tg[i]);
      tsum += tg[i];
    }
    assert_int_equal(tsum, sum);
    /* rounding stays near the real optimum: the L1 gap is bounded by
     * one unit per edge plus the tree correction of at most n units */
    double gap = 0;
    for (size_t e = 0; e < t->m; e++) gap += fabs((double)fl[e] - fr[e]);
    assert_true(gap <= (double)(t->m + n * n));
    check_schedule(t, l, fl, tg);
    free(l);
    free(tg);
    free(fl);
    free(dl);
    free(lam);
    free(fr);
    free(net);
    lb_topo_free(t);
  }
  lb_rng_free(r);
}

/* On a path all load starts at one end: it must be relayed, one hop
 * per round, and nobody forwards before receiving. */
static void test_multihop_schedule(void **state)
{
  (void)state;
  lb_topo *t;
  assert_int_equal(lb_topo_mesh(1, 5, &t), LB_SUCCESS);
  const long l[5] = {10, 0, 0, 0, 0};
  long fl[4], tg[5];
  assert_int_equal(lb_hublake_plan(t, l, fl, tg, NULL), LB_SUCCESS);
  for (size_t k = 0; k < 4; k++) assert_int_equal(fl[k], 8 - 2 * (long)k);
  lb_transfer *tr;
  size_t nt, nr;
  assert_int_equal(lb_transfer_schedule(t, l, fl, &tr, &nt, &nr), LB_SUCCESS);
  assert_int_equal(nr, 4);
  assert_int_equal(nt, 4);
  for (size_t q = 0; q < 4; q++) {
    assert_int_equal(tr[q].round, q);
    assert_int_equal(tr[q].from, q);
    assert_int_equal(tr[q].amount, 8 - 2 * (long)q);
  }
  free(tr);
  check_schedule(t, l, fl, tg);
  lb_topo_free(t);
}

static void test_bad_input(void **state)
{
  (void)state;
  lb_topo *t;
  const size_t e[1][2] = {{0, 1}};
  assert_int_equal(lb_topo_from_edges(3, e, 1, "split", &t), LB_SUCCESS);
  double l[3] = {1, 2, 3}, lam[3];
  assert_int_equal(lb_hublake_solve(t, l, 1e-10, lam, NULL), LB_ETOPO);
  assert_non_null(strstr(lb_errmsg(), "not connected"));
  lb_topo_free(t);
  assert_int_equal(lb_topo_ring(3, &t), LB_SUCCESS);
  assert_int_equal(lb_hublake_solve(t, l, 0, lam, NULL), LB_EINVAL);
  const long bad[3] = {1, -1, 0};
  long fl[3];
  assert_int_equal(lb_hublake_plan(t, bad, fl, NULL, NULL), LB_EINVAL);
  /* a cyclic flow 0->1->2->0 with no load cannot be scheduled */
  const long zero[3] = {0, 0, 0}, cyc[3] = {1, -1, 1}; /* (0,1),(0,2),(1,2) */
  lb_transfer *tr;
  size_t nt, nr;
  assert_int_equal(lb_transfer_schedule(t, zero, cyc, &tr, &nt, &nr), LB_ESTATE);
  lb_topo_free(t);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_closed_forms),      cmocka_unit_test(test_vs_dense),  cmocka_unit_test(test_integer_plan),
      cmocka_unit_test(test_multihop_schedule), cmocka_unit_test(test_bad_input),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
