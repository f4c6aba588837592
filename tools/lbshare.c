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
         "       lbshare --example [--csv]\n"
         "Share a divisible job of size LAMBDA among processors that are available\n"
         "only in given time windows (seed 004, OPT_LOAD_SHARE), and compare with\n"
         "the bidding and balance baselines.\n\n"
         "PROC is SPEED:WINDOWS, WINDOWS a comma-separated list of A-B (B may be\n"
         "'inf'), in increasing order and not overlapping; e.g. 1:0-inf 2:2-6\n"
         "1:12-16,18-inf.  A processor given as SPEED or SPEED: has no window: it\n"
         "takes no part (the output says so).  Processors are numbered from 1 in\n"
         "the order given.  Every number may be a decimal or a fraction A/B\n"
         "(1501/21:0-inf).\n\n"
         "Options:\n"
         "  -l, --lambda L   job size (> 0; default 25)\n"
         "  -t, --t0 T       start time (default 0); windows must start at or after it\n"
         "  -e, --example    run the worked example of seed 004, section 4.1\n"
         "  -c, --csv        CSV: a header, then one row per processor (the job's\n"
         "                   figures repeated on each row; windows as A-B separated\n"
         "                   by spaces), full precision\n"
         "      --version    print the version and the commit it was built from\n"
         "  -h, --help       show this help and exit\n\n"
         "Exit status: 0 success, 1 the job does not fit the windows, 2 bad input.\n");
}

static double parse_time(const char *proc, const char *s, size_t len)
{
  char buf[128], err[CLI_ERR_MAX], what[96];
  if (len == 0 || len >= sizeof buf) cli_usage_error("processor '%s': empty or overlong time", proc);
  memcpy(buf, s, len);
  buf[len] = '\0';
  if (!strcmp(buf, "inf")) return INFINITY;
  double v;
  snprintf(what, sizeof what, "processor '%.40s'", proc);
  if (cli_parse_double(what, buf, -1e300, 1e300, &v, err, sizeof err))
    cli_usage_error("%s: '%s' is not a time (a number, a fraction A/B or inf)", what, buf);
  return v;
}

