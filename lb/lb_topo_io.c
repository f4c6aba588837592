/* lb_topo_io.c: the graph text format (docs/FORMATS.md).
 *
 *   # comment
 *   nodes 9
 *   1: 3
 *   3: 1, 2 4
 *
 * Ids are 1-based.  Every adjacency must be listed from both ends, so a
 * one-sided typo is caught instead of silently making an edge.
 *
 * Reading is linear in the size of the file: a hub of degree d costs
 * O(d), not O(d^2) (duplicates are found with a per-line stamp, symmetry
 * by comparing each node's list with the list of nodes that name it). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include <errno.h>
#include "lb_topo.h"
#include "lb_errno.h"

/* Limits checked before anything of that size is allocated. */
#define MAX_NODES ((size_t)1 << 22)
#define MAX_EDGES ((size_t)1 << 24)
#define MAX_LINE  ((size_t)64 << 20)

typedef struct {
  const char *f;
  size_t n;        /* 0 until the nodes line */
  size_t *line_of; /* line of each node's list, 0 if none */
  size_t *first;   /* start of each node's list in adj */
  uint32_t *deg;   /* length of each node's list */
  uint32_t *stamp; /* scratch, one per node */
  uint32_t *adj;   /* every list, in file order */
  size_t narcs, cap;
} parser;

/* Parse one id token at *p; advances *p.  0 on success. */
static int read_id(const char **p, size_t n, size_t *id, const char *f, size_t line)
{
  const char *s = *p;
  if (!isdigit((unsigned char)*s)) {
    int len = 0;
    while (len < 40 && s[len] && !isspace((unsigned char)s[len]) && s[len] != ',') len++;
    return lb_error(LB_EFORMAT, "%s:%zu: '%.*s' is not a node id", f, line, len, s);
  }
  errno = 0;
  char *end;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno || (*end && !isspace((unsigned char)*end) && *end != ',' && *end != ':')) {
    int len = (int)(end - s) + (*end != '\0');
    return lb_error(LB_EFORMAT, "%s:%zu: '%.*s' is not a node id", f, line, len > 40 ? 40 : len, s);
  }
  if (v < 1 || v > n) return lb_error(LB_EFORMAT, "%s:%zu: node %llu is outside 1..%zu", f, line, v, n);
  *id = (size_t)v - 1;
  *p = end;
  return LB_SUCCESS;
}

static const char *skip_sep(const char *p)
{
  while (*p && (isspace((unsigned char)*p) || *p == ',')) p++;
  return p;
}

static int add_arc(parser *ps, size_t j)
{
  if (ps->narcs == ps->cap) {
    if (ps->cap >= 2 * MAX_EDGES) return lb_error(LB_ERANGE, "%s: more than %zu edges", ps->f, MAX_EDGES);
    size_t cap = ps->cap ? 2 * ps->cap : 64;
    uint32_t *a = realloc(ps->adj, cap * sizeof *a);
    if (!a) return lb_error(LB_ENOMEM, "%s: out of memory", ps->f);
    ps->adj = a;
    ps->cap = cap;
  }
  ps->adj[ps->narcs++] = (uint32_t)j;
  return LB_SUCCESS;
}

static int nodes_line(parser *ps, const char *p, size_t line)
{
  if (ps->n) return lb_error(LB_EFORMAT, "%s:%zu: second 'nodes' line", ps->f, line);
  p += 5;
  while (isspace((unsigned char)*p)) p++;
  char *end;
  errno = 0;
  unsigned long long v = isdigit((unsigned char)*p) ? strtoull(p, &end, 10) : 0;
  if (!v || errno || *skip_sep(end) || v > MAX_NODES)
    return lb_error(LB_EFORMAT, "%s:%zu: expected 'nodes N' with 1 <= N <= %zu", ps->f, line, MAX_NODES);
  ps->n = (size_t)v;
  ps->line_of = calloc(ps->n, sizeof *ps->line_of);
  ps->first = calloc(ps->n, sizeof *ps->first);
  ps->deg = calloc(ps->n, sizeof *ps->deg);
  ps->stamp = calloc(ps->n, sizeof *ps->stamp);
  if (!ps->line_of || !ps->first || !ps->deg || !ps->stamp)
    return lb_error(LB_ENOMEM, "%s: out of memory for %zu nodes", ps->f, ps->n);
  return LB_SUCCESS;
}

