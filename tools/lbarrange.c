/* lbarrange: where to put processors of different speeds in a graph so
 * that heterogeneous diffusion converges fastest (seed 002). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <getopt.h>
#include <float.h>
#include <math.h>
#include "cli.h"
#include "lb_topo.h"
#include "lb_rng.h"
#include "lb_hetero.h"
#include "lb_arrange.h"
#include "lb_errno.h"

#define MAXP 4096

static void usage(void)
{
  printf("Usage: lbarrange [OPTIONS] TOPOLOGY\n"
         "Arrange processors of different speeds on a graph to speed up heterogeneous\n"
         "diffusion (Jin & Wang 2003).  The convergence ratio p = lambda_P/lambda_2 of\n"
         "S^-1 A A^T is reported for the greedy arrangement (p1) and, on request,\n"
         "compared with every arrangement or with random ones.\n\n"
         "TOPOLOGY is ring:N, mesh:RxC, torus:RxC, hypercube:D, complete:N, star:N,\n"
         "random:N[:EXTRA[:SEED]] or a graph file; it must be connected.\n\n"
         "Options:\n"
         "  -s, --speeds LIST        comma-separated speeds, one per node (default 1,2,..,P);\n"
         "                           decimals or fractions A/B.  The greedy divides them\n"
         "                           by the slowest first (the paper's scaling, so the\n"
         "                           slowest is 1 and nodes not yet given a speed count\n"
         "                           as 1); p itself does not change with the scale\n"
         "  -r, --random-speeds LO,HI  P speeds drawn uniformly from [LO,HI] (seeded),\n"
         "                           divided by their minimum\n"
         "  -m, --method M           greedy (default), exhaustive (all P!, P <= %d) or\n"
         "                           montecarlo (random arrangements, paper's scheme)\n"
         "  -n, --samples N          Monte Carlo arrangements (default 100000)\n"
         "  -S, --seed N             random seed (default 1)\n"
         "  -t, --threads N          threads for the searches (default 0: one per processor)\n"
         "  -H, --hist FILE          Monte Carlo: write the histogram as CSV n,count where\n"
         "                           count is the number of p in (n-1, n]; FILE is\n"
         "                           checked before the search and replaced only when\n"
         "                           the run succeeds\n"
         "  -c, --csv                one CSV header and row instead of text (full\n"
         "                           precision; p_mean and p_sd for Monte Carlo)\n"
         "      --version            print the version and the commit it was built from\n"
         "  -h, --help               show this help and exit\n\n"
         "p_r = (p1 - p_min)/(p_max - p_min); pct = N< / (N< + N> + 1), where N<, N>\n"
         "count arrangements with p below/above p1 (relative tie tolerance %g).\n"
         "Monte Carlo also gives the mean of p over the draws and its standard\n"
         "deviation (divisor n - 1).\n\n"
         "Exit status: 0 success, 1 a failed computation, 2 bad input (disconnected\n"
         "graph, a speed <= 0, wrong number of speeds, P > %d for exhaustive).\n",
         LB_ARRANGE_EXHAUSTIVE_MAX, LB_ARRANGE_TIE, LB_ARRANGE_EXHAUSTIVE_MAX);
}

static void print_arr(FILE *f, const double *speed, const size_t *arr, size_t n, int prec)
{
  for (size_t i = 0; i < n; i++) fprintf(f, "%s%.*g", i ? " " : "", prec, speed[arr[i]]);
}

/* Monte Carlo in chunks, for progress on a terminal.  The draws come
 * from r in order, so the chunks see the same arrangements as one call.
 * The mean and sd of p are accumulated in draw order (Welford), so they
 * too do not depend on the threads. */
