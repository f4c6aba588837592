/* Heterogeneous diffusion: conservation, flows, rate, and p by two
 * eigensolvers. */
#include "testutil.h"
#include <gsl/gsl_eigen.h>
#include <gsl/gsl_blas.h>
#include "lb_topo.h"
#include "lb_topo_matrix.h"
#include "lb_hetero.h"
#include "lb_errno.h"

static lb_topo *topo(const char *spec)
{
  lb_topo *t;
  assert_int_equal(lb_topo_from_spec(spec, &t), LB_SUCCESS);
  return t;
}

static double work(const double *s, const double *l, size_t n)
{
  double w = 0;
  for (size_t i = 0; i < n; i++) w += s[i] * l[i];
  return w;
}

/* Second route to lambda_2, lambda_P: the non-symmetric S^-1 A A^T
 * built from the incidence matrix, solved by gsl_eigen_nonsymm. */
static void nonsymm_extremes(const lb_topo *t, const double *s, double *l2, double *lP)
{
  size_t n = t->n, m = t->m;
  gsl_matrix *A = gsl_matrix_alloc(n, m), *B = gsl_matrix_alloc(n, n);
  gsl_vector_complex *ev = gsl_vector_complex_alloc(n);
  gsl_eigen_nonsymm_workspace *w = gsl_eigen_nonsymm_alloc(n);
  assert_int_equal(lb_topo_incidence(t, A), LB_SUCCESS);
  gsl_blas_dgemm(CblasNoTrans, CblasTrans, 1.0, A, A, 0.0, B);
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < n; j++) *gsl_matrix_ptr(B, i, j) /= s[i];
  assert_int_equal(gsl_eigen_nonsymm(B, ev, w), 0);
  double re[64];
  for (size_t i = 0; i < n; i++) {
    assert_true(fabs(GSL_IMAG(gsl_vector_complex_get(ev, i))) < 1e-9);
    re[i] = GSL_REAL(gsl_vector_complex_get(ev, i));
  }
  for (size_t i = 1; i < n; i++) /* insertion sort */
    for (size_t j = i; j > 0 && re[j - 1] > re[j]; j--) {
      double x = re[j];
      re[j] = re[j - 1];
      re[j - 1] = x;
    }
  assert_true(fabs(re[0]) < 1e-9);
  *l2 = re[1];
  *lP = re[n - 1];
  gsl_eigen_nonsymm_free(w);
  gsl_vector_complex_free(ev);
  gsl_matrix_free(A);
  gsl_matrix_free(B);
}

static void test_closed_forms(void **state)
{
  (void)state;
  double s[64], l2, lP;
  for (size_t i = 0; i < 64; i++) s[i] = 2.5;
  lb_topo *t = topo("ring:12");
  assert_int_equal(lb_hetero_extremes(t, s, &l2, &lP), LB_SUCCESS);
  assert_close(l2, (2 - 2 * cos(2 * M_PI / 12)) / 2.5, 1e-12);
  assert_close(lP, 4 / 2.5, 1e-12);
  lb_topo_free(t);
  t = topo("hypercube:5");
  assert_int_equal(lb_hetero_extremes(t, s, &l2, &lP), LB_SUCCESS);
  assert_close(lP / l2, 5.0, 1e-12); /* 2d / 2 */
  lb_topo_free(t);
  /* Two nodes: the nonzero eigenvalue is 1/s1 + 1/s2. */
  t = topo("ring:2");
  double s2[2] = {3, 7};
  assert_int_equal(lb_hetero_extremes(t, s2, &l2, &lP), LB_SUCCESS);
  assert_close(l2, 1.0 / 3 + 1.0 / 7, 1e-12);
  lb_topo_free(t);
}

static void test_nonsymm_crosscheck(void **state)
{
  (void)state;
  const char *specs[] = {"mesh:3x3", "random:9:5:11", "star:6", "torus:3x4"};
  for (size_t k = 0; k < 4; k++) {
    lb_topo *t = topo(specs[k]);
    double s[16], a2, aP, b2, bP;
    for (size_t i = 0; i < t->n; i++) s[i] = 1.0 + (double)((i * 5 + k) % 9);
    assert_int_equal(lb_hetero_extremes(t, s, &a2, &aP), LB_SUCCESS);
    nonsymm_extremes(t, s, &b2, &bP);
    assert_close(a2, b2, 1e-9);
    assert_close(aP, bP, 1e-9);
    lb_topo_free(t);
  }
}