static int parse_line(parser *ps, char *s, size_t line)
{
  char *hash = strchr(s, '#');
  if (hash) *hash = '\0';
  const char *p = skip_sep(s);
  if (!*p) return LB_SUCCESS;
  if (!strncmp(p, "nodes", 5) && (isspace((unsigned char)p[5]) || !p[5])) return nodes_line(ps, p, line);
  if (!ps->n)
    return lb_error(LB_EFORMAT,
                    "%s:%zu: expected 'nodes N' before the first "
                    "adjacency line",
                    ps->f, line);
  size_t i, j;
  int s1 = read_id(&p, ps->n, &i, ps->f, line);
  if (s1) return s1;
  p = skip_sep(p);
  if (*p != ':') return lb_error(LB_EFORMAT, "%s:%zu: expected ':' after node %zu", ps->f, line, i + 1);
  if (ps->line_of[i])
    return lb_error(LB_EFORMAT, "%s:%zu: node %zu already listed on line %zu", ps->f, line, i + 1, ps->line_of[i]);
  ps->line_of[i] = line;
  ps->first[i] = ps->narcs;
  /* Each node has one line, so stamp i+1 marks "already in this list". */
  for (p = skip_sep(p + 1); *p; p = skip_sep(p)) {
    if ((s1 = read_id(&p, ps->n, &j, ps->f, line))) return s1;
    if (j == i) return lb_error(LB_EFORMAT, "%s:%zu: node %zu lists itself", ps->f, line, i + 1);
    if (ps->stamp[j] == i + 1)
      return lb_error(LB_EFORMAT, "%s:%zu: node %zu lists %zu twice", ps->f, line, i + 1, j + 1);
    ps->stamp[j] = (uint32_t)(i + 1);
    if ((s1 = add_arc(ps, j))) return s1;
    ps->deg[i]++;
  }
  return LB_SUCCESS;
}

/* The lists of who names each node: rev[roff[v]..roff[v+1]) holds, in
 * increasing order, every i whose line lists v. */
static int build_rev(const parser *ps, size_t **roff, uint32_t **rev)
{
  size_t n = ps->n;
  *roff = calloc(n + 1, sizeof **roff);
  *rev = malloc((ps->narcs ? ps->narcs : 1) * sizeof **rev);
  if (!*roff || !*rev) return lb_error(LB_ENOMEM, "%s: out of memory", ps->f);
  for (size_t k = 0; k < ps->narcs; k++) (*roff)[ps->adj[k] + 1]++;
  for (size_t v = 0; v < n; v++) (*roff)[v + 1] += (*roff)[v];
  for (size_t i = 0; i < n; i++)
    for (uint32_t k = 0; k < ps->deg[i]; k++) (*rev)[(*roff)[ps->adj[ps->first[i] + k]]++] = (uint32_t)i;
  for (size_t v = n; v > 0; v--) (*roff)[v] = (*roff)[v - 1];
  (*roff)[0] = 0;
  return LB_SUCCESS;
}

/* The first arc (i, j) in (i, j) order whose reverse is missing. */
static int check_symmetric(parser *ps, const size_t *roff, const uint32_t *rev)
{
  memset(ps->stamp, 0, ps->n * sizeof *ps->stamp);
  for (size_t i = 0; i < ps->n; i++) {
    for (size_t k = roff[i]; k < roff[i + 1]; k++) ps->stamp[rev[k]] = (uint32_t)(i + 1);
    size_t bad = ps->n;
    for (uint32_t k = 0; k < ps->deg[i]; k++) {
      uint32_t j = ps->adj[ps->first[i] + k]; /* not adj + first: adj may be NULL */
      if (ps->stamp[j] != i + 1 && j < bad) bad = j;
    }
    if (bad == ps->n) continue;
    if (ps->line_of[bad])
      return lb_error(LB_ETOPO,
                      "%s:%zu: node %zu lists %zu, but node %zu "
                      "(line %zu) does not list %zu: the graph is not symmetric",
                      ps->f, ps->line_of[i], i + 1, bad + 1, bad + 1, ps->line_of[bad], i + 1);
    return lb_error(LB_ETOPO,
                    "%s:%zu: node %zu lists %zu, but node %zu has "
                    "no adjacency line: the graph is not symmetric",
                    ps->f, ps->line_of[i], i + 1, bad + 1, bad + 1);
  }
  return LB_SUCCESS;
}

/* Breadth-first from node 1 over the (now symmetric) lists. */
static int check_connected(parser *ps, const size_t *roff, const uint32_t *rev)
{
  size_t n = ps->n, head = 0, tail = 0;
  uint32_t *queue = ps->stamp; /* scratch again */
  unsigned char *seen = calloc(n, 1);
  if (!seen) return lb_error(LB_ENOMEM, "%s: out of memory", ps->f);
  seen[0] = 1;
  queue[tail++] = 0;
  while (head < tail) {
    uint32_t u = queue[head++];
    for (size_t k = roff[u]; k < roff[u + 1]; k++)
      if (!seen[rev[k]]) {
        seen[rev[k]] = 1;
        queue[tail++] = rev[k];
      }
  }
  size_t v = 0;
  while (v < n && seen[v]) v++;
  free(seen);
  if (v == n) return LB_SUCCESS;
  if (ps->line_of[v])
    return lb_error(LB_ETOPO,
                    "%s:%zu: the graph is not connected: node %zu "
                    "cannot be reached from node 1",
                    ps->f, ps->line_of[v], v + 1);
  return lb_error(LB_ETOPO,
                  "%s: the graph is not connected: node %zu has no "
                  "adjacency line and cannot be reached from node 1",
                  ps->f, v + 1);
}