static void monte_carlo(const lb_topo *t, const double *speed, size_t samples, lb_rng *r, double p1, unsigned threads,
                        size_t *amin, size_t *amax, size_t *hist, size_t nbins, lb_arrange_stats *st, double *mean,
                        double *sd)
{
  size_t n = t->n, chunk = 10000;
  size_t *h = malloc(nbins * sizeof *h), *cmin = malloc(n * sizeof *cmin), *cmax = malloc(n * sizeof *cmax);
  double *pall = malloc(chunk * sizeof *pall), mu = 0, m2 = 0;
  if (!h || !cmin || !cmax || !pall) cli_die(CLI_EXIT_FAIL, "out of memory");
  for (size_t done = 0; done < samples;) {
    size_t k = samples - done < chunk ? samples - done : chunk;
    lb_arrange_stats c;
    if (lb_arrange_monte_carlo(t, speed, k, r, p1, threads, cmin, cmax, pall, h, nbins, &c))
      cli_die(CLI_EXIT_FAIL, "montecarlo: %s", lb_errmsg());
    for (size_t i = 0; i < k; i++) {
      double dev = pall[i] - mu;
      mu += dev / (double)(done + i + 1);
      m2 += dev * (pall[i] - mu);
    }
    if (done == 0 || c.p_min < st->p_min) {
      st->p_min = c.p_min;
      memcpy(amin, cmin, n * sizeof *amin);
    }
    if (done == 0 || c.p_max > st->p_max) {
      st->p_max = c.p_max;
      memcpy(amax, cmax, n * sizeof *amax);
    }
    st->p_ref = c.p_ref;
    st->n_below += c.n_below;
    st->n_equal += c.n_equal;
    st->n_above += c.n_above;
    st->n_total += c.n_total;
    for (size_t b = 0; b < nbins; b++) hist[b] += h[b];
    done += k;
    cli_progress("random arrangements", done, samples);
  }
  cli_progress_end();
  *mean = mu;
  *sd = samples > 1 ? sqrt(m2 / (double)(samples - 1)) : 0;
  free(h);
  free(cmin);
  free(cmax);
  free(pall);
}

