/* Diffusion coefficients against closed forms and a brute-force scan. */
#include "testutil.h"
#include "lb_topo.h"
#include "lb_diffusion.h"
#include "lb_errno.h"

static lb_topo *topo(const char *spec)
{
  lb_topo *t;
  assert_int_equal(lb_topo_from_spec(spec, &t), LB_SUCCESS);
  return t;
}

static void test_boillat(void **state)
{
  (void)state;
  double a;
  assert_int_equal(lb_diffusion_alpha_boillat(2, 5, &a), LB_SUCCESS);
  assert_close(a, 1.0 / 6, 1e-15);
  assert_int_equal(lb_diffusion_edge_alpha(LB_DIFFUSION_BOILLAT, -1, 3, 1, &a), LB_SUCCESS);
  assert_close(a, 0.25, 1e-15);
  assert_int_equal(lb_diffusion_edge_alpha(LB_DIFFUSION_UNIFORM, 0.2, 3, 1, &a), LB_SUCCESS);
  assert_close(a, 0.2, 1e-15);
  assert_int_equal(lb_diffusion_alpha_boillat(0, 5, &a), LB_EINVAL);
  assert_int_equal(lb_diffusion_edge_alpha(LB_DIFFUSION_UNIFORM, 0, 3, 1, &a), LB_EINVAL);
  assert_int_equal(lb_diffusion_edge_alpha(LB_DIFFUSION_UNIFORM, NAN, 3, 1, &a), LB_EINVAL);
  /* Star hub of degree 4: each leaf edge gets 1/5, hub diagonal 1/5. */
  lb_topo *t = topo("star:5");
  double ea[4];
  gsl_matrix *M = gsl_matrix_alloc(5, 5);
  assert_int_equal(lb_diffusion_edge_alphas(t, LB_DIFFUSION_BOILLAT, 0, ea), LB_SUCCESS);
  assert_int_equal(lb_diffusion_matrix(t, ea, M), LB_SUCCESS);
  assert_close(gsl_matrix_get(M, 0, 0), 0.2, 1e-15);
  assert_close(gsl_matrix_get(M, 1, 1), 0.8, 1e-15);
  for (size_t i = 0; i < 5; i++) {
    double r = 0;
    for (size_t j = 0; j < 5; j++) {
      r += gsl_matrix_get(M, i, j);
      assert_true(gsl_matrix_get(M, i, j) >= 0);
      assert_true(gsl_matrix_get(M, i, j) == gsl_matrix_get(M, j, i));
    }
    assert_close(r, 1.0, 1e-15);
  }
  gsl_matrix_free(M);
  lb_topo_free(t);
}

static void test_kind_names(void **state)
{
  (void)state;
  lb_diffusion_kind k;
  for (int i = 0; i < 3; i++) {
    assert_int_equal(lb_diffusion_kind_parse(lb_diffusion_kind_name((lb_diffusion_kind)i), &k), LB_SUCCESS);
    assert_int_equal(k, i);
  }
  assert_int_equal(lb_diffusion_kind_parse("fast", &k), LB_EINVAL);
}

/* Ring of n: lambda_2 = 2 - 2cos(2pi/n), lambda_N = 4 (n even);
 * hypercube of dimension d: lambda_2 = 2, lambda_N = 2d. */
static void test_alpha_opt_closed_form(void **state)
{
  (void)state;
  for (size_t n = 4; n <= 16; n += 4) {
    char s[32];
    snprintf(s, sizeof s, "ring:%zu", n);
    lb_topo *t = topo(s);
    double l2 = 2 - 2 * cos(2 * M_PI / (double)n), lN = 4, a, g, b;
    assert_int_equal(lb_diffusion_alpha_opt(t, &a), LB_SUCCESS);
    assert_close(a, 2 / (l2 + lN), 1e-12);
    double *ea = malloc(t->m * sizeof *ea);
    assert_int_equal(lb_diffusion_edge_alphas(t, LB_DIFFUSION_OPTIMAL, 0, ea), LB_SUCCESS);
    assert_int_equal(lb_diffusion_beta_opt(t, ea, &b, &g), LB_SUCCESS);
    assert_close(g, (lN - l2) / (lN + l2), 1e-12);
    assert_close(b, 2 / (1 + sqrt(1 - g * g)), 1e-12);
    free(ea);
    lb_topo_free(t);
  }
  for (unsigned d = 1; d <= 6; d++) {
    char s[32];
    snprintf(s, sizeof s, "hypercube:%u", d);
    lb_topo *t = topo(s);
    double a, g, ea[6 * 32];
    assert_int_equal(lb_diffusion_alpha_opt(t, &a), LB_SUCCESS);
    assert_close(a, 1.0 / (d + 1), 1e-12);
    /* Boillat gives the same 1/(d+1) on a regular graph. */
    assert_int_equal(lb_diffusion_edge_alphas(t, LB_DIFFUSION_BOILLAT, 0, ea), LB_SUCCESS);
    for (size_t e = 0; e < t->m; e++) assert_close(ea[e], a, 1e-15);
    assert_int_equal(lb_diffusion_gamma(t, ea, &g), LB_SUCCESS);
    assert_close(g, (d - 1.0) / (d + 1.0), 1e-12);
    lb_topo_free(t);
  }
}

