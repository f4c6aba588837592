/* cli.c: messages, error exits, option faults and terminal progress. */
#include <stdio.h>
#include <stdlib.h>
#include <stdarg.h>
#include <string.h>
#include <ctype.h>
#include <math.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"

static const char *prog = "lbfarm";

void cli_init(const char *argv0)
{
  extern int opterr;
  opterr = 0; /* we report bad options ourselves, once */
  const char *slash = argv0 ? strrchr(argv0, '/') : NULL;
  prog = slash ? slash + 1 : (argv0 && *argv0 ? argv0 : prog);
  cli_check_stdout();
}

const char *cli_prog(void) { return prog; }

static void vsay(const char *fmt, va_list ap)
{
  fprintf(stderr, "%s: ", prog);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
}

void cli_usage_error(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vsay(fmt, ap);
  va_end(ap);
  fprintf(stderr, "Try '%s --help' for more information.\n", prog);
  exit(CLI_EXIT_USAGE);
}

void cli_die(int status, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vsay(fmt, ap);
  va_end(ap);
  exit(status);
}

/* The argument that starts with "-c": getopt leaves optind on it while
 * the rest of a cluster ("-1,2") is pending, past it otherwise. */
static const char *element(int c, int argc, char **argv)
{
  extern int optind;
  if (optind < argc && argv[optind][0] == '-' && argv[optind][1] == c && argv[optind][2]) return argv[optind];
  if (optind >= 2 && optind - 1 < argc && argv[optind - 1][0] == '-' && argv[optind - 1][1] == c)
    return argv[optind - 1];
  return NULL;
}

void cli_bad_option(int c, int argc, char **argv)
{
  extern int optind, optopt;
  const char *prev = optind >= 2 && optind - 1 < argc ? argv[optind - 1] : "";
  int lng = !strncmp(prev, "--", 2) && prev[2];
  int len = (int)strcspn(prev, "=");
  if (c == ':') {
    if (lng) cli_usage_error("option '%.*s' needs an argument", len, prev);
    cli_usage_error("option '-%c' needs an argument", optopt);
  }
  if (optopt && (isdigit(optopt) || optopt == '.')) {
    /* No option is a digit: this is a value, e.g. a negative load. */
    const char *arg = element(optopt, argc, argv);
    cli_usage_error("bad value '%.40s': a negative number is not allowed here "
                    "(and it is not an option)",
                    arg ? arg : "-");
  }
  if (optopt && lng && prev[len] == '=') cli_usage_error("option '%.*s' takes no argument", len, prev);
  if (optopt && isprint(optopt)) cli_usage_error("unknown option '-%c'", optopt);
  if (lng) cli_usage_error("unknown option '%.*s'", len, prev);
  cli_usage_error("unknown option");
}

unsigned long cli_ulong(const char *opt, const char *s, unsigned long lo, unsigned long hi)
{
  char err[CLI_ERR_MAX];
  unsigned long v;
  if (cli_parse_ulong(opt, s, lo, hi, &v, err, sizeof err)) cli_usage_error("%s", err);
  return v;
}

double cli_double(const char *opt, const char *s, double lo, double hi)
{
  char err[CLI_ERR_MAX];
  double v;
  if (cli_parse_double(opt, s, lo, hi, &v, err, sizeof err)) cli_usage_error("%s", err);
  return v;
}

size_t cli_doubles(const char *opt, const char *s, double *v, size_t max, double lo, double hi)
{
  char err[CLI_ERR_MAX];
  size_t n;
  if (cli_parse_doubles(opt, s, v, max, lo, hi, &n, err, sizeof err)) cli_usage_error("%s", err);
  return n;
}

static double last;
static int shown;

void cli_progress(const char *what, size_t done, size_t total)
{
  if (!isatty(STDERR_FILENO)) return;
  double now = cli_now();
  if (done < total && now - last < 0.1) return;
  last = now;
  shown = 1;
  if (total)
    fprintf(stderr, "\r%s: %s %zu/%zu (%.0f%%)  ", prog, what, done, total, 100.0 * (double)done / (double)total);
  else fprintf(stderr, "\r%s: %s %zu  ", prog, what, done);
}

void cli_progress_end(void)
{
  if (shown && isatty(STDERR_FILENO)) fputc('\n', stderr);
  shown = 0;
}
