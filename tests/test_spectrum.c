/* Laplacian spectra against closed forms. */
#include "testutil.h"
#include "lb_topo.h"
#include "lb_spectrum.h"
#include "lb_errno.h"

static int cmpd(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static void expect(const char *spec, double *want, size_t n)
{
  lb_topo *t;
  assert_int_equal(lb_topo_from_spec(spec, &t), LB_SUCCESS);
  assert_int_equal(t->n, n);
  double *got = malloc(n * sizeof *got);
  assert_int_equal(lb_spectrum_laplacian(t, got), LB_SUCCESS);
  qsort(want, n, sizeof *want, cmpd);
  for (size_t i = 0; i < n; i++) assert_close(got[i], want[i], 1e-10);
  free(got);
  lb_topo_free(t);
}

static void test_ring(void **state)
{
  (void)state;
  for (size_t n = 3; n <= 17; n += 7) {
    double w[32];
    for (size_t k = 0; k < n; k++) w[k] = 2.0 - 2.0 * cos(2.0 * M_PI * (double)k / (double)n);
    char s[32];
    snprintf(s, sizeof s, "ring:%zu", n);
    expect(s, w, n);
  }
}

static void test_hypercube(void **state)
{
  (void)state;
  double w[64];
  for (unsigned v = 0; v < 64; v++) w[v] = 2.0 * __builtin_popcount(v); /* 2k, C(6,k) times */
  expect("hypercube:6", w, 64);
}

static void test_mesh_torus_complete_star(void **state)
{
  (void)state;
  double w[64];
  for (size_t a = 0; a < 4; a++)
    for (size_t b = 0; b < 5; b++) w[a * 5 + b] = 2 - 2 * cos(M_PI * a / 4.0) + 2 - 2 * cos(M_PI * b / 5.0);
  expect("mesh:4x5", w, 20);
  for (size_t a = 0; a < 4; a++)
    for (size_t b = 0; b < 6; b++) w[a * 6 + b] = 2 - 2 * cos(2 * M_PI * a / 4.0) + 2 - 2 * cos(2 * M_PI * b / 6.0);
  expect("torus:4x6", w, 24);
  for (size_t i = 0; i < 7; i++) w[i] = i ? 7.0 : 0.0;
  expect("complete:7", w, 7);
  for (size_t i = 0; i < 8; i++) w[i] = i == 0 ? 0.0 : i == 7 ? 8.0 : 1.0;
  expect("star:8", w, 8);
}

static void test_workspace_reuse(void **state)
{
  (void)state;
  lb_spectrum *s;
  assert_int_equal(lb_spectrum_alloc(3, &s), LB_SUCCESS);
  gsl_matrix *a = gsl_matrix_calloc(3, 3);
  for (int rep = 0; rep < 3; rep++) {
    for (size_t i = 0; i < 3; i++) gsl_matrix_set(a, i, i, (double)(3 - i) + rep);
    assert_int_equal(lb_spectrum_symm(s, a), LB_SUCCESS);
    for (size_t i = 0; i < 3; i++) assert_close(gsl_vector_get(s->eval, i), 1.0 + i + rep, 1e-14);
    assert_close(gsl_matrix_get(a, 0, 0), 3.0 + rep, 0); /* input untouched */
  }
  gsl_matrix *b = gsl_matrix_calloc(2, 2);
  assert_int_equal(lb_spectrum_symm(s, b), LB_EINVAL);
  gsl_matrix_free(a);
  gsl_matrix_free(b);
  lb_spectrum_free(s);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_ring),
      cmocka_unit_test(test_hypercube),
      cmocka_unit_test(test_mesh_torus_complete_star),
      cmocka_unit_test(test_workspace_reuse),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
