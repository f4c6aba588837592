/* Fuzz target: a row of a trace as tools/lbtrace and lbmaster read it
 * (lb/lb_trace.c), and its metadata lines.  Byte 0 picks the version (1
 * or 2); the rest is one line.  A row taken must be one its host could
 * write (a send by its src, a receipt by its dst, a state with an end
 * not before its start) and format back to a line that reads back to
 * the same line; a refusal must be LB_EFORMAT with a message. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include "lb_trace.h"
#include "lb_errno.h"
#include "fuzz_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  if (size < 1 || size > 4096) return 0;
  int version = 1 + (data[0] & 1);
  char *s = malloc(size), *m = malloc(size);
  CHECK(s && m);
  memcpy(s, data + 1, size - 1);
  s[size - 1] = '\0';
  memcpy(m, s, size);
  const char *k, *v;
  if (lb_trace_meta_parse(m, &k, &v)) {
    char b[8192];
    CHECK(*k && strlen(k) < size);
    if (!lb_trace_meta(b, sizeof b, k, v)) CHECK(!strncmp(b, "# ", 2));
  }
  lb_trace_row r;
  int rc = lb_trace_parse(s, version, &r);
  if (rc) {
    CHECK(rc == LB_EFORMAT && lb_errmsg()[0]);
  } else {
    CHECK(isfinite(r.t) && r.t >= 0 && r.host >= 0);
    if (r.ev == LB_TRACE_STATE) CHECK(version == 2 && r.type < LB_HOST_NSTATES && r.end >= r.t && isfinite(r.end));
    else {
      CHECK(r.type >= 0 && r.type < LB_TRACE_NTYPES && r.procs >= 0 && r.bytes >= 0);
      CHECK(r.ev == LB_TRACE_RECV ? r.dst == r.host : r.src == r.host);
      CHECK(r.dst >= 0 || (r.dst == -1 && r.type == LB_TRACE_DELIVER));
    }
    char a[LB_TRACE_ROW_MAX], b[LB_TRACE_ROW_MAX];
    size_t na, nb;
    lb_trace_row r2;
    CHECK(lb_trace_format(&r, a, sizeof a, &na) == LB_SUCCESS && strlen(a) == na);
    memcpy(b, a, na + 1);
    CHECK(lb_trace_parse(b, 2, &r2) == LB_SUCCESS);
    CHECK(lb_trace_format(&r2, b, sizeof b, &nb) == LB_SUCCESS && nb == na && !memcmp(a, b, na));
  }
  free(s);
  free(m);
  return 0;
}
