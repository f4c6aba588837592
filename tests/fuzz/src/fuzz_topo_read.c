/* Fuzz target: the graph file reader, lb_topo_read, on the input as a
 * stream.  Beyond the sanitizers it checks what a success promises: a
 * connected graph with consistent adjacency that lb_topo_write writes
 * back into a file that reads again to the same edges.  A failure must
 * leave no graph and a message. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include "lb_topo.h"
#include "lb_errno.h"
#include "fuzz_check.h"

typedef struct {
  const uint8_t *p;
  size_t left;
} src;

/* fmemopen refuses an empty buffer; a cookie stream takes any size. */
static ssize_t rd(void *c, char *buf, size_t size)
{
  src *s = c;
  size_t n = size < s->left ? size : s->left;
  memcpy(buf, s->p, n);
  s->p += n;
  s->left -= n;
  return (ssize_t)n;
}

static FILE *open_bytes(src *s)
{
  cookie_io_functions_t io = {.read = rd};
  return fopencookie(s, "r", io);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  src s = {data, size};
  FILE *f = open_bytes(&s);
  if (!f) return 0;
  lb_topo *t = (lb_topo *)1;
  int st = lb_topo_read(f, "fuzz.graph", &t);
  fclose(f);
  if (st) {
    CHECK(t == NULL);
    CHECK(lb_errmsg()[0] != '\0');
    return 0;
  }
  fuzz_check_topo(t);
  CHECK(lb_topo_is_connected(t));
  /* Round trip. */
  char *buf;
  size_t len;
  FILE *w = open_memstream(&buf, &len);
  CHECK(w && lb_topo_write(w, t) == LB_SUCCESS);
  fclose(w);
  src back = {(const uint8_t *)buf, len};
  lb_topo *u = NULL;
  f = open_bytes(&back);
  CHECK(f && lb_topo_read(f, "again", &u) == LB_SUCCESS);
  fclose(f);
  CHECK(u->n == t->n && u->m == t->m);
  CHECK(!memcmp(u->edge, t->edge, t->m * sizeof *t->edge));
  lb_topo_free(u);
  free(buf);
  lb_topo_free(t);
  return 0;
}
