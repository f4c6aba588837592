/* test_optimum.c: the fewest process-hops that balance a placement,
 * against known answers, the earth mover's distance on a line, and a
 * brute force (every balanced target, each costed by GLPK on Floyd's
 * distances). */
#include "testutil.h"
#include "lb_errno.h"
#include "lb_optimum.h"
#include "lb_paths.h"
#include "lb_rng.h"
#include "lb_topo.h"
#include "tp_glpk.h"

static lb_topo *spec(const char *s)
{
  lb_topo *t;
  assert_int_equal(lb_topo_from_spec(s, &t), LB_SUCCESS);
  return t;
}

static void known_answers(void **state)
{
  (void)state;
  lb_topo *t = spec("ring:6");
  lb_optimum o;
  /* 12 on node 0: 2 stay, 2 go to each other node, 1+2+3+2+1 hops. */
  unsigned long all0[6] = {12};
  assert_int_equal(lb_optimum_hops(t, all0, NULL, &o), LB_SUCCESS);
  assert_int_equal(o.hops, 18);
  assert_int_equal(o.moved, 10);
  /* 13: one node keeps a third; node 0 itself, at no cost. */
  all0[0] = 13;
  assert_int_equal(lb_optimum_hops(t, all0, NULL, &o), LB_SUCCESS);
  assert_int_equal(o.hops, 18);
  /* Balanced to within one: nothing moves. */
  unsigned long near[6] = {3, 2, 3, 2, 2, 3};
  assert_int_equal(lb_optimum_hops(t, near, NULL, &o), LB_SUCCESS);
  assert_int_equal(o.hops, 0);
  assert_int_equal(o.moved, 0);
  /* Speeds 2:1:...: node 0's share of 14 is 4; 10 of 14 leave it. */
  double sp[6] = {3, 2, 2, 2, 2, 3};
  unsigned long all0b[6] = {14};
  assert_int_equal(lb_optimum_hops(t, all0b, sp, &o), LB_SUCCESS);
  /* shares 3, 2, 2, 2, 2, 3: 2+2*2+2*3+2*2+3*1 hops */
  assert_int_equal(o.moved, 11);
  assert_int_equal(o.hops, 2 + 4 + 6 + 4 + 3);
  lb_topo_free(t);
}

/* On a path, moving load to a target costs sum_k |prefix surplus|. */
static void line_is_earth_movers(void **state)
{
  (void)state;
  lb_topo *t = spec("mesh:1x9");
  lb_rng *r;
  assert_int_equal(lb_rng_alloc(7, &r), LB_SUCCESS);
  for (int trial = 0; trial < 200; trial++) {
    unsigned long load[9], total = 0;
    for (int i = 0; i < 9; i++) total += load[i] = lb_rng_below(r, 6);
    if (total % 9) load[lb_rng_below(r, 9)] += 9 - total % 9; /* integral shares */
    total += (9 - total % 9) % 9;
    long pre = 0;
    unsigned long emd = 0;
    for (int i = 0; i < 8; i++) {
      pre += (long)load[i] - (long)(total / 9);
      emd += (unsigned long)labs(pre);
    }
    lb_optimum o;
    assert_int_equal(lb_optimum_hops(t, load, NULL, &o), LB_SUCCESS);
    assert_int_equal(o.hops, emd);
  }
  lb_rng_free(r);
  lb_topo_free(t);
}

/* Every target within [floor, ceil] of its share and summing to the
 * total; the cheapest of their transport costs, as GLPK finds them. */