/* The optimal alpha beats every alpha of a fine scan on irregular graphs. */
static void test_alpha_opt_scan(void **state)
{
  (void)state;
  const char *specs[] = {"mesh:3x5", "star:7", "random:12:6:3"};
  for (size_t s = 0; s < 3; s++) {
    lb_topo *t = topo(specs[s]);
    double *ea = malloc(t->m * sizeof *ea), aopt, gopt, g;
    assert_int_equal(lb_diffusion_alpha_opt(t, &aopt), LB_SUCCESS);
    assert_int_equal(lb_diffusion_edge_alphas(t, LB_DIFFUSION_UNIFORM, aopt, ea), LB_SUCCESS);
    assert_int_equal(lb_diffusion_gamma(t, ea, &gopt), LB_SUCCESS);
    int beaten = 0, tried = 0;
    for (double a = 0.005; a < 1.0; a += 0.005) {
      assert_int_equal(lb_diffusion_edge_alphas(t, LB_DIFFUSION_UNIFORM, a, ea), LB_SUCCESS);
      int st = lb_diffusion_gamma(t, ea, &g);
      if (st == LB_ENOCONV) continue;
      assert_int_equal(st, LB_SUCCESS);
      tried++;
      if (g < gopt - 1e-12) beaten++;
    }
    assert_true(tried > 10);
    assert_int_equal(beaten, 0);
    free(ea);
    lb_topo_free(t);
  }
}

static void test_errors(void **state)
{
  (void)state;
  size_t e[][2] = {{0, 1}, {2, 3}};
  lb_topo *t;
  assert_int_equal(lb_topo_from_edges(4, e, 2, "two pieces", &t), LB_SUCCESS);
  double a, ea[2] = {0.3, 0.3}, g, b;
  assert_int_equal(lb_diffusion_alpha_opt(t, &a), LB_ETOPO);
  assert_int_equal(lb_diffusion_gamma(t, ea, &g), LB_ENOCONV);
  assert_int_equal(lb_diffusion_beta_from_gamma(1.0, &b), LB_EINVAL);
  assert_int_equal(lb_diffusion_beta_from_gamma(0.0, &b), LB_SUCCESS);
  assert_close(b, 1.0, 1e-15);
  ea[0] = -0.1;
  gsl_matrix *M = gsl_matrix_alloc(4, 4);
  assert_int_equal(lb_diffusion_matrix(t, ea, M), LB_EINVAL);
  gsl_matrix_free(M);
  lb_topo_free(t);
  /* alpha = 0.6 on a ring: 1 - 4 * 0.6 = -1.4, diverges. */
  t = topo("ring:6");
  double e6[6] = {0.6, 0.6, 0.6, 0.6, 0.6, 0.6};
  assert_int_equal(lb_diffusion_gamma(t, e6, &g), LB_ENOCONV);
  assert_true(strstr(lb_errmsg(), "ring") != NULL);
  lb_topo_free(t);
  /* Above the dense limit: refused before n^2 doubles are allocated. */
  t = topo("ring:4097");
  double *ek = malloc(t->m * sizeof *ek);
  for (size_t k = 0; k < t->m; k++) ek[k] = 0.25;
  assert_int_equal(lb_diffusion_beta_opt(t, ek, &b, &g), LB_ERANGE);
  free(ek);
  lb_topo_free(t);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_boillat),
      cmocka_unit_test(test_kind_names),
      cmocka_unit_test(test_alpha_opt_closed_form),
      cmocka_unit_test(test_alpha_opt_scan),
      cmocka_unit_test(test_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