/* Work is conserved every step; x explains the move; the rate matches. */
static void test_run_and_flows(void **state)
{
  (void)state;
  lb_topo *t;
  assert_int_equal(lb_topo_read_file(srcpath("data/graphs/seed002-g1.graph"), &t), LB_SUCCESS);
  size_t n = t->n, m = t->m;
  double s[9], l[9], l0[9], y[64], x[64] = {0}, tau, rate;
  for (size_t i = 0; i < n; i++) {
    s[i] = (double)(i + 1);
    l[i] = l0[i] = i == 4 ? 90.0 / s[i] : 0.0;
  }
  assert_int_equal(lb_hetero_tau_opt(t, s, &tau, &rate), LB_SUCCESS);
  double w0 = work(s, l, n), lbar = lb_hetero_lbar(s, l, n), d0 = 0, d1 = 0;
  for (int step = 0; step < 400; step++) {
    assert_int_equal(lb_hetero_step(t, s, tau, l, y, x), LB_SUCCESS);
    assert_close(work(s, l, n), w0, 1e-13);
    double d = 0;
    for (size_t i = 0; i < n; i++) d += s[i] * (l[i] - lbar) * (l[i] - lbar);
    d0 = d1;
    d1 = sqrt(d);
    if (d1 < 1e-10) break;
  }
  double r;
  assert_int_equal(lb_hetero_flow_residual(t, s, l0, x, &r), LB_SUCCESS);
  assert_true(r < 1e-9);
  /* S-norm of the deviation contracts by at most (p-1)/(p+1), and by
   * nearly that asymptotically. */
  assert_true(d1 / d0 <= rate + 1e-6 && d1 / d0 > 0.9 * rate);
  for (size_t i = 0; i < n; i++) assert_close(l[i], lbar, 1e-9);

  /* lb_hetero_run agrees and reports its steps. */
  memcpy(l, l0, sizeof l);
  size_t it;
  assert_int_equal(lb_hetero_run(t, s, tau, l, x, 1e-8, 10000, &it), LB_SUCCESS);
  assert_true(it > 5);
  assert_int_equal(lb_hetero_flow_residual(t, s, l0, x, &r), LB_SUCCESS);
  assert_true(r < 1e-7);
  /* With the paper's sign in eq. (3) the residual is far from zero. */
  for (size_t k = 0; k < m; k++) x[k] = -x[k];
  assert_int_equal(lb_hetero_flow_residual(t, s, l0, x, &r), LB_SUCCESS);
  assert_true(r > 1.0);
  lb_topo_free(t);
}

/* tau_opt breaks constraint (4) on graph 1 with speeds 1..9 and a time
 * goes negative; the safe tau keeps every time >= 0, at the slower rate
 * lb_hetero_rate predicts. */
static void test_safe_tau(void **state)
{
  (void)state;
  lb_topo *t;
  assert_int_equal(lb_topo_read_file(srcpath("data/graphs/seed002-g1.graph"), &t), LB_SUCCESS);
  size_t n = t->n;
  double s[9], l[9], y[16], topt, tsafe, ropt, rsafe, r2;
  for (size_t i = 0; i < n; i++) s[i] = (double)(i + 1);
  assert_int_equal(lb_hetero_tau_opt(t, s, &topt, &ropt), LB_SUCCESS);
  assert_int_equal(lb_hetero_tau_safe(t, s, &tsafe), LB_SUCCESS);
  assert_close(tsafe, 1.0 / 1.0, 1e-15); /* node 1: speed 1, degree 1 */
  assert_true(topt > tsafe);
  assert_int_equal(lb_hetero_rate(t, s, topt, &r2), LB_SUCCESS);
  assert_close(r2, ropt, 1e-12);
  assert_int_equal(lb_hetero_rate(t, s, tsafe, &rsafe), LB_SUCCESS);
  assert_true(rsafe > ropt && rsafe < 1);
  for (int k = 0; k < 2; k++) {
    double tau = k ? tsafe : topt, lo = 0;
    for (size_t i = 0; i < n; i++) l[i] = i == 0 ? 100.0 : 0.0;
    for (int step = 0; step < 200; step++) {
      lb_hetero_step(t, s, tau, l, y, NULL);
      for (size_t i = 0; i < n; i++) lo = fmin(lo, l[i]);
    }
    if (k) assert_true(lo >= -1e-12); /* rounding only */
    else assert_true(lo < -1e-3);
  }
  lb_topo_free(t);
}

static void test_errors(void **state)
{
  (void)state;
  lb_topo *t = topo("ring:4");
  double s[4] = {1, 2, 0, 4}, a, b;
  assert_int_equal(lb_hetero_extremes(t, s, &a, &b), LB_EINVAL);
  assert_true(strstr(lb_errmsg(), "node 3") != NULL);
  s[2] = NAN;
  assert_int_equal(lb_hetero_check_speeds(s, 4), LB_EINVAL);
  lb_topo_free(t);
  size_t e[][2] = {{0, 1}, {2, 3}};
  assert_int_equal(lb_topo_from_edges(4, e, 2, "split", &t), LB_SUCCESS);
  double s1[4] = {1, 1, 1, 1};
  assert_int_equal(lb_hetero_tau_opt(t, s1, &a, &b), LB_ETOPO);
  lb_topo_free(t);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_closed_forms),  cmocka_unit_test(test_nonsymm_crosscheck),
      cmocka_unit_test(test_run_and_flows), cmocka_unit_test(test_safe_tau),
      cmocka_unit_test(test_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
