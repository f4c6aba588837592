/* cli_csv.c: see cli_csv.h.  The column list is here and nowhere else;
 * docs/FORMATS.md describes it (tests/csv_schema.sh checks that every
 * column is described there). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cli_csv.h"
#include "cli.h"
#include "cli_commit.h"
#include "lb_param.h"
#include "lb_proc.h"
#include "farm_wire.h"

/* In order; "@params", "@lb" and "@msgs" stand for every parameter,
 * every policy message type (lb_TYPE) and every farm message tag
 * (msgs_TAG). */
static const char *const layout[] = {
    /* provenance */
    "driver",
    "commit",
    "utc",
    "host",
    "load1",
    "load5",
    "load15",
    /* what ran, in both drivers */
    "policy",
    "topology",
    "nodes",
    "procs",
    "speeds",
    "rates",
    "capacities",
    /* lbsim's load and costs */
    "load",
    "work",
    "profile",
    "latency",
    "bandwidth",
    "jitter",
    "quantum",
    "host_setup",
    "cost_msg",
    "cost_byte",
    "poll",
    "ctx_size",
    "ctx_size_started",
    "result_size",
    "codec",
    "crashes",
    "detect",
    "silent",
    /* the farm's workload and settings */
    "workload",
    "size",
    "init",
    "quantum_s",
    "throttle",
    /* every parameter of lb/lb_param.c */
    "@params",
    /* results */
    "makespan",
    "ideal",
    "makespan_s",
    "ideal_s",
    "ideal_received_s",
    "ratio",
    "ratio_received",
    "messages",
    "bytes",
    "@lb",
    "@msgs",
    "migrated",
    "migrated_started",
    "ctx_bytes",
    "hops",
    "hops_optimal",
    "hops_ratio",
    "invocations",
    "episodes",
    "placed1",
    "placed2",
    "placed3",
    "placed4",
    "placed5",
    "placed6",
    "placed7",
    "dissolved",
    "events",
    "violations",
    "crashed",
    "lost",
    "reruns",
    "duplicates",
    "orphans",
    "dropped",
    "fenced",
    "fenced_dropped",
    "journalled",
    "verified",
};

static const char *const farm_tags[] = {
#define FARM_STR(name, val, str) str,
    FARM_TAGS(FARM_STR)
#undef FARM_STR
};

static char **cols;
static size_t ncols;

static void add(const char *prefix, const char *name)
{
  size_t n = strlen(prefix) + strlen(name) + 1;
  char *c = malloc(n);
  if (!c) cli_die(CLI_EXIT_FAIL, "out of memory");
  snprintf(c, n, "%s%s", prefix, name);
  cols[ncols++] = c;
}

static void build(void)
{
  if (cols) return;
  size_t max = sizeof layout / sizeof layout[0] + lb_param_count() + LB_MSG_NTYPES + FARM_NTAGS;
  if (!(cols = calloc(max, sizeof *cols))) cli_die(CLI_EXIT_FAIL, "out of memory");
  for (size_t k = 0; k < sizeof layout / sizeof layout[0]; k++) {
    if (!strcmp(layout[k], "@params"))
      for (size_t j = 0; j < lb_param_count(); j++) add("", lb_param_at(j)->name);
    else if (!strcmp(layout[k], "@lb"))
      for (int j = 0; j < LB_MSG_NTYPES; j++) add("lb_", lb_msg_type_name((lb_msg_type)j));
    else if (!strcmp(layout[k], "@msgs"))
      for (int j = 0; j < FARM_NTAGS; j++) add("msgs_", farm_tags[j]);
    else add("", layout[k]);
  }
}

size_t cli_csv_ncols(void)
{
  build();
  return ncols;
}
const char *cli_csv_col(size_t k)
{
  build();
  return k < ncols ? cols[k] : NULL;
}

static int put_cell(FILE *f, const char *s)
{
  if (!s || !s[strcspn(s, ",\"\r\n")]) return fputs(s ? s : "", f) < 0 ? -1 : 0;
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"') fputc('"', f);
    fputc(*s, f);
  }
  return fputc('"', f) == EOF ? -1 : 0;
}

