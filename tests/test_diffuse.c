/* First- and second-order diffusion: matrix form, rates, integer guard. */
#include "testutil.h"
#include "lb_topo.h"
#include "lb_diffusion.h"
#include "lb_diffuse.h"
#include "lb_errno.h"
#include <gsl/gsl_blas.h>

static lb_topo *topo(const char *spec)
{
  lb_topo *t;
  assert_int_equal(lb_topo_from_spec(spec, &t), LB_SUCCESS);
  return t;
}

static double sum(const double *w, size_t n)
{
  double s = 0;
  for (size_t i = 0; i < n; i++) s += w[i];
  return s;
}

/* The flow form equals w(t+1) = beta M w(t) + (1-beta) w(t-1). */
static void test_matrix_form(void **state)
{
  (void)state;
  lb_topo *t = topo("random:10:7:5");
  size_t n = t->n;
  double *ea = malloc(t->m * sizeof *ea), beta, gamma;
  assert_int_equal(lb_diffusion_edge_alphas(t, LB_DIFFUSION_BOILLAT, 0, ea), LB_SUCCESS);
  assert_int_equal(lb_diffusion_beta_opt(t, ea, &beta, &gamma), LB_SUCCESS);
  gsl_matrix *M = gsl_matrix_alloc(n, n);
  assert_int_equal(lb_diffusion_matrix(t, ea, M), LB_SUCCESS);
  gsl_vector *prev = gsl_vector_alloc(n), *cur = gsl_vector_alloc(n), *nx = gsl_vector_alloc(n);
  double w[10], *y = calloc(t->m, sizeof *y);
  for (size_t i = 0; i < n; i++) w[i] = (double)((i * 7) % 5) * 3.0 + 1.0;
  for (size_t i = 0; i < n; i++) gsl_vector_set(cur, i, w[i]);
  double total = sum(w, n);
  for (int step = 0; step < 30; step++) {
    double b = step == 0 ? 1.0 : beta;
    assert_int_equal(lb_diffuse_step(t, ea, b, w, y), LB_SUCCESS);
    gsl_blas_dgemv(CblasNoTrans, b, M, cur, 0.0, nx);
    if (step) gsl_blas_daxpy(1.0 - b, prev, nx);
    gsl_vector_memcpy(prev, cur);
    gsl_vector_memcpy(cur, nx);
    for (size_t i = 0; i < n; i++) assert_close(w[i], gsl_vector_get(cur, i), 1e-11);
    assert_close(sum(w, n), total, 1e-13);
  }
  gsl_vector_free(prev);
  gsl_vector_free(cur);
  gsl_vector_free(nx);
  gsl_matrix_free(M);
  free(y);
  free(ea);
  lb_topo_free(t);
}

/* Asymptotic contraction per step: gamma for first order, sqrt(beta-1)
 * for second order at beta_opt (a double root of r^2 - beta gamma r +
 * beta - 1). */
