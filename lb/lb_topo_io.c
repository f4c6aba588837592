/* lb_topo_io.c: the graph text format (docs/FORMATS.md).
 *
 *   # comment
 *   nodes 9
 *   1: 3
 *   3: 1, 2 4
 *
 * Ids are 1-based.  Every adjacency must be listed from both ends, so a
 * one-sided typo is caught instead of silently making an edge. */
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include <errno.h>
#include "lb_topo.h"
#include "lb_errno.h"

#define MAX_NODES ((size_t)1 << 22)

typedef struct { size_t i, j, line; } arc;

static int cmp_arc(const void *x, const void *y)
{
  const arc *a = x, *b = y;
  if (a->i != b->i) return a->i < b->i ? -1 : 1;
  if (a->j != b->j) return a->j < b->j ? -1 : 1;
  return 0;
}

/* Parse one id token at *p; advances *p.  0 on success. */
static int read_id(const char **p, size_t n, size_t *id, const char *f,
                   size_t line)
{
  const char *s = *p;
  if (!isdigit((unsigned char)*s)) {
    int len = 0;
    while (s[len] && !isspace((unsigned char)s[len]) && s[len] != ',') len++;
    return lb_error(LB_EFORMAT, "%s:%zu: '%.*s' is not a node id", f, line, len, s);
  }
  errno = 0;
  char *end;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno || (*end && !isspace((unsigned char)*end) && *end != ',' && *end != ':'))
    return lb_error(LB_EFORMAT, "%s:%zu: '%.*s' is not a node id", f, line,
                    (int)(end - s) + 1, s);
  if (v < 1 || v > n)
    return lb_error(LB_EFORMAT, "%s:%zu: node %llu is outside 1..%zu", f, line, v, n);
  *id = (size_t)v - 1;
  *p = end;
  return LB_SUCCESS;
}

static const char *skip_sep(const char *p)
{
  while (*p && (isspace((unsigned char)*p) || *p == ',')) p++;
  return p;
}

typedef struct {
  const char *f;
  size_t n;          /* 0 until the nodes line */
  size_t *line_of;   /* line of each node's list, 0 if none */
  arc *arcs;
  size_t narcs, cap;
} parser;

static int add_arc(parser *ps, size_t i, size_t j, size_t line)
{
  if (ps->narcs == ps->cap) {
    size_t cap = ps->cap ? 2 * ps->cap : 64;
    arc *a = realloc(ps->arcs, cap * sizeof *a);
    if (!a) return lb_error(LB_ENOMEM, "%s: out of memory", ps->f);
    ps->arcs = a;
    ps->cap = cap;
  }
  ps->arcs[ps->narcs++] = (arc){ i, j, line };
  return LB_SUCCESS;
}

static int parse_line(parser *ps, char *s, size_t line)
{
  char *hash = strchr(s, '#');
  if (hash) *hash = '\0';
  const char *p = skip_sep(s);
  if (!*p) return LB_SUCCESS;
  if (!strncmp(p, "nodes", 5) && (isspace((unsigned char)p[5]) || !p[5])) {
    if (ps->n)
      return lb_error(LB_EFORMAT, "%s:%zu: second 'nodes' line", ps->f, line);
    char *end;
    errno = 0;
    unsigned long long v = strtoull(p + 5, &end, 10);
    if (errno || end == p + 5 || *skip_sep(end) || v < 1 || v > MAX_NODES)
      return lb_error(LB_EFORMAT, "%s:%zu: expected 'nodes N' with 1 <= N <= %zu",
                      ps->f, line, MAX_NODES);
    ps->n = (size_t)v;
    ps->line_of = calloc(ps->n, sizeof *ps->line_of);
    if (!ps->line_of) return lb_error(LB_ENOMEM, "%s: out of memory", ps->f);
    return LB_SUCCESS;
  }
  if (!ps->n)
    return lb_error(LB_EFORMAT, "%s:%zu: expected 'nodes N' before the first "
                    "adjacency line", ps->f, line);
  size_t i, j;
  int s1 = read_id(&p, ps->n, &i, ps->f, line);
  if (s1) return s1;
  p = skip_sep(p);
  if (*p != ':')
    return lb_error(LB_EFORMAT, "%s:%zu: expected ':' after node %zu", ps->f, line, i + 1);
  if (ps->line_of[i])
    return lb_error(LB_EFORMAT, "%s:%zu: node %zu already listed on line %zu",
                    ps->f, line, i + 1, ps->line_of[i]);
  ps->line_of[i] = line;
  size_t first = ps->narcs;
  for (p = skip_sep(p + 1); *p; p = skip_sep(p)) {
    if ((s1 = read_id(&p, ps->n, &j, ps->f, line))) return s1;
    if (j == i)
      return lb_error(LB_EFORMAT, "%s:%zu: node %zu lists itself", ps->f, line, i + 1);
    for (size_t k = first; k < ps->narcs; k++)
      if (ps->arcs[k].j == j)
        return lb_error(LB_EFORMAT, "%s:%zu: node %zu lists %zu twice", ps->f,
                        line, i + 1, j + 1);
    if ((s1 = add_arc(ps, i, j, line))) return s1;
  }
  return LB_SUCCESS;
}

