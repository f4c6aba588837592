/* Fuzz target: the topology spec parser, lb_topo_from_spec.  Specs that
 * name a file are left to the topo_read target (a fuzzer must not read
 * arbitrary paths).  Sizes are capped so that each run stays short: a
 * size above 64 nodes a side (hypercube: dimension 14) but within the
 * generators' limits would only build a large graph; sizes beyond the
 * limits, which must be rejected at once, are kept.  (random:N:EXTRA
 * with EXTRA near N^2/2 is slow by design: rejection sampling.)  A
 * success must be a connected, consistent graph that survives a write
 * and read. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include "lb_topo.h"
#include "lb_errno.h"
#include "fuzz_check.h"

#define NODE_LIMIT ((unsigned long long)1 << 22)
#define SMALL      64ULL

/* Would this spec build a graph too large for a quick run?  Sizes up to
 * SMALL are run, and so are sizes that the generators must reject at
 * once (over their limits); what lies between is skipped. */
static int too_big(const char *s)
{
  unsigned long long v[3] = {0, 0, 0};
  int k = 0;
  for (const char *p = s; *p && k < 3;) {
    if (!isdigit((unsigned char)*p)) {
      p++;
      continue;
    }
    for (; isdigit((unsigned char)*p); p++)
      v[k] = v[k] > NODE_LIMIT * NODE_LIMIT ? v[k] : 10 * v[k] + (unsigned)(*p - '0');
    k++;
  }
  if (!strncmp(s, "hypercube", 9)) return v[0] > 14 && v[0] <= 22;
  if (!strncmp(s, "complete", 8)) return v[0] > SMALL && v[0] <= 4096;
  if (!strncmp(s, "mesh", 4) || !strncmp(s, "torus", 5))
    return (v[0] > SMALL || v[1] > SMALL) && v[0] && v[1] && v[0] * v[1] <= NODE_LIMIT;
  if (!strncmp(s, "random", 6)) {
    if (v[0] > NODE_LIMIT || v[0] == 0) return 0;
    if (v[0] > SMALL) return 1;
    unsigned long long room = v[0] * (v[0] - 1) / 2 - (v[0] - 1);
    return k >= 2 && v[1] > SMALL && v[1] <= room;
  }
  return v[0] > SMALL && v[0] <= NODE_LIMIT;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  if (size > 256) return 0;
  char spec[257];
  memcpy(spec, data, size);
  spec[size] = '\0';
  if (strlen(spec) != size) return 0;
  size_t len = size;
  if (!strncmp(spec, "file", 4) || strchr(spec, '/') || (len > 6 && !strcmp(spec + len - 6, ".graph"))) return 0;
  if (too_big(spec)) return 0;
  lb_topo *t = NULL;
  if (lb_topo_from_spec(spec, &t)) {
    CHECK(lb_errmsg()[0] != '\0');
    return 0;
  }
  fuzz_check_topo(t);
  CHECK(t->n <= NODE_LIMIT);
  CHECK(lb_topo_is_connected(t));
  char *buf;
  size_t blen;
  FILE *w = open_memstream(&buf, &blen);
  CHECK(w && lb_topo_write(w, t) == LB_SUCCESS);
  fclose(w);
  FILE *f = fmemopen(buf, blen, "r");
  lb_topo *u = NULL;
  CHECK(f && lb_topo_read(f, "again", &u) == LB_SUCCESS);
  fclose(f);
  CHECK(u->n == t->n && u->m == t->m);
  CHECK(!memcmp(u->edge, t->edge, t->m * sizeof *t->edge));
  lb_topo_free(u);
  free(buf);
  lb_topo_free(t);
  return 0;
}