static double brute(const lb_paths *p, const unsigned long *load, const double *share, size_t n)
{
  unsigned long total = 0;
  for (size_t i = 0; i < n; i++) total += load[i];
  double best = INFINITY;
  for (unsigned mask = 0; mask < (1u << n); mask++) {
    long tgt[8], sum = 0;
    for (size_t i = 0; i < n; i++) {
      double q = share[i] * (double)total, f = floor(q + 1e-9);
      tgt[i] = (long)f + ((mask >> i & 1) && q - f > 1e-9);
      if ((mask >> i & 1) && !(q - f > 1e-9)) tgt[i] = -1; /* no freedom here */
      sum += tgt[i];
    }
    int bad = 0;
    for (size_t i = 0; i < n; i++) bad |= tgt[i] < 0;
    if (bad || sum != (long)total) continue;
    size_t ns = 0, nd = 0, si[8], di[8];
    long s[8], d[8];
    for (size_t i = 0; i < n; i++) {
      long e = (long)load[i] - tgt[i];
      if (e > 0) {
        si[ns] = i;
        s[ns++] = e;
      }
      if (e < 0) {
        di[nd] = i;
        d[nd++] = -e;
      }
    }
    double z = 0;
    if (ns && nd) {
      double c[64];
      for (size_t a = 0; a < ns; a++)
        for (size_t b = 0; b < nd; b++) c[a * nd + b] = lb_paths_dist(p, si[a], di[b]);
      assert_int_equal(tp_glpk_cost(ns, nd, c, s, d, &z), 0);
    }
    if (z < best) best = z;
  }
  return best;
}

static void brute_force(void **state)
{
  (void)state;
  const char *graphs[] = {"ring:7", "mesh:2x3", "hypercube:3", "star:5", "complete:4"};
  lb_rng *r;
  assert_int_equal(lb_rng_alloc(11, &r), LB_SUCCESS);
  for (size_t g = 0; g < sizeof graphs / sizeof *graphs; g++) {
    lb_topo *t = spec(graphs[g]);
    size_t n = t->n;
    lb_paths *p;
    assert_int_equal(lb_paths_alloc(n, &p), LB_SUCCESS);
    assert_int_equal(lb_paths_floyd(t, NULL, p), LB_SUCCESS);
    for (int trial = 0; trial < 60; trial++) {
      unsigned long load[8];
      double speed[8], sum = 0, share[8];
      for (size_t i = 0; i < n; i++) {
        load[i] = lb_rng_below(r, trial % 3 ? 5 : 12) * (lb_rng_below(r, 3) == 0);
        speed[i] = trial % 2 ? 1 + (double)lb_rng_below(r, 4) : 1;
        sum += speed[i];
      }
      for (size_t i = 0; i < n; i++) share[i] = speed[i] / sum;
      lb_optimum o;
      assert_int_equal(lb_optimum_hops(t, load, trial % 2 ? speed : NULL, &o), LB_SUCCESS);
      assert_close(o.hops, brute(p, load, share, n), 1e-12);
      assert_true(o.moved <= o.hops);
    }
    lb_paths_free(p);
    lb_topo_free(t);
  }
  lb_rng_free(r);
}

static void bad_input(void **state)
{
  (void)state;
  lb_optimum o;
  unsigned long load[6] = {1, 2, 3};
  double sp[6] = {1, 1, 0, 1, 1, 1};
  lb_topo *t = spec("ring:6");
  assert_int_equal(lb_optimum_hops(NULL, load, NULL, &o), LB_EINVAL);
  assert_int_equal(lb_optimum_hops(t, load, sp, &o), LB_EINVAL);
  lb_topo_free(t);
  size_t e[1][2] = {{0, 1}};
  assert_int_equal(lb_topo_from_edges(3, e, 1, "split", &t), LB_SUCCESS);
  assert_int_equal(lb_optimum_hops(t, load, NULL, &o), LB_ETOPO);
  lb_topo_free(t);
  /* Half the nodes hold everything: 2048 x 2048 cells, over the limit. */
  t = spec("ring:4096");
  unsigned long *big = calloc(4096, sizeof *big);
  for (size_t i = 0; i < 4096; i += 2) big[i] = 2;
  assert_int_equal(lb_optimum_hops(t, big, NULL, &o), LB_ERANGE);
  free(big);
  lb_topo_free(t);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(known_answers),
      cmocka_unit_test(line_is_earth_movers),
      cmocka_unit_test(brute_force),
      cmocka_unit_test(bad_input),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