static int check_and_build(parser *ps, lb_topo **out)
{
  if (ps->narcs) qsort(ps->arcs, ps->narcs, sizeof *ps->arcs, cmp_arc);
  size_t (*e)[2] = malloc((ps->narcs ? ps->narcs : 1) * sizeof *e);
  if (!e) return lb_error(LB_ENOMEM, "%s: out of memory", ps->f);
  size_t ne = 0;
  for (size_t k = 0; k < ps->narcs; k++) {
    const arc *a = &ps->arcs[k];
    arc key = { a->j, a->i, 0 };
    if (!bsearch(&key, ps->arcs, ps->narcs, sizeof *ps->arcs, cmp_arc)) {
      free(e);
      if (ps->line_of[a->j])
        return lb_error(LB_ETOPO, "%s:%zu: node %zu lists %zu, but node %zu "
                        "(line %zu) does not list %zu: the graph is not symmetric",
                        ps->f, a->line, a->i + 1, a->j + 1, a->j + 1,
                        ps->line_of[a->j], a->i + 1);
      return lb_error(LB_ETOPO, "%s:%zu: node %zu lists %zu, but node %zu has "
                      "no adjacency line: the graph is not symmetric",
                      ps->f, a->line, a->i + 1, a->j + 1, a->j + 1);
    }
    if (a->i < a->j) {
      e[ne][0] = a->i;
      e[ne][1] = a->j;
      ne++;
    }
  }
  const char *base = strrchr(ps->f, '/');
  int s = lb_topo_from_edges(ps->n, (const size_t (*)[2])e, ne,
                             base ? base + 1 : ps->f, out);
  free(e);
  if (s) return lb_error_wrap(s, "%s", ps->f);
  size_t *d = malloc(ps->n * sizeof *d);
  if (!d) { lb_topo_free(*out); return lb_error(LB_ENOMEM, "%s: out of memory", ps->f); }
  lb_topo_bfs(*out, 0, d);
  for (size_t v = 0; v < ps->n; v++)
    if (d[v] == (size_t)-1) {
      free(d);
      lb_topo_free(*out);
      *out = NULL;
      if (ps->line_of[v])
        return lb_error(LB_ETOPO, "%s:%zu: the graph is not connected: node %zu "
                        "cannot be reached from node 1", ps->f, ps->line_of[v], v + 1);
      return lb_error(LB_ETOPO, "%s: the graph is not connected: node %zu has no "
                      "adjacency line and cannot be reached from node 1", ps->f, v + 1);
    }
  free(d);
  return LB_SUCCESS;
}

int lb_topo_read(FILE *f, const char *fname, lb_topo **out)
{
  parser ps = { .f = fname ? fname : "<graph>" };
  char *buf = NULL;
  size_t cap = 0, line = 0;
  int s = LB_SUCCESS;
  ssize_t len;
  while (!s && (len = getline(&buf, &cap, f)) >= 0) {
    line++;
    if ((size_t)len != strlen(buf))
      s = lb_error(LB_EFORMAT, "%s:%zu: line contains a NUL byte", ps.f, line);
    else
      s = parse_line(&ps, buf, line);
  }
  free(buf);
  if (!s && ferror(f)) s = lb_error(LB_EIO, "%s: read error", ps.f);
  if (!s && !ps.n) s = lb_error(LB_EFORMAT, "%s: no 'nodes N' line (empty graph file?)", ps.f);
  if (!s) s = check_and_build(&ps, out);
  free(ps.line_of);
  free(ps.arcs);
  return s;
}

int lb_topo_read_file(const char *path, lb_topo **out)
{
  FILE *f = fopen(path, "r");
  if (!f) return lb_error(LB_EIO, "%s: cannot open: %s", path, strerror(errno));
  int s = lb_topo_read(f, path, out);
  fclose(f);
  return s;
}

int lb_topo_write(FILE *f, const lb_topo *t)
{
  fprintf(f, "# lbfarm graph: %s (%zu nodes, %zu edges)\nnodes %zu\n", t->name,
          t->n, t->m, t->n);
  for (size_t i = 0; i < t->n; i++) {
    fprintf(f, "%zu:", i + 1);
    for (size_t k = t->off[i]; k < t->off[i + 1]; k++) fprintf(f, " %zu", t->nbr[k] + 1);
    fputc('\n', f);
  }
  return ferror(f) ? lb_error(LB_EIO, "write error") : LB_SUCCESS;
}