static int check_and_build(parser *ps, lb_topo **out)
{
  size_t *roff = NULL;
  uint32_t *rev = NULL;
  size_t(*e)[2] = NULL;
  int s = build_rev(ps, &roff, &rev);
  if (!s) s = check_symmetric(ps, roff, rev);
  if (!s) s = check_connected(ps, roff, rev);
  if (!s && !(e = malloc((ps->narcs / 2 + 1) * sizeof *e))) s = lb_error(LB_ENOMEM, "%s: out of memory", ps->f);
  if (!s) {
    /* rev lists are sorted, so the edges come out in (i, j) order. */
    size_t ne = 0;
    for (size_t i = 0; i < ps->n; i++)
      for (size_t k = roff[i]; k < roff[i + 1]; k++)
        if (rev[k] > i) {
          e[ne][0] = i;
          e[ne][1] = rev[k];
          ne++;
        }
    const char *base = strrchr(ps->f, '/');
    s = lb_topo_from_edges(ps->n, (const size_t(*)[2])e, ne, base ? base + 1 : ps->f, out);
    if (s) s = lb_error_wrap(s, "%s", ps->f);
  }
  free(e);
  free(roff);
  free(rev);
  return s;
}

/* One line into *buf (NUL-terminated, without the newline): 1 for a
 * line, 0 at the end of the file, or a negated lb status: LB_EFORMAT
 * for a NUL byte, LB_ERANGE for a line over MAX_LINE.  getline would
 * grow without bound on a file with no newline, hence the cap. */
static int next_line(FILE *f, char **buf, size_t *cap)
{
  size_t n = 0;
  int c;
  while ((c = getc_unlocked(f)) != EOF && c != '\n') {
    if (c == '\0') return -LB_EFORMAT;
    if (n + 1 >= *cap) {
      if (*cap >= MAX_LINE) return -LB_ERANGE;
      size_t nc = *cap ? 2 * *cap : 256;
      char *b = realloc(*buf, nc);
      if (!b) return -LB_ENOMEM;
      *buf = b;
      *cap = nc;
    }
    (*buf)[n++] = (char)c;
  }
  if (c == EOF && n == 0) return 0;
  if (!*buf && !(*buf = malloc(*cap = 256))) return -LB_ENOMEM;
  (*buf)[n] = '\0';
  return 1;
}

int lb_topo_read(FILE *f, const char *fname, lb_topo **out)
{
  parser ps = {.f = fname ? fname : "<graph>"};
  char *buf = NULL;
  size_t cap = 0, line = 0;
  int s = LB_SUCCESS, r;
  *out = NULL;
  while (!s && (r = next_line(f, &buf, &cap)) != 0) {
    line++;
    if (r == -LB_ERANGE) s = lb_error(LB_EFORMAT, "%s:%zu: line longer than %zu bytes", ps.f, line, MAX_LINE);
    else if (r == -LB_EFORMAT) s = lb_error(LB_EFORMAT, "%s:%zu: line contains a NUL byte", ps.f, line);
    else if (r < 0) s = lb_error(LB_ENOMEM, "%s:%zu: out of memory", ps.f, line);
    else s = parse_line(&ps, buf, line);
  }
  free(buf);
  if (!s && ferror(f)) s = lb_error(LB_EIO, "%s: read error", ps.f);
  if (!s && !ps.n) s = lb_error(LB_EFORMAT, "%s: no 'nodes N' line (empty graph file?)", ps.f);
  if (!s) s = check_and_build(&ps, out);
  free(ps.line_of);
  free(ps.first);
  free(ps.deg);
  free(ps.stamp);
  free(ps.adj);
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
  fprintf(f, "# lbfarm graph: %s (%zu nodes, %zu edges)\nnodes %zu\n", t->name, t->n, t->m, t->n);
  for (size_t i = 0; i < t->n; i++) {
    fprintf(f, "%zu:", i + 1);
    for (size_t k = t->off[i]; k < t->off[i + 1]; k++) fprintf(f, " %zu", t->nbr[k] + 1);
    fputc('\n', f);
  }
  return ferror(f) ? lb_error(LB_EIO, "write error") : LB_SUCCESS;
}
