/* cli.c: argument checks, error exits and terminal progress. */
#include <stdio.h>
#include <stdlib.h>
#include <stdarg.h>
#include <string.h>
#include <errno.h>
#include <math.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"

static const char *prog = "lbfarm";

void cli_init(const char *argv0)
{
  extern int opterr;
  opterr = 0;  /* we report bad options ourselves, once */
  const char *slash = argv0 ? strrchr(argv0, '/') : NULL;
  prog = slash ? slash + 1 : (argv0 ? argv0 : prog);
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

void cli_bad_option(int c, int argc, char **argv)
{
  extern int optind;
  const char *arg = optind - 1 < argc && optind > 0 ? argv[optind - 1] : "?";
  if (c == ':') cli_usage_error("option '%s' needs an argument", arg);
  cli_usage_error("unknown option '%s'", arg);
}

unsigned long cli_ulong(const char *opt, const char *s, unsigned long lo, unsigned long hi)
{
  char *end;
  errno = 0;
  unsigned long v = strtoul(s, &end, 10);
  if (!*s || *end || errno || s[0] == '-' || v < lo || v > hi)
    cli_usage_error("%s: '%s' is not an integer in %lu..%lu", opt, s, lo, hi);
  return v;
}

double cli_double(const char *opt, const char *s, double lo, double hi)
{
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (!*s || *end || errno || !isfinite(v) || v < lo || v > hi)
    cli_usage_error("%s: '%s' is not a number in [%g, %g]", opt, s, lo, hi);
  return v;
}

size_t cli_doubles(const char *opt, const char *s, double *v, size_t max, double lo, double hi)
{
  size_t n = 0;
  char buf[64];
  while (*s) {
    const char *comma = strchr(s, ',');
    size_t len = comma ? (size_t)(comma - s) : strlen(s);
    if (n == max) cli_usage_error("%s: more than %zu values", opt, max);
    if (len == 0 || len >= sizeof buf) cli_usage_error("%s: empty or overlong value in '%s'", opt, s);
    memcpy(buf, s, len);
    buf[len] = '\0';
    v[n++] = cli_double(opt, buf, lo, hi);
    s += len + (comma ? 1 : 0);
    if (comma && !*s) cli_usage_error("%s: trailing comma", opt);
  }
  return n;
}

static double last;
static int shown;

void cli_progress(const char *what, size_t done, size_t total)
{
  if (!isatty(STDERR_FILENO)) return;
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  double now = ts.tv_sec + ts.tv_nsec * 1e-9;
  if (done < total && now - last < 0.1) return;
  last = now;
  shown = 1;
  if (total)
    fprintf(stderr, "\r%s: %s %zu/%zu (%.0f%%)  ", prog, what, done, total,
            100.0 * (double)done / (double)total);
  else
    fprintf(stderr, "\r%s: %s %zu  ", prog, what, done);
}

void cli_progress_end(void)
{
  if (shown && isatty(STDERR_FILENO)) fputc('\n', stderr);
  shown = 0;
}
