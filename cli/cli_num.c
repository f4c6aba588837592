/* cli_num.c: strict numbers for options and arguments.  Nothing here
 * exits, so a fuzzer can call it; cli.c wraps each in an exiting form. */
#include <stdio.h>
#include <stdarg.h>
#include <string.h>
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <math.h>
#include "cli.h"

#define SHOW 40 /* characters of a bad value quoted in a message */

static int fail(char *err, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int fail(char *err, size_t len, const char *fmt, ...)
{
  if (err && len) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, len, fmt, ap);
    va_end(ap);
  }
  return CLI_EXIT_USAGE;
}

/* The value as quoted in messages: cut after SHOW characters. */
static const char *dots(const char *s) { return strlen(s) > SHOW ? "..." : ""; }

int cli_parse_ulong(const char *opt, const char *s, unsigned long lo, unsigned long hi, unsigned long *v, char *err,
                    size_t errlen)
{
  const char *d = s + (*s == '-');
  size_t k = 0;
  while (isdigit((unsigned char)d[k])) k++;
  const char *why = "";
  unsigned long x = 0;
  if (k == 0 || d[k]) why = "";
  else if (*s == '-') why = " (it is negative)";
  else {
    errno = 0;
    x = strtoul(d, NULL, 10);
    if (errno) why = " (it is too large)";
    else if (x >= lo && x <= hi) {
      *v = x;
      return 0;
    }
  }
  return fail(err, errlen, "%s: '%.*s%s' is not an integer in %lu..%lu%s", opt, SHOW, s, dots(s), lo, hi, why);
}

/* A whole decimal number (strtod's forms, but no leading space and no
 * inf or nan); 0 if [s, s+len) is not one. */
static int decimal(const char *s, size_t len, double *v)
{
  char buf[128], *end;
  if (len == 0 || len >= sizeof buf || isspace((unsigned char)*s)) return 0;
  memcpy(buf, s, len);
  buf[len] = '\0';
  errno = 0;
  *v = strtod(buf, &end);
  /* ERANGE on underflow gives a usable tiny value; overflow is not. */
  return *end == '\0' && isfinite(*v);
}

int cli_parse_double(const char *opt, const char *s, double lo, double hi, double *v, char *err, size_t errlen)
{
  const char *slash = strchr(s, '/');
  double x, b = 1;
  int ok = slash ? decimal(s, (size_t)(slash - s), &x) && decimal(slash + 1, strlen(slash + 1), &b)
                 : decimal(s, strlen(s), &x);
  if (!ok)
    return fail(err, errlen,
                "%s: '%.*s%s' is not a number (a decimal such as 2.5 or "
                "a fraction such as 5/2)",
                opt, SHOW, s, dots(s));
  if (b == 0) return fail(err, errlen, "%s: '%.*s%s' divides by zero", opt, SHOW, s, dots(s));
  x /= b;
  if (!isfinite(x)) return fail(err, errlen, "%s: '%.*s%s' is too large", opt, SHOW, s, dots(s));
  if (x < lo || x > hi)
    return fail(err, errlen, "%s: '%.*s%s' is not a number in [%.10g, %.10g]%s", opt, SHOW, s, dots(s), lo, hi,
                x < 0 && lo >= 0 ? " (it is negative)" : "");
  *v = x;
  return 0;
}

int cli_parse_doubles(const char *opt, const char *s, double *v, size_t max, double lo, double hi, size_t *count,
                      char *err, size_t errlen)
{
  size_t n = 0;
  char what[96], buf[128];
  if (!*s) return fail(err, errlen, "%s: no values", opt);
  for (;;) {
    const char *comma = strchr(s, ',');
    size_t len = comma ? (size_t)(comma - s) : strlen(s);
    if (n == max) return fail(err, errlen, "%s: more than %zu values", opt, max);
    if (len == 0) return fail(err, errlen, "%s: value %zu is empty (two commas, or one at an end)", opt, n + 1);
    if (len >= sizeof buf) return fail(err, errlen, "%s: value %zu is too long", opt, n + 1);
    memcpy(buf, s, len);
    buf[len] = '\0';
    snprintf(what, sizeof what, "%s value %zu", opt, n + 1);
    int st = cli_parse_double(what, buf, lo, hi, &v[n], err, errlen);
    if (st) return st;
    n++;
    if (!comma) break;
    s = comma + 1;
  }
  *count = n;
  return 0;
}
