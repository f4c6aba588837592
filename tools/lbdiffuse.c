/* lbdiffuse: run first-order, second-order or heterogeneous diffusion
 * from a point load and compare the steps taken with the theory. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <getopt.h>
#include <float.h>
#include <math.h>
#include "cli.h"
#include "lb_topo.h"
#include "lb_spectrum.h"
#include "lb_diffusion.h"
#include "lb_diffuse.h"
#include "lb_hetero.h"
#include "lb_errno.h"

#define MAXP 4096

static void usage(void)
{
  printf("Usage: lbdiffuse [OPTIONS] TOPOLOGY\n"
         "Balance a point load on node 1 by diffusion and report the steps needed,\n"
         "beside the count predicted by the spectral rate.\n\n"
         "TOPOLOGY is ring:N, mesh:RxC, torus:RxC, hypercube:D, complete:N, star:N,\n"
         "random:N[:EXTRA[:SEED]] or a graph file; it must be connected.\n\n"
         "Options:\n"
         "  -k, --scheme S     first (Cybenko, default), second (SOR, Ghosh et al.)\n"
         "                     or hetero (speeds, Jin & Wang, optimal tau)\n"
         "  -a, --alpha A      edge coefficients: optimal (default), boillat, or a\n"
         "                     number in (0, 10] (the same alpha on every edge)\n"
         "  -b, --beta B       second order: beta in (0,2), or opt (default)\n"
         "  -s, --speeds LIST  hetero: one speed per node (default all 1)\n"
         "  -u, --tau T        hetero: opt (default, 2/(lambda_2+lambda_P)), safe\n"
         "                     (largest tau keeping 1 - tau deg_i/s_i >= 0) or a number\n"
         "  -w, --load W       the point load (default 100 P)\n"
         "  -e, --tol T        stop when max |w_i - mean| <= T (times for hetero;\n"
         "                     default 1e-6)\n"
         "  -i, --integer      integer loads with the non-negativity guard\n"
         "  -M, --max-iter N   give up after N steps (default 1000000)\n"
         "  -T, --trace FILE   write step,imbalance,predicted as CSV (predicted:\n"
         "                     initial imbalance x rate^step); FILE is checked\n"
         "                     before the run and replaced only when it ends\n"
         "  -c, --csv          one CSV header and row instead of text (full precision)\n"
         "      --version      print the version and the commit it was built from\n"
         "  -h, --help         show this help and exit\n\n"
         "The rate is the asymptotic factor per step: gamma (first order), the\n"
         "largest root modulus of r^2 - beta eta r + beta - 1 over the eigenvalues eta\n"
         "of M (second order; sqrt(beta-1) at beta_opt), (p-1)/(p+1) (hetero).\n\n"
         "Exit status: 0 balanced, 1 not balanced within --max-iter, 2 bad input.\n");
}

/* Largest |root| of r^2 - b e r + (b - 1) over the eigenvalues e != 1. */
static double sor_rate(const double *eta, size_t n, double b)
{
  double worst = 0;
  for (size_t k = 0; k + 1 < n; k++) { /* eta ascending; eta[n-1] = 1 */
    double disc = b * b * eta[k] * eta[k] - 4 * (b - 1), r;
    if (disc < 0) r = sqrt(b - 1);
    else r = fmax(fabs(b * eta[k] + sqrt(disc)), fabs(b * eta[k] - sqrt(disc))) / 2;
    if (r > worst) worst = r;
  }
  return worst;
}