int cli_csv_header(FILE *f)
{
  build();
  for (size_t k = 0; k < ncols; k++)
    if ((k && fputc(',', f) == EOF) || put_cell(f, cols[k])) return -1;
  return fputc('\n', f) == EOF || ferror(f) ? -1 : 0;
}

struct cli_csv_row {
  char **cell;
};

static size_t col_index(const char *col)
{
  build();
  for (size_t k = 0; k < ncols; k++)
    if (!strcmp(cols[k], col)) return k;
  cli_die(CLI_EXIT_FAIL, "internal: no CSV column '%s'", col);
}

static void put(cli_csv_row *r, const char *col, char *text)
{
  size_t k = col_index(col);
  free(r->cell[k]);
  r->cell[k] = text;
}

void cli_csv_set(cli_csv_row *r, const char *col, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
  if (!s) cli_die(CLI_EXIT_FAIL, "out of memory");
  va_start(ap, fmt);
  vsnprintf(s, (size_t)n + 1, fmt, ap);
  va_end(ap);
  put(r, col, s);
}

void cli_csv_clear(cli_csv_row *r, const char *col) { put(r, col, NULL); }
void cli_csv_real(cli_csv_row *r, const char *col, double v) { cli_csv_set(r, col, "%.17g", v); }
void cli_csv_ulong(cli_csv_row *r, const char *col, unsigned long v) { cli_csv_set(r, col, "%lu", v); }

void cli_csv_list(cli_csv_row *r, const char *col, const double *v, size_t n)
{
  size_t same = 1;
  while (same < n && v[same] == v[0]) same++;
  if (same == n) n = n ? 1 : 0;
  char *s = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&s, &len);
  if (!m) cli_die(CLI_EXIT_FAIL, "out of memory");
  for (size_t k = 0; k < n; k++) fprintf(m, "%s%.17g", k ? ";" : "", v[k]);
  if (fclose(m)) cli_die(CLI_EXIT_FAIL, "out of memory");
  put(r, col, s);
}

void cli_csv_params(cli_csv_row *r, const lb_node_params *par)
{
  for (size_t k = 0; k < lb_param_count(); k++) {
    const lb_param *p = lb_param_at(k);
    char v[64];
    lb_param_format(p, par, v, sizeof v);
    cli_csv_set(r, p->name, "%s", v);
  }
}

const char *cli_csv_commit(void) { return CLI_COMMIT; }

cli_csv_row *cli_csv_row_new(const char *driver)
{
  build();
  cli_csv_row *r = calloc(1, sizeof *r);
  if (!r || !(r->cell = calloc(ncols, sizeof *r->cell))) cli_die(CLI_EXIT_FAIL, "out of memory");
  cli_csv_set(r, "driver", "%s", driver);
  cli_csv_set(r, "commit", "%s", CLI_COMMIT);
  time_t t = time(NULL);
  struct tm tm;
  char when[32];
  if (gmtime_r(&t, &tm) && strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm)) cli_csv_set(r, "utc", "%s", when);
  char host[256];
  if (!gethostname(host, sizeof host)) {
    host[sizeof host - 1] = '\0';
    cli_csv_set(r, "host", "%s", host);
  }
  FILE *la = fopen("/proc/loadavg", "r");
  double l[3];
  if (la && fscanf(la, "%lf %lf %lf", &l[0], &l[1], &l[2]) == 3) {
    cli_csv_set(r, "load1", "%.2f", l[0]);
    cli_csv_set(r, "load5", "%.2f", l[1]);
    cli_csv_set(r, "load15", "%.2f", l[2]);
  }
  if (la) fclose(la);
  return r;
}

void cli_csv_row_free(cli_csv_row *r)
{
  if (!r) return;
  for (size_t k = 0; k < ncols; k++) free(r->cell[k]);
  free(r->cell);
  free(r);
}

int cli_csv_write(FILE *f, const cli_csv_row *r)
{
  for (size_t k = 0; k < ncols; k++)
    if ((k && fputc(',', f) == EOF) || put_cell(f, r->cell[k])) return -1;
  return fputc('\n', f) == EOF || ferror(f) ? -1 : 0;
}