static void parse_proc(const char *arg, lb_share_proc *p, lb_share_window *w)
{
  const char *colon = strchr(arg, ':');
  size_t sl = colon ? (size_t)(colon - arg) : strlen(arg);
  char sp[128];
  if (sl == 0 || sl >= sizeof sp) cli_usage_error("processor '%s': missing speed", arg);
  memcpy(sp, arg, sl);
  sp[sl] = '\0';
  p->speed = cli_double("speed", sp, -INFINITY, INFINITY); /* lb_share_check words the range */
  p->nwin = 0;
  p->win = w;
  const char *s = colon ? colon + 1 : "";
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

/* Text: [a,b]u[c,d]; CSV (csv != 0): "a-b c-d" as on the command line,
 * with no comma inside the field.  Digits: 10 for text, 17 for CSV. */
static void print_windows(FILE *f, const lb_share_proc *p, int csv)
{
  int prec = csv ? 17 : 10;
  if (!p->nwin) fputs(csv ? "" : "none", f);
  for (size_t k = 0; k < p->nwin; k++) {
    if (csv) fprintf(f, "%s%.*g-%.*g", k ? " " : "", prec, p->win[k].a, prec, p->win[k].b);
    else fprintf(f, "%s[%.*g,%.*g]", k ? "u" : "", prec, p->win[k].a, prec, p->win[k].b);
  }
}

/* n processors as given; only those with a window (idx[0..m-1]) take
 * part in the sharing and the baselines. */
static int run(size_t n, const lb_share_proc *all, double t0, double lambda, int csv)
{
  static lb_share_proc p[MAXP];
  size_t idx[MAXP], m = 0;
  for (size_t i = 0; i < n; i++)
    if (all[i].nwin) {
      idx[m] = i;
      p[m++] = all[i];
    }
  /* Checked as given, so that messages number processors as the user did. */
  if (lb_share_check(n, all, t0)) cli_usage_error("%s", lb_errmsg());
  if (!m) cli_usage_error("no processor has an availability window");
  lb_share_curve *cv;
  if (lb_share_curve_build(m, p, t0, &cv)) cli_die(CLI_EXIT_USAGE, "%s", lb_errmsg());
  if (!csv) {
    printf("x(t) knots (c_m, x_m, r_m: x = x_m + r_m (t - c_m) from c_m on):\n");
    for (size_t k = 0; k < cv->nc; k++)
      printf("  %-3zu %-12.10g %-12.10g %.10g\n", k + 1, cv->c[k], cv->x[k], cv->r[k]);
  }
  lb_share_curve_free(cv);
  double ts, sh[MAXP], busy[MAXP];
  int rc = lb_share_opt(m, p, t0, lambda, &ts, sh, busy);
  if (rc == LB_ERANGE) cli_die(CLI_EXIT_FAIL, "%s", lb_errmsg());
  if (rc) cli_die(CLI_EXIT_USAGE, "%s", lb_errmsg());
  double tb = NAN, tbal = NAN;
  size_t who = 0;
  char bidmsg[512] = "";
  if (lb_share_bidding(m, p, t0, lambda, &tb, &who) != LB_SUCCESS) {
    snprintf(bidmsg, sizeof bidmsg, "%s", lb_errmsg());
    tb = NAN;
  }
  if (lb_share_balance(m, p, t0, lambda, &tbal, NULL) != LB_SUCCESS) tbal = NAN;
  double fs[MAXP] = {0}, fb[MAXP] = {0};
  for (size_t k = 0; k < m; k++) {
    fs[idx[k]] = sh[k];
    fb[idx[k]] = busy[k];
  }
  if (csv) {
    printf("lambda,t0,t_star,bidding_completion,bidding_proc,balance_completion,"
           "proc,speed,windows,takes_part,selected,busy,share\n");
    for (size_t i = 0; i < n; i++) {
      printf("%.17g,%.17g,%.17g,%.17g,", lambda, t0, ts, tb);
      if (!isnan(tb)) printf("%zu", idx[who] + 1);
      printf(",%.17g,%zu,%.17g,", tbal, i + 1, all[i].speed);
      print_windows(stdout, &all[i], 1);
      printf(",%d,%d,%.17g,%.17g\n", all[i].nwin > 0, fs[i] > 0, fb[i], fs[i]);
    }
    return 0;
  }
  printf("\nOPT_LOAD_SHARE, lambda = %.10g, t0 = %.10g: t* = %.10g\n", lambda, t0, ts);
  printf("  proc speed        selected |R_i|         lambda_i      windows\n");
  double tot = 0;
  for (size_t i = 0; i < n; i++) {
    printf("  p%-3zu %-12.10g %-8s %-13.10g %-13.10g ", i + 1, all[i].speed,
           !all[i].nwin ? "-"
           : fs[i] > 0  ? "yes"
                        : "no",
           fb[i], fs[i]);
    print_windows(stdout, &all[i], 0);
    if (!all[i].nwin) printf(" (no window: takes no part)");
    putchar('\n');
    tot += fs[i];
  }
  printf("  sum of shares %.10g\n", tot);
  if (!isnan(tb))
    printf("\nbidding (fastest processor open at t0 = p%zu): completion %.10g, speedup of sharing %.10g\n",
           idx[who] + 1, tb, (tb - t0) / (ts - t0));
  else printf("\nbidding: %s\n", bidmsg);
  if (!isnan(tbal)) printf("balance (speed-proportional shares, windows ignored): completion %.10g\n", tbal);
  return 0;
}

int main(int argc, char **argv)
{
  static const struct option opts[] = {{"lambda", required_argument, 0, 'l'}, {"t0", required_argument, 0, 't'},
                                       {"example", no_argument, 0, 'e'},      {"csv", no_argument, 0, 'c'},
                                       {"help", no_argument, 0, 'h'},         {0, 0, 0, 0}};
  cli_init(argv[0]);
  cli_version_opt(argc, argv);
  double lambda = 25, t0 = 0;
  int example = 0, csv = 0, c;
  while ((c = getopt_long(argc, argv, ":l:t:ech", opts, NULL)) != -1) {
    switch (c) {
    case 'l': lambda = cli_double("--lambda", optarg, -INFINITY, INFINITY); break;
    case 't': t0 = cli_double("--t0", optarg, -1e300, 1e300); break;
    case 'e': example = 1; break;
    case 'c': csv = 1; break;
    case 'h': usage(); return 0;
    default: cli_bad_option(c, argc, argv);
    }
  }
  if (!(lambda > 0)) cli_usage_error("--lambda %.17g: the job size must be > 0", lambda);
  static lb_share_proc p[MAXP];
  static lb_share_window w[MAXP][MAXW];
  size_t n = 0;
  if (example) {
    if (optind != argc) cli_usage_error("--example takes no processors");
    static const char *ex[] = {"1:0-inf", "2:2-6", "3:9-11", "1:4-8", "1:12-16,18-inf"};
    if (!csv) printf("Seed 004, section 4.1: lambda = 25, t0 = 0, speeds 1,2,3,1,1\n\n");
    for (; n < 5; n++) parse_proc(ex[n], &p[n], w[n]);
    return run(n, p, 0, 25, csv);
  }
  if (optind == argc) cli_usage_error("no processors given (try --help or --example)");
  for (; optind < argc; optind++) {
    if (n == MAXP) cli_usage_error("more than %d processors", MAXP);
    parse_proc(argv[optind], &p[n], w[n]);
    n++;
  }
  return run(n, p, t0, lambda, csv);
}