int main(int argc, char **argv)
{
  static const struct option opts[] = {
      {"speeds", required_argument, 0, 's'}, {"random-speeds", required_argument, 0, 'r'},
      {"method", required_argument, 0, 'm'}, {"samples", required_argument, 0, 'n'},
      {"seed", required_argument, 0, 'S'},   {"threads", required_argument, 0, 't'},
      {"hist", required_argument, 0, 'H'},   {"csv", no_argument, 0, 'c'},
      {"help", no_argument, 0, 'h'},         {0, 0, 0, 0}};
  cli_init(argv[0]);
  cli_version_opt(argc, argv);
  static double speed[MAXP];
  double range[2] = {0, 0};
  size_t nspeed = 0, nrange = 0;
  unsigned long samples = 100000, seed = 1, threads = 0;
  const char *method = "greedy", *hist_path = NULL;
  int csv = 0, c;
  while ((c = getopt_long(argc, argv, ":s:r:m:n:S:t:H:ch", opts, NULL)) != -1) {
    switch (c) {
    case 's': nspeed = cli_doubles("--speeds", optarg, speed, MAXP, -DBL_MAX, DBL_MAX); break;
    case 'r': nrange = cli_doubles("--random-speeds", optarg, range, 2, -DBL_MAX, DBL_MAX); break;
    case 'm': method = optarg; break;
    case 'n': samples = cli_ulong("--samples", optarg, 1, 100000000UL); break;
    case 'S': seed = cli_ulong("--seed", optarg, 0, 4294967295UL); break;
    case 't': threads = cli_ulong("--threads", optarg, 0, 64); break;
    case 'H': hist_path = optarg; break;
    case 'c': csv = 1; break;
    case 'h': usage(); return 0;
    default: cli_bad_option(c, argc, argv);
    }
  }
  if (argc - optind != 1) cli_usage_error("expected one TOPOLOGY");
  int exh = !strcmp(method, "exhaustive"), mc = !strcmp(method, "montecarlo");
  if (!exh && !mc && strcmp(method, "greedy"))
    cli_usage_error("--method: unknown method '%s' (greedy, exhaustive, montecarlo)", method);
  if (nspeed && nrange) cli_usage_error("give --speeds or --random-speeds, not both");
  if (nrange && (nrange != 2 || !(range[0] > 0) || !(range[1] >= range[0])))
    cli_usage_error("--random-speeds: need LO,HI with 0 < LO <= HI");
  if (hist_path && !mc) cli_usage_error("--hist needs --method montecarlo");

  lb_topo *t;
  if (lb_topo_from_spec(argv[optind], &t)) cli_die(CLI_EXIT_USAGE, "%s", lb_errmsg());
  size_t n = t->n;
  if (n < 2) cli_usage_error("%s: an arrangement needs at least 2 nodes", argv[optind]);
  if (n > MAXP) cli_usage_error("%s: %zu nodes, at most %d supported", argv[optind], n, MAXP);
  if (exh && n > LB_ARRANGE_EXHAUSTIVE_MAX)
    cli_usage_error("--method exhaustive: P = %zu > %d (P! arrangements); use montecarlo", n,
                    LB_ARRANGE_EXHAUSTIVE_MAX);
  lb_rng *rs = NULL, *rm = NULL;
  if (lb_rng_alloc_stream(seed, 0, &rs) || lb_rng_alloc_stream(seed, 1, &rm)) cli_die(CLI_EXIT_FAIL, "%s", lb_errmsg());
  if (nrange) {
    double mn = INFINITY;
    for (size_t i = 0; i < n; i++) {
      speed[i] = range[0] + (range[1] - range[0]) * lb_rng_uniform(rs);
      if (speed[i] < mn) mn = speed[i];
    }
    for (size_t i = 0; i < n; i++) speed[i] /= mn; /* slowest = 1, as the paper */
  } else if (nspeed) {
    if (nspeed != n) cli_usage_error("--speeds: %zu speeds given for %zu nodes in %s", nspeed, n, argv[optind]);
  } else {
    for (size_t i = 0; i < n; i++) speed[i] = (double)(i + 1);
  }
  if (lb_hetero_check_speeds(speed, n)) cli_usage_error("--speeds: %s", lb_errmsg());
  /* Every argument is checked: open the output before the long work. */
  FILE *hf = hist_path ? cli_out_open("--hist", hist_path) : NULL;

  size_t *ga = malloc(n * sizeof *ga), *amin = malloc(n * sizeof *amin), *amax = malloc(n * sizeof *amax), evals,
         nbins = 1000;
  size_t *hist = mc ? calloc(nbins, sizeof *hist) : NULL;
  if (!ga || !amin || !amax || (mc && !hist)) cli_die(CLI_EXIT_FAIL, "out of memory");
  double p1;
  if (lb_arrange_greedy(t, speed, ga, &p1, &evals)) cli_die(CLI_EXIT_FAIL, "greedy: %s", lb_errmsg());
  lb_arrange_stats st = {0};
  int searched = exh || mc;
  if (exh && lb_arrange_exhaustive(t, speed, p1, (unsigned)threads, amin, amax, &st))
    cli_die(CLI_EXIT_FAIL, "exhaustive: %s", lb_errmsg());
  double mean = 0, sd = 0;
  if (mc) monte_carlo(t, speed, samples, rm, p1, (unsigned)threads, amin, amax, hist, nbins, &st, &mean, &sd);

  if (csv) {
    printf("graph,P,method,p1,p_min,p_max,P_r_pct,N_below,N_equal,N_above,pct,n_total,evals,"
           "greedy_arrangement,min_arrangement,p_mean,p_sd\n");
    printf("%s,%zu,%s,%.17g,", t->name, n, method, p1);
    if (searched)
      printf("%.17g,%.17g,%.17g,%zu,%zu,%zu,%.17g,%zu,", st.p_min, st.p_max, 100 * lb_arrange_pr(&st, p1), st.n_below,
             st.n_equal, st.n_above, 100 * lb_arrange_pct(&st), st.n_total);
    else printf(",,,,,,,,");
    printf("%zu,", evals);
    print_arr(stdout, speed, ga, n, 17);
    putchar(',');
    if (searched) print_arr(stdout, speed, amin, n, 17);
    if (mc) printf(",%.17g,%.17g\n", mean, sd);
    else printf(",,\n");
  } else {
    printf("graph: %s (%zu nodes, %zu edges)\nspeeds:", t->name, n, t->m);
    for (size_t i = 0; i < n; i++) printf(" %.10g", speed[i]);
    printf("\ngreedy: p1 = %.10g after %zu evaluations\n  speeds at nodes 1..%zu: ", p1, evals, n);
    print_arr(stdout, speed, ga, n, 10);
    putchar('\n');
    if (searched) {
      printf("%s over %zu arrangements: p_min = %.10g, p_max = %.10g\n", method, st.n_total, st.p_min, st.p_max);
      if (mc) printf("  mean p = %.10g, sd = %.10g\n", mean, sd);
      printf("  N(p < p1) = %zu, N(p = p1) = %zu, N(p > p1) = %zu\n", st.n_below, st.n_equal, st.n_above);
      printf("  P_r = %.10g%%, pct = %.10g%%\n", 100 * lb_arrange_pr(&st, p1), 100 * lb_arrange_pct(&st));
      printf("  least p: speeds at nodes 1..%zu: ", n);
      print_arr(stdout, speed, amin, n, 10);
      putchar('\n');
    }
  }
  if (hf) {
    fprintf(hf, "n,count\n");
    for (size_t k = 0; k < nbins; k++)
      if (hist[k]) fprintf(hf, "%zu%s,%zu\n", k + 1, k + 1 == nbins ? "+" : "", hist[k]);
    cli_out_commit(hf);
  }
  free(ga);
  free(amin);
  free(amax);
  free(hist);
  lb_rng_free(rs);
  lb_rng_free(rm);
  lb_topo_free(t);
  return 0;
}