static void test_rates(void **state)
{
  (void)state;
  lb_topo *t = topo("hypercube:4"); /* gamma = 3/5 with Boillat */
  size_t n = t->n;
  double ea[32], w[16], y[32] = {0}, gamma, beta;
  assert_int_equal(lb_diffusion_edge_alphas(t, LB_DIFFUSION_BOILLAT, 0, ea), LB_SUCCESS);
  assert_int_equal(lb_diffusion_beta_opt(t, ea, &beta, &gamma), LB_SUCCESS);
  assert_close(gamma, 0.6, 1e-12);
  for (size_t i = 0; i < n; i++) w[i] = i == 0 ? 16.0 : 0.0;
  /* Modes +-gamma both present: compare two steps apart. */
  double d[41];
  for (int s = 1; s <= 40; s++) {
    lb_diffuse_step(t, ea, 1.0, w, y);
    d[s] = lb_diffuse_imbalance(w, n);
  }
  assert_close(sqrt(d[24] / d[22]), gamma, 1e-7);
  lb_topo_free(t);

  /* Second order on a 16-ring: iterations shrink by far more than the
   * first-order count, and both meet the theoretical count. */
  t = topo("ring:16");
  n = t->n;
  double ea16[16], w1[16], w2[16];
  assert_int_equal(lb_diffusion_edge_alphas(t, LB_DIFFUSION_OPTIMAL, 0, ea16), LB_SUCCESS);
  assert_int_equal(lb_diffusion_beta_opt(t, ea16, &beta, &gamma), LB_SUCCESS);
  for (size_t i = 0; i < n; i++) w1[i] = w2[i] = i == 0 ? 1600.0 : 0.0;
  size_t it1, it2;
  assert_int_equal(lb_diffuse_run(t, ea16, 1.0, w1, 1e-6, 100000, &it1), LB_SUCCESS);
  assert_int_equal(lb_diffuse_run(t, ea16, beta, w2, 1e-6, 100000, &it2), LB_SUCCESS);
  double want1 = log(1e-6 / 1600.0) / log(gamma);
  double want2 = log(1e-6 / 1600.0) / log(sqrt(beta - 1.0));
  assert_true(fabs((double)it1 - want1) < 0.1 * want1);
  assert_true((double)it2 < 1.5 * want2 && (double)it2 > 0.5 * want2);
  assert_true(2 * it2 < it1);
  assert_int_equal(lb_diffuse_run(t, ea16, 1.0, w1, 1e-30, 5, &it1), LB_ENOCONV);
  assert_int_equal(it1, 5);
  assert_int_equal(lb_diffuse_run(t, ea16, 2.0, w1, 1e-6, 5, &it1), LB_EINVAL);
  lb_topo_free(t);
}

/* Second order overshoots: on real loads a node goes negative; the
 * integer guard keeps every load >= 0 and conserves the total. */
static void test_integer_guard(void **state)
{
  (void)state;
  lb_topo *t = topo("ring:16");
  size_t n = t->n;
  double ea[16], wr[16], yr[16] = {0}, beta = 1.9;
  assert_int_equal(lb_diffusion_edge_alphas(t, LB_DIFFUSION_BOILLAT, 0, ea), LB_SUCCESS);
  for (size_t i = 0; i < n; i++) wr[i] = i == 0 ? 1000.0 : 0.0;
  double minr = 0;
  for (int s = 0; s < 60; s++) {
    lb_diffuse_step(t, ea, s ? beta : 1.0, wr, yr);
    for (size_t i = 0; i < n; i++)
      if (wr[i] < minr) minr = wr[i];
  }
  assert_true(minr < -1.0); /* the guard is needed */

  long w[16], y[16] = {0};
  for (size_t i = 0; i < n; i++) w[i] = i == 0 ? 1000 : 0;
  size_t guarded = 0;
  for (int s = 0; s < 300; s++) {
    assert_int_equal(lb_diffuse_int_step(t, ea, s ? beta : 1.0, w, y, &guarded), LB_SUCCESS);
    long tot = 0;
    for (size_t i = 0; i < n; i++) {
      assert_true(w[i] >= 0);
      tot += w[i];
    }
    assert_int_equal(tot, 1000);
  }
  assert_true(guarded > 0);

  /* With beta_opt it balances to within a few units. */
  double gamma, bopt;
  assert_int_equal(lb_diffusion_beta_opt(t, ea, &bopt, &gamma), LB_SUCCESS);
  for (size_t i = 0; i < n; i++) w[i] = i == 0 ? 1600 : 0;
  size_t it;
  guarded = 0;
  assert_int_equal(lb_diffuse_int_run(t, ea, bopt, w, 3.0, 2000, &it, &guarded), LB_SUCCESS);
  long tot = 0;
  for (size_t i = 0; i < n; i++) {
    assert_true(w[i] >= 0 && labs(w[i] - 100) <= 3);
    tot += w[i];
  }
  assert_int_equal(tot, 1600);
  w[3] = -1;
  assert_int_equal(lb_diffuse_int_run(t, ea, bopt, w, 3.0, 2000, &it, NULL), LB_EINVAL);
  lb_topo_free(t);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_matrix_form),
      cmocka_unit_test(test_rates),
      cmocka_unit_test(test_integer_guard),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
