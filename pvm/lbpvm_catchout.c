/* lbpvm_catchout.c: see lbpvm_catchout.h. */
#define _GNU_SOURCE
#include <regex.h>
#include <string.h>
#include "lbpvm_catchout.h"

typedef struct filter {
  FILE *to;
  char line[4096];
  size_t len;
  regex_t marker;
} filter;

static void emit(filter *f)
{
  f->line[f->len] = '\0';
  if (regexec(&f->marker, f->line, 0, NULL, 0) != 0) fputs(f->line, f->to);
  f->len = 0;
}

static ssize_t filter_write(void *cookie, const char *buf, size_t n)
{
  filter *f = cookie;
  for (size_t i = 0; i < n; i++) {
    f->line[f->len++] = buf[i];
    /* A line longer than the buffer goes out in pieces. */
    if (buf[i] == '\n' || f->len == sizeof f->line - 1) emit(f);
  }
  fflush(f->to);
  return (ssize_t)n;
}

FILE *lbpvm_catchout_stream(FILE *to)
{
  static filter f;
  if (regcomp(&f.marker, "^\\[t[0-9a-f]+\\] (BEGIN|EOF)\n$", REG_EXTENDED | REG_NOSUB)) return to;
  f.to = to;
  cookie_io_functions_t io = {.write = filter_write};
  FILE *s = fopencookie(&f, "w", io);
  if (!s) return to;
  setvbuf(s, NULL, _IOLBF, 0);
  return s;
}