int main(int argc, char **argv)
{
  static const struct option opts[] = {{"scheme", required_argument, 0, 'k'},
                                       {"alpha", required_argument, 0, 'a'},
                                       {"beta", required_argument, 0, 'b'},
                                       {"speeds", required_argument, 0, 's'},
                                       {"tau", required_argument, 0, 'u'},
                                       {"load", required_argument, 0, 'w'},
                                       {"tol", required_argument, 0, 'e'},
                                       {"integer", no_argument, 0, 'i'},
                                       {"max-iter", required_argument, 0, 'M'},
                                       {"trace", required_argument, 0, 'T'},
                                       {"csv", no_argument, 0, 'c'},
                                       {"help", no_argument, 0, 'h'},
                                       {0, 0, 0, 0}};
  cli_init(argv[0]);
  cli_version_opt(argc, argv);
  static double speed[MAXP];
  size_t nspeed = 0;
  const char *scheme = "first", *alpha_s = "optimal", *beta_s = "opt", *trace = NULL, *tau_s = "opt";
  double load = -1, tol = 1e-6, alpha = 0, beta = 1.0, tau = 0;
  unsigned long max_iter = 1000000;
  int integer = 0, csv = 0, c;
  while ((c = getopt_long(argc, argv, ":k:a:b:s:u:w:e:iM:T:ch", opts, NULL)) != -1) {
    switch (c) {
    case 'k': scheme = optarg; break;
    case 'a':
      alpha_s = optarg;
      if (strcmp(optarg, "optimal") && strcmp(optarg, "boillat")) {
        char err[CLI_ERR_MAX];
        if (cli_parse_double("--alpha", optarg, -INFINITY, INFINITY, &alpha, err, sizeof err))
          cli_usage_error("--alpha: unknown coefficient '%.40s' (expected optimal, boillat "
                          "or a number in (0, 10])",
                          optarg);
        alpha = cli_double("--alpha", optarg, 1e-12, 10);
      }
      break;
    case 'b':
      beta_s = optarg;
      if (strcmp(optarg, "opt")) beta = cli_double("--beta", optarg, 1e-9, 2 - 1e-9);
      break;
    case 'u':
      tau_s = optarg;
      if (strcmp(optarg, "opt") && strcmp(optarg, "safe")) tau = cli_double("--tau", optarg, 1e-12, 1e12);
      break;
    case 's': nspeed = cli_doubles("--speeds", optarg, speed, MAXP, -DBL_MAX, DBL_MAX); break;
    case 'w': load = cli_double("--load", optarg, 0, 1e15); break;
    case 'e': tol = cli_double("--tol", optarg, 1e-300, 1e300); break;
    case 'i': integer = 1; break;
    case 'M': max_iter = cli_ulong("--max-iter", optarg, 1, 1000000000UL); break;
    case 'T': trace = optarg; break;
    case 'c': csv = 1; break;
    case 'h': usage(); return 0;
    default: cli_bad_option(c, argc, argv);
    }
  }
  if (argc - optind != 1) cli_usage_error("expected one TOPOLOGY");
  int second = !strcmp(scheme, "second"), hetero = !strcmp(scheme, "hetero");
  if (!second && !hetero && strcmp(scheme, "first"))
    cli_usage_error("--scheme: unknown scheme '%s' (first, second, hetero)", scheme);
  if (strcmp(beta_s, "opt") && !second) cli_usage_error("--beta needs --scheme second");
  int beta_opt = second && !strcmp(beta_s, "opt");
  if (!second) beta = 1.0;
  if (strcmp(tau_s, "opt") && !hetero) cli_usage_error("--tau needs --scheme hetero");
  if (hetero && integer) cli_usage_error("--integer applies to first and second order only");
  lb_diffusion_kind kind = LB_DIFFUSION_UNIFORM;
  if (!strcmp(alpha_s, "optimal") || !strcmp(alpha_s, "boillat")) lb_diffusion_kind_parse(alpha_s, &kind);

  lb_topo *t;
  if (lb_topo_from_spec(argv[optind], &t)) cli_die(CLI_EXIT_USAGE, "%s", lb_errmsg());
  size_t n = t->n, m = t->m;
  if (n < 2 || n > MAXP) cli_usage_error("%s: %zu nodes, need 2..%d", argv[optind], n, MAXP);
  if (load < 0) load = 100.0 * (double)n;
  if (nspeed && !hetero) cli_usage_error("--speeds needs --scheme hetero");
  if (nspeed && nspeed != n) cli_usage_error("--speeds: %zu speeds given for %zu nodes in %s", nspeed, n, argv[optind]);
  if (!nspeed)
    for (size_t i = 0; i < n; i++) speed[i] = 1.0;
  if (lb_hetero_check_speeds(speed, n)) cli_usage_error("--speeds: %s", lb_errmsg());

  /* Every argument is checked: open the trace before the long work. */
  FILE *tf = trace ? cli_out_open("--trace", trace) : NULL;
  double *w = calloc(n, sizeof *w), *ea = malloc((m + 1) * sizeof *ea), *y = calloc(m + 1, sizeof *y),
         *eta = malloc(n * sizeof *eta);
  long *wi = calloc(n, sizeof *wi), *yi = calloc(m + 1, sizeof *yi);
  if (!w || !ea || !y || !eta || !wi || !yi) cli_die(CLI_EXIT_FAIL, "out of memory");
  double rate, coef = 0;
  if (hetero) {
    int st = 0;
    if (!strcmp(tau_s, "opt")) st = lb_hetero_tau_opt(t, speed, &coef, &rate);
    else {
      if (!strcmp(tau_s, "safe")) st = lb_hetero_tau_safe(t, speed, &coef);
      else coef = tau;
      if (!st) st = lb_hetero_rate(t, speed, coef, &rate);
      if (!st && rate >= 1)
        cli_usage_error("--tau: %.10g gives a rate %.10g >= 1: diffusion would not converge", coef, rate);
    }
    if (st) cli_die(CLI_EXIT_FAIL, "%s", lb_errmsg());
  } else {
    if (lb_diffusion_edge_alphas(t, kind, alpha, ea)) cli_die(CLI_EXIT_USAGE, "%s", lb_errmsg());
    coef = ea[0];
    double gamma;
    if (lb_diffusion_gamma(t, ea, &gamma)) cli_die(CLI_EXIT_USAGE, "%s", lb_errmsg());
    if (beta_opt) lb_diffusion_beta_from_gamma(gamma, &beta);
    rate = gamma;
    if (second) {
      gsl_matrix *M = gsl_matrix_alloc(n, n);
      lb_spectrum *sp;
      if (!M || lb_spectrum_alloc(n, &sp)) cli_die(CLI_EXIT_FAIL, "out of memory");
      lb_diffusion_matrix(t, ea, M);
      if (lb_spectrum_symm(sp, M)) cli_die(CLI_EXIT_FAIL, "%s", lb_errmsg());
      for (size_t i = 0; i < n; i++) eta[i] = gsl_vector_get(sp->eval, i);
      rate = sor_rate(eta, n, beta);
      lb_spectrum_free(sp);
      gsl_matrix_free(M);
    }
  }
  w[0] = hetero ? load / speed[0] : load;
  wi[0] = (long)llround(load);
  double lbar = hetero ? lb_hetero_lbar(speed, w, n) : load / (double)n;
  double imb0 = fabs(w[0] - lbar);
  for (size_t i = 1; i < n; i++) imb0 = fmax(imb0, lbar);
  double predicted = rate > 0 ? ceil(log(tol / imb0) / log(rate)) : 1;

  if (tf) fprintf(tf, "step,imbalance,predicted\n");
  size_t it = 0, guarded = 0;
  double imb = imb0, wmin = INFINITY;
  for (; imb > tol && it < max_iter; it++) {
    if (tf) fprintf(tf, "%zu,%.17g,%.17g\n", it, imb, imb0 * pow(rate, (double)it));
    double b = it == 0 ? 1.0 : beta;
    if (hetero) lb_hetero_step(t, speed, coef, w, y, NULL);
    else if (integer) {
      lb_diffuse_int_step(t, ea, b, wi, yi, &guarded);
      for (size_t i = 0; i < n; i++) w[i] = (double)wi[i];
    } else lb_diffuse_step(t, ea, b, w, y);
    imb = 0;
    for (size_t i = 0; i < n; i++) {
      imb = fmax(imb, fabs(w[i] - lbar));
      wmin = fmin(wmin, w[i]);
    }
  }
  /* Not balanced within --max-iter (exit 1) is a result too: keep it. */
  if (tf) {
    fprintf(tf, "%zu,%.17g,%.17g\n", it, imb, imb0 * pow(rate, (double)it));
    cli_out_commit(tf);
  }
  int done = imb <= tol;
  if (csv) {
    printf("topology,scheme,coefficient,P,alpha_or_tau,beta,rate,iterations,predicted,min_load,guarded,balanced\n");
    printf("%s,%s%s,%s,%zu,%.17g,%.17g,%.17g,%zu,%.0f,%.17g,%zu,%d\n", t->name, scheme, integer ? "-int" : "",
           hetero ? (strcmp(tau_s, "opt") ? (strcmp(tau_s, "safe") ? "tau_given" : "tau_safe") : "tau_opt")
                  : lb_diffusion_kind_name(kind),
           n, coef, beta, rate, it, predicted, wmin, guarded, done);
  } else {
    printf("%s on %s (%zu nodes): %s = %.10g%s", scheme, t->name, n, hetero ? "tau" : "alpha", coef,
           second ? "" : "\n");
    if (second) printf(", beta = %.10g\n", beta);
    printf("rate per step %.10g: predicted %.0f steps; took %zu steps%s\n", rate, predicted, it,
           done ? "" : " (not balanced)");
    printf("least %s seen %.10g%s\n", hetero ? "time" : "load", wmin, integer || hetero ? "" : " (real loads)");
    if (integer) printf("guard cut a node's outflow %zu times\n", guarded);
  }
  free(w);
  free(ea);
  free(y);
  free(eta);
  free(wi);
  free(yi);
  lb_topo_free(t);
  return done ? 0 : 1;
}
