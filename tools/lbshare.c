/* lbshare: divisible-load sharing with availability windows (seed 004). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <getopt.h>
#include "cli.h"
#include "lb_errno.h"
#include "lb_share.h"

#define MAXP 256
#define MAXW 64

static void usage(void)
{
  printf("Usage: lbshare [OPTIONS] PROC...\n"
         "       lbshare --example\n"
         "Share a divisible job of size LAMBDA among processors that are available\n"
         "only in given time windows (seed 004, OPT_LOAD_SHARE), and compare with\n"
         "the bidding and balance baselines.\n\n"
         "PROC is SPEED:WINDOWS, WINDOWS a comma-separated list of A-B (B may be\n"
         "'inf'), in increasing order and not overlapping; e.g. 1:0-inf 2:2-6\n"
         "1:12-16,18-inf.  Processors are numbered from 1 in the order given.\n\n"
         "Options:\n"
         "  -l, --lambda L   job size (> 0; default 25)\n"
         "  -t, --t0 T       start time (default 0); windows must start at or after it\n"
         "  -e, --example    run the worked example of seed 004, section 4.1\n"
         "  -h, --help       show this help and exit\n\n"
         "Exit status: 0 success, 1 the job does not fit the windows, 2 bad input.\n");
}

static double parse_time(const char *proc, const char *s, size_t len)
{
  char buf[64];
  if (len == 0 || len >= sizeof buf) cli_usage_error("processor '%s': empty or overlong time", proc);
  memcpy(buf, s, len);
  buf[len] = '\0';
  if (!strcmp(buf, "inf")) return INFINITY;
  char *end;
  double v = strtod(buf, &end);
  if (*end || !isfinite(v)) cli_usage_error("processor '%s': '%s' is not a time", proc, buf);
  return v;
}

static void parse_proc(const char *arg, lb_share_proc *p, lb_share_window *w)
{
  const char *colon = strchr(arg, ':');
  if (!colon) cli_usage_error("processor '%s': expected SPEED:WINDOWS", arg);
  char sp[64];
  size_t sl = (size_t)(colon - arg);
  if (sl == 0 || sl >= sizeof sp) cli_usage_error("processor '%s': missing speed", arg);
  memcpy(sp, arg, sl);
  sp[sl] = '\0';
  p->speed = cli_double("speed", sp, -INFINITY, INFINITY); /* lb_share_check words the range */
  p->nwin = 0;
  p->win = w;
  const char *s = colon + 1;
  if (!*s) cli_usage_error("processor '%s': no windows", arg);
  while (*s) {
    const char *comma = strchr(s, ','), *end = comma ? comma : s + strlen(s);
    const char *dash = memchr(s + 1, '-', (size_t)(end - s - 1 > 0 ? end - s - 1 : 0));
    if (!dash) cli_usage_error("processor '%s': window '%.*s' is not A-B", arg, (int)(end - s), s);
    if (p->nwin == MAXW) cli_usage_error("processor '%s': more than %d windows", arg, MAXW);
    w[p->nwin].a = parse_time(arg, s, (size_t)(dash - s));
    w[p->nwin].b = parse_time(arg, dash + 1, (size_t)(end - dash - 1));
    p->nwin++;
    s = comma ? comma + 1 : end;
    if (comma && !*s) cli_usage_error("processor '%s': trailing comma", arg);
  }
}

static void print_windows(const lb_share_proc *p)
{
  for (size_t k = 0; k < p->nwin; k++)
    printf("%s[%g,%g]", k ? "u" : "", p->win[k].a, p->win[k].b);
}

static int run(size_t n, const lb_share_proc *p, double t0, double lambda)
{
  lb_share_curve *cv;
  if (lb_share_curve_build(n, p, t0, &cv)) cli_die(CLI_EXIT_USAGE, "%s", lb_errmsg());
  printf("x(t) knots (c_m, x_m, r_m: x = x_m + r_m (t - c_m) from c_m on):\n");
  for (size_t m = 0; m < cv->nc; m++) printf("  %-3zu %-8g %-8g %g\n", m + 1, cv->c[m], cv->x[m], cv->r[m]);
  lb_share_curve_free(cv);
  double ts, sh[MAXP], busy[MAXP];
  int rc = lb_share_opt(n, p, t0, lambda, &ts, sh, busy);
  if (rc == LB_ERANGE) cli_die(CLI_EXIT_FAIL, "%s", lb_errmsg());
  if (rc) cli_die(CLI_EXIT_USAGE, "%s", lb_errmsg());
  printf("\nOPT_LOAD_SHARE, lambda = %g, t0 = %g: t* = %g\n", lambda, t0, ts);
  printf("  proc speed  selected |R_i|     lambda_i   windows\n");
  double tot = 0;
  for (size_t i = 0; i < n; i++) {
    printf("  p%-3zu %-6g %-8s %-9g %-10g ", i + 1, p[i].speed, sh[i] > 0 ? "yes" : "no", busy[i], sh[i]);
    print_windows(&p[i]);
    putchar('\n');
    tot += sh[i];
  }
  printf("  sum of shares %g\n", tot);
  double tb, tbal;
  size_t who;
  if (lb_share_bidding(n, p, t0, lambda, &tb, &who) == LB_SUCCESS)
    printf("\nbidding (fastest processor open at t0 = p%zu): completion %g, speedup of sharing %g\n",
           who + 1, tb, (tb - t0) / (ts - t0));
  else
    printf("\nbidding: %s\n", lb_errmsg());
  if (lb_share_balance(n, p, t0, lambda, &tbal, NULL) == LB_SUCCESS)
    printf("balance (speed-proportional shares, windows ignored): completion %g\n", tbal);
  return 0;
}

int main(int argc, char **argv)
{
  static const struct option opts[] = {
    { "lambda", required_argument, 0, 'l' }, { "t0", required_argument, 0, 't' },
    { "example", no_argument, 0, 'e' }, { "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 } };
  cli_init(argv[0]);
  double lambda = 25, t0 = 0;
  int example = 0, c;
  while ((c = getopt_long(argc, argv, ":l:t:eh", opts, NULL)) != -1) {
    switch (c) {
    case 'l': lambda = cli_double("--lambda", optarg, -INFINITY, INFINITY); break;
    case 't': t0 = cli_double("--t0", optarg, -1e300, 1e300); break;
    case 'e': example = 1; break;
    case 'h': usage(); return 0;
    default: cli_bad_option(c, argc, argv);
    }
  }
  if (!(lambda > 0)) cli_usage_error("--lambda %g: the job size must be > 0", lambda);
  static lb_share_proc p[MAXP];
  static lb_share_window w[MAXP][MAXW];
  size_t n = 0;
  if (example) {
    if (optind != argc) cli_usage_error("--example takes no processors");
    static const char *ex[] = {"1:0-inf", "2:2-6", "3:9-11", "1:4-8", "1:12-16,18-inf"};
    printf("Seed 004, section 4.1: lambda = 25, t0 = 0, speeds 1,2,3,1,1\n\n");
    for (; n < 5; n++) parse_proc(ex[n], &p[n], w[n]);
    return run(n, p, 0, 25);
  }
  if (optind == argc) cli_usage_error("no processors given (try --help or --example)");
  for (; optind < argc; optind++) {
    if (n == MAXP) cli_usage_error("more than %d processors", MAXP);
    parse_proc(argv[optind], &p[n], w[n]);
    n++;
  }
  return run(n, p, t0, lambda);
}
