/* Fuzz target: the numbers of cli/cli_num.c (integers, reals and
 * fractions, lists).  The first byte picks the function, the range and
 * the room for the message; the rest is the argument.  A success must
 * lie in the range and equal what strtod/strtoul make of the same text;
 * a failure must leave a message that ends inside its buffer and names
 * the option. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <float.h>
#include "cli.h"
#include "fuzz_check.h"

static const struct {
  double lo, hi;
} ranges[] = {
    {0, 1e15},       {1e-12, 10}, {-INFINITY, INFINITY}, {-DBL_MAX, DBL_MAX},
    {-1e300, 1e300}, {0, 0},      {1e-9, 2 - 1e-9},      {1, 1e8},
};
static const struct {
  unsigned long lo, hi;
} uranges[] = {
    {0, 4294967295UL},
    {1, 100000000UL},
    {1, 256},
    {0, (unsigned long)-1},
};

/* The value of a single real, computed the plain way. */
static double plain(const char *s)
{
  const char *slash = strchr(s, '/');
  if (!slash) return strtod(s, NULL);
  char a[128];
  size_t n = (size_t)(slash - s);
  memcpy(a, s, n);
  a[n] = '\0';
  return strtod(a, NULL) / strtod(slash + 1, NULL);
}

static void check_err(const char *err, size_t errlen, const char *opt)
{
  CHECK(memchr(err, '\0', errlen) != NULL);
  size_t n = strlen(opt) < errlen - 1 ? strlen(opt) : errlen - 1;
  CHECK(!strncmp(err, opt, n));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  if (size < 1 || size > 4096) return 0;
  unsigned sel = data[0];
  char *s = malloc(size);
  memcpy(s, data + 1, size - 1);
  s[size - 1] = '\0';
  size_t errlen = sel & 0x80 ? 1 + (sel & 0x1f) : CLI_ERR_MAX;
  char *err = malloc(errlen);
  memset(err, 'x', errlen);
  switch ((sel >> 5) & 3) {
  case 0: {
    unsigned long v = 12345;
    unsigned r = sel & 3;
    if (cli_parse_ulong("--n", s, uranges[r].lo, uranges[r].hi, &v, err, errlen) == 0) {
      CHECK(v >= uranges[r].lo && v <= uranges[r].hi);
      CHECK(v == strtoul(s, NULL, 10) && s[0] >= '0' && s[0] <= '9');
    } else {
      CHECK(v == 12345);
      check_err(err, errlen, "--n");
    }
    break;
  }
  case 1:
  case 3: {
    double v = -7;
    unsigned r = sel & 7;
    if (cli_parse_double("--x", s, ranges[r].lo, ranges[r].hi, &v, err, errlen) == 0) {
      CHECK(isfinite(v) && v >= ranges[r].lo && v <= ranges[r].hi);
      double w = plain(s);
      CHECK(v == w || (isnan(v) && isnan(w)));
    } else {
      check_err(err, errlen, "--x");
    }
    break;
  }
  case 2: {
    double v[8];
    size_t n = 99;
    unsigned r = sel & 7;
    if (cli_parse_doubles("L", s, v, 8, ranges[r].lo, ranges[r].hi, &n, err, errlen) == 0) {
      size_t commas = 0;
      for (const char *p = s; *p; p++) commas += *p == ',';
      CHECK(n == commas + 1 && n <= 8);
      for (size_t k = 0; k < n; k++) CHECK(isfinite(v[k]) && v[k] >= ranges[r].lo && v[k] <= ranges[r].hi);
    } else {
      CHECK(n == 99);
      check_err(err, errlen, "L");
    }
    break;
  }
  }
  free(err);
  free(s);
  return 0;
}
