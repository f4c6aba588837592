/* lbtrace: read a per-message trace (lbsim --msg-trace, lbmaster --trace)
 * and write what a viewer needs: the segments of a space-time diagram
 * (experiments/trace/spacetime.gp) or Trace Event Format JSON, which
 * Perfetto and chrome://tracing open.
 *
 * A row is written when a message is sent; no driver records its
 * arrival.  The arrival is computed only where the rows determine it
 * (an lbsim run without jitter, given its topology, latency and
 * bandwidth); otherwise it is drawn at the send time plus a fixed
 * offset, and the output says so. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "lb_errno.h"
#include "lb_proc.h"
#include "lb_rt.h"
#include "lb_topo.h"

/* Row types: the engine's messages, then the farm's payload rows. */
enum { T_PAYLOAD = LB_MSG_NTYPES, T_DELIVER, NTYPES };
enum { NCOL = 11 };

typedef struct row {
  double t, arr;
  long host, src, dst;        /* dst -1: the sink (lbmaster) */
  int type;
  char key[3][24];            /* hv, lv, tag: digits, or empty */
  long long count, procs, bytes;
  size_t line;
} row;

typedef struct opts {
  const char *cmd, *path, *out, *topo;
  double from, to, latency, bandwidth, offset;
  int have_offset, csv;
  unsigned char keep[NTYPES];
} opts;

static void usage(void)
{
  printf("Usage: lbtrace [OPTIONS] COMMAND TRACE\n"
         "Read a per-message trace (lbsim --msg-trace, lbmaster --trace; the\n"
         "columns %s)\n"
         "and convert it for a viewer.\n\n"
         "Commands:\n"
         "  info      messages, hosts, time span, arrivals, migrations (messages\n"
         "            carrying processes; one per process-hop), deliveries, types\n"
         "  segments  CSV for the space-time diagram, one row per message:\n"
         "            send,arrive,src,dst,type,kind,procs,bytes,hv,lv,tag,count\n"
         "            (dst of a delivery to lbmaster: the lane after the hosts)\n"
         "  json      Trace Event Format for ui.perfetto.dev or chrome://tracing:\n"
         "            a track per host, each message a slice at its send and at\n"
         "            its arrival joined by a flow arrow, with its fields as args\n\n"
         "Options:\n"
         "      --from T       keep messages sent at or after T\n"
         "      --to T         keep messages sent at or before T\n"
         "      --types LIST   keep these types (comma-separated, e.g. RM,AM,LMM)\n"
         "      --topology T   arrivals of an lbsim run without jitter, exactly as\n"
         "                     lbsim delivers: send + hops x (latency + bytes /\n"
         "                     bandwidth); give the run's --topology and, if set,\n"
         "      --latency X    its latency (default 1, lbsim's)\n"
         "      --bandwidth B  its bandwidth, 0 = infinite (default 0, lbsim's)\n"
         "      --offset D     without --topology: arrivals drawn at send + D, as the\n"
         "                     trace does not record them (default 1%% of the time\n"
         "                     span of the messages kept)\n"
         "  -o, --output F     write to F, not stdout\n"
         "  -c, --csv          info as one CSV header and row\n"
         "      --version      print the version and the commit it was built from\n"
         "  -h, --help         show this help and exit\n\n"
         "kind: migration (LMM or TRANSFER carrying processes), result (DRM,\n"
         "RESULT, PAYLOAD), deliver (DELIVER: result bytes to lbmaster), protocol.\n"
         "JSON timestamps are microseconds: trace time x 1e6.\n\n"
         "Exit status: 0 success, 2 bad arguments or a malformed trace.\n",
         lb_rt_trace_header());
}

static const char *type_name(int t)
{
  return t == T_PAYLOAD ? "PAYLOAD" : t == T_DELIVER ? "DELIVER" : lb_msg_type_name((lb_msg_type)t);
}

static int type_from(const char *s)
{
  for (int t = 0; t < NTYPES; t++)
    if (!strcmp(s, type_name(t))) return t;
  return -1;
}

static const char *kind(const row *r)
{
  if ((r->type == LB_MSG_LMM || r->type == LB_MSG_TRANSFER) && r->procs > 0) return "migration";
  if (r->type == T_DELIVER) return "deliver";
  if (r->type == LB_MSG_DRM || r->type == LB_MSG_RESULT || r->type == T_PAYLOAD) return "result";
  return "protocol";
}

/* ---- reading ---- */
static const char *g_path;
static size_t g_line;

static void bad(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void bad(const char *fmt, ...)
{
  char msg[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  cli_usage_error("%s:%zu: %s", g_path, g_line, msg);
}

static long long integer(const char *col, const char *s, long long lo)
{
  char *end;
  if (!*s || !(isdigit((unsigned char)*s) || (*s == '-' && isdigit((unsigned char)s[1]))))
    bad("%s '%s' is not an integer", col, s);
  errno = 0;
  long long v = strtoll(s, &end, 10);
  if (*end) bad("%s '%s' is not an integer", col, s);
  if (errno == ERANGE) bad("%s '%s' is out of range", col, s);
  if (v < lo) bad("%s %lld is below %lld", col, v, lo);
  return v;
}

static double number(const char *col, const char *s)
{
  char *end;
  if (!*s || strspn(s, "0123456789.eE+-") != strlen(s)) bad("%s '%s' is not a number", col, s);
  double v = strtod(s, &end);
  if (*end || !isfinite(v) || v < 0) bad("%s '%s' is not a time >= 0", col, s);
  return v;
}

static void parse_row(char *s, row *r)
{
  static const char *names[NCOL] = { "time", "host", "type", "src", "dst", "hv", "lv", "tag", "count", "procs", "bytes" };
  char *f[NCOL];
  size_t n = 0;
  for (char *p = s;; p++) {
    if (n < NCOL) f[n] = p;
    n++;
    p += strcspn(p, ",");
    if (!*p) break;
    *p = '\0';
  }
  if (n != NCOL) bad("%zu columns, expected %d (%s)", n, NCOL, lb_rt_trace_header());
  r->t = number(names[0], f[0]);
  r->host = (long)integer(names[1], f[1], 0);
  if ((r->type = type_from(f[2])) < 0) bad("unknown message type '%.20s'", f[2]);
  r->src = (long)integer(names[3], f[3], 0);
  r->dst = (long)integer(names[4], f[4], r->type == T_DELIVER ? -1 : 0);
  if (r->type == T_DELIVER && r->dst != -1) bad("DELIVER to %ld: a delivery goes to lbmaster (dst -1)", r->dst);
  if (r->src != r->host) bad("src %ld differs from host %ld: a row is written by its sender", r->src, r->host);
  for (int k = 0; k < 3; k++) {   /* ids up to 64 bits, kept as written: JSON numbers */
    const char *v = f[5 + k];
    if (strspn(v, "0123456789") != strlen(v) || (v[0] == '0' && v[1]))
      bad("%s '%.30s' is not an id (digits, no leading zero)", names[5 + k], v);
    if (strlen(v) > 20) bad("%s '%.30s' is too long", names[5 + k], v);
    strcpy(r->key[k], v);
  }
  r->count = integer(names[8], f[8], -(1LL << 62));
  r->procs = integer(names[9], f[9], 0);
  r->bytes = integer(names[10], f[10], 0);
}

static row *read_trace(const char *path, size_t *nrow)
{
  FILE *f = fopen(path, "r");
  if (!f) cli_usage_error("cannot open trace '%s'", path);
  g_path = path;
  char *s = NULL;
  size_t cap = 0, n = 0, nv = 0;
  row *v = NULL;
  ssize_t len;
  for (g_line = 1; (len = getline(&s, &cap, f)) >= 0; g_line++) {
    while (len > 0 && (s[len - 1] == '\n' || s[len - 1] == '\r')) s[--len] = '\0';
    if ((size_t)len != strlen(s)) bad("a NUL byte in the row");
    if (g_line == 1) {
      if (strcmp(s, lb_rt_trace_header())) bad("header '%.80s', expected '%s'", s, lb_rt_trace_header());
      continue;
    }
    if (n == nv) {
      nv = nv ? 2 * nv : 256;
      if (!(v = realloc(v, nv * sizeof *v))) cli_die(CLI_EXIT_FAIL, "out of memory");
    }
    parse_row(s, &v[n]);
    v[n++].line = g_line;
  }
  if (g_line == 1) bad("empty file: no header");
  free(s);
  fclose(f);
  *nrow = n;
  return v;
}

/* Send time, then file order: the farm writes each worker's rows in turn. */
static int by_time(const void *a, const void *b)
{
  const row *x = a, *y = b;
  if (x->t != y->t) return x->t < y->t ? -1 : 1;
  return x->line < y->line ? -1 : x->line > y->line;
}

/* ---- output ---- */
typedef struct view {
  row *v;            /* the kept rows, by send time */
  size_t n, all;
  long hosts;        /* lanes 0..hosts-1; the sink is lane `hosts` */
  int sink, exact;
  double offset;
} view;

static void print_info(const opts *o, const view *w, FILE *f)
{
  long long cnt[NTYPES] = { 0 }, migr = 0, hops = 0, deliv = 0;
  for (size_t k = 0; k < w->n; k++) {
    const row *r = &w->v[k];
    cnt[r->type]++;
    if (!strcmp(kind(r), "migration")) { migr++; hops += r->procs; }
    if (r->type == T_DELIVER) deliv++;
  }
  char types[256] = "";
  for (int t = 0; t < NTYPES; t++)
    if (cnt[t]) snprintf(types + strlen(types), sizeof types - strlen(types), "%s%s", *types ? " " : "", type_name(t));
  double first = w->n ? w->v[0].t : 0, last = w->n ? w->v[w->n - 1].t : 0;
  const char *arr = w->exact ? "exact" : "offset";
  if (o->csv) {
    fprintf(f, "rows,messages,hosts,sink,first,last,arrival,offset,migrations,process_hops,deliveries,types");
    for (int t = 0; t < NTYPES; t++) fprintf(f, ",n_%s", type_name(t));
    fprintf(f, "\n%zu,%zu,%ld,%d,%.17g,%.17g,%s,%.17g,%lld,%lld,%lld,%s", w->all, w->n, w->hosts, w->sink,
            first, last, arr, w->offset, migr, hops, deliv, types);
    for (int t = 0; t < NTYPES; t++) fprintf(f, ",%lld", cnt[t]);
    fprintf(f, "\n");
    return;
  }
  fprintf(f, "trace       %s\nrows        %zu\nmessages    %zu kept\nhosts       %ld%s\n", o->path, w->all, w->n,
          w->hosts, w->sink ? " and lbmaster" : "");
  fprintf(f, "sent        %.10g .. %.10g\n", first, last);
  if (w->exact) fprintf(f, "arrival     exact: lbsim's delivery on %s\n", o->topo);
  else fprintf(f, "arrival     not recorded: drawn at send + %.10g\n", w->offset);
  fprintf(f, "migrations  %lld messages carried %lld process-hops\ndeliveries  %lld\ntypes      ", migr, hops, deliv);
  for (int t = 0; t < NTYPES; t++)
    if (cnt[t]) fprintf(f, " %s %lld", type_name(t), cnt[t]);
  fprintf(f, "\n");
}

static long lane(const view *w, long id) { return id < 0 ? w->hosts : id; }

static void print_segments(const view *w, FILE *f)
{
  fprintf(f, "send,arrive,src,dst,type,kind,procs,bytes,hv,lv,tag,count\n");
  for (size_t k = 0; k < w->n; k++) {
    const row *r = &w->v[k];
    fprintf(f, "%.17g,%.17g,%ld,%ld,%s,%s,%lld,%lld,%s,%s,%s,%lld\n", r->t, r->arr, r->src, lane(w, r->dst),
            type_name(r->type), kind(r), r->procs, r->bytes, r->key[0], r->key[1], r->key[2], r->count);
  }
}

static void json_str(FILE *f, const char *s)
{
  fputc('"', f);
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
    else if (c < 0x20) fprintf(f, "\\u%04x", c);
    else fputc(c, f);
  }
  fputc('"', f);
}

static void json_key(FILE *f, const char *name, const char *v)
{
  fprintf(f, ",\"%s\":%s", name, *v ? v : "null");
}

/* One slice, at the send (flow_out) or at the arrival (flow_in). */
static void json_slice(FILE *f, const view *w, const row *r, size_t id, int in)
{
  const char *k = kind(r);
  long tid = lane(w, in ? r->dst : r->src) + 1;
  fprintf(f, ",\n{\"ph\":\"X\",\"pid\":1,\"tid\":%ld,\"ts\":%.3f,\"dur\":0,\"name\":\"%s%s\",\"cat\":\"%s\","
          "\"bind_id\":%zu,\"%s\":true,\"args\":{\"type\":\"%s\",\"src\":%ld,\"dst\":",
          tid, (in ? r->arr : r->t) * 1e6, type_name(r->type), strcmp(k, "migration") ? "" : " migration", k,
          id, in ? "flow_in" : "flow_out", type_name(r->type), r->src);
  if (r->dst < 0) fprintf(f, "\"lbmaster\"");
  else fprintf(f, "%ld", r->dst);
  json_key(f, "hv", r->key[0]);
  json_key(f, "lv", r->key[1]);
  json_key(f, "tag", r->key[2]);
  fprintf(f, ",\"count\":%lld,\"procs\":%lld,\"bytes\":%lld,\"line\":%zu,\"sent_s\":%.9f,\"arrival\":\"%s\"}}",
          r->count, r->procs, r->bytes, r->line, r->t, w->exact ? "exact" : "not recorded");
}

static void print_json(const opts *o, const view *w, FILE *f)
{
  fprintf(f, "{\"displayTimeUnit\":\"ms\",\"otherData\":{\"generator\":\"lbtrace\",\"trace\":");
  json_str(f, o->path);
  fprintf(f, ",\"time\":\"microseconds = trace time x 1e6\",\"arrival\":");
  char what[160];
  if (w->exact) snprintf(what, sizeof what, "exact: lbsim's delivery on %s", o->topo);
  else snprintf(what, sizeof what, "not recorded: drawn at send + %.9g", w->offset);
  json_str(f, what);
  fprintf(f, "},\n\"traceEvents\":[\n{\"ph\":\"M\",\"pid\":1,\"name\":\"process_name\",\"args\":{\"name\":");
  json_str(f, o->path);
  fprintf(f, "}}");
  for (long h = 0; h < w->hosts + w->sink; h++) {
    char name[32];
    if (h < w->hosts) snprintf(name, sizeof name, "host %ld", h);
    else snprintf(name, sizeof name, "lbmaster");
    fprintf(f, ",\n{\"ph\":\"M\",\"pid\":1,\"tid\":%ld,\"name\":\"thread_name\",\"args\":{\"name\":\"%s\"}}", h + 1, name);
    fprintf(f, ",\n{\"ph\":\"M\",\"pid\":1,\"tid\":%ld,\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":%ld}}",
            h + 1, h);
  }
  for (size_t k = 0; k < w->n; k++) {
    json_slice(f, w, &w->v[k], k + 1, 0);
    json_slice(f, w, &w->v[k], k + 1, 1);
  }
  fprintf(f, "\n]}\n");
}

/* ---- main ---- */
static void parse_types(opts *o, const char *list)
{
  char buf[512];
  if (strlen(list) >= sizeof buf) cli_usage_error("--types: list too long");
  strcpy(buf, list);
  memset(o->keep, 0, sizeof o->keep);
  for (char *save, *s = strtok_r(buf, ",", &save); s; s = strtok_r(NULL, ",", &save)) {
    int t = type_from(s);
    if (t < 0) cli_usage_error("--types: unknown message type '%.20s'", s);
    o->keep[t] = 1;
  }
}

static void parse_args(int argc, char **argv, opts *o)
{
  enum { O_FROM = 256, O_TO, O_TYPES, O_TOPO, O_LAT, O_BW, O_OFF };
  static const struct option lo[] = {
    { "from", required_argument, 0, O_FROM }, { "to", required_argument, 0, O_TO },
    { "types", required_argument, 0, O_TYPES }, { "topology", required_argument, 0, O_TOPO },
    { "latency", required_argument, 0, O_LAT }, { "bandwidth", required_argument, 0, O_BW },
    { "offset", required_argument, 0, O_OFF }, { "output", required_argument, 0, 'o' },
    { "csv", no_argument, 0, 'c' }, { "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 }
  };
  *o = (opts){ .from = -INFINITY, .to = INFINITY, .latency = 1, .bandwidth = 0 };
  memset(o->keep, 1, sizeof o->keep);
  int ch, lat = 0;
  while ((ch = getopt_long(argc, argv, ":o:ch", lo, NULL)) != -1) {
    switch (ch) {
    case O_FROM: o->from = cli_double("--from", optarg, 0, 1e300); break;
    case O_TO: o->to = cli_double("--to", optarg, 0, 1e300); break;
    case O_TYPES: parse_types(o, optarg); break;
    case O_TOPO: o->topo = optarg; break;
    case O_LAT: o->latency = cli_double("--latency", optarg, 0, 1e9); lat = 1; break;
    case O_BW: o->bandwidth = cli_double("--bandwidth", optarg, 0, 1e18); lat = 1; break;
    case O_OFF: o->offset = cli_double("--offset", optarg, 0, 1e300); o->have_offset = 1; break;
    case 'o': o->out = optarg; break;
    case 'c': o->csv = 1; break;
    case 'h': usage(); exit(0);
    default: cli_bad_option(ch, argc, argv);
    }
  }
  if (argc - optind != 2) cli_usage_error("expected COMMAND and TRACE (see --help)");
  o->cmd = argv[optind];
  o->path = argv[optind + 1];
  if (strcmp(o->cmd, "info") && strcmp(o->cmd, "segments") && strcmp(o->cmd, "json"))
    cli_usage_error("unknown command '%s' (info, segments, json)", o->cmd);
  if (o->from > o->to) cli_usage_error("--from %g is after --to %g", o->from, o->to);
  if (lat && !o->topo) cli_usage_error("--latency and --bandwidth need --topology");
  if (o->topo && o->have_offset) cli_usage_error("--offset is for traces without --topology");
}

int main(int argc, char **argv)
{
  cli_init(argv[0]);
  cli_version_opt(argc, argv);
  opts o;
  parse_args(argc, argv, &o);
  lb_topo *topo = NULL;
  if (o.topo && lb_topo_from_spec(o.topo, &topo)) cli_usage_error("--topology: %s", lb_errmsg());
  FILE *out = o.out ? cli_out_open("--output", o.out) : stdout;
  view w = { 0 };
  w.v = read_trace(o.path, &w.all);
  if (w.all) qsort(w.v, w.all, sizeof *w.v, by_time);
  w.hosts = topo ? (long)topo->n : 0;
  for (size_t k = 0; k < w.all; k++) {
    row *r = &w.v[k];
    g_line = r->line;
    if (r->dst < 0) w.sink = 1;
    long top = r->src > r->dst ? r->src : r->dst;
    if (topo && top >= w.hosts) bad("host %ld is not in %s (%ld nodes)", top, o.topo, w.hosts);
    if (!topo && top >= w.hosts) w.hosts = top + 1;
    if (topo && r->dst < 0) bad("a delivery to lbmaster: a farm trace, whose arrivals --topology cannot give");
    if (o.keep[r->type] && r->t >= o.from && r->t <= o.to) w.v[w.n++] = *r;
  }
  w.exact = topo != NULL;
  w.offset = o.have_offset ? o.offset : w.n ? 0.01 * (w.v[w.n - 1].t - w.v[0].t) : 0;
  for (size_t k = 0; k < w.n; k++) {
    row *r = &w.v[k];
    if (!topo) { r->arr = r->t + w.offset; continue; }
    double hops = (double)lb_topo_distance(topo, (size_t)r->src, (size_t)r->dst);
    r->arr = r->t + hops * (o.latency + (o.bandwidth > 0 ? (double)r->bytes / o.bandwidth : 0));
  }
  if (!strcmp(o.cmd, "info")) print_info(&o, &w, out);
  else if (!strcmp(o.cmd, "segments")) print_segments(&w, out);
  else print_json(&o, &w, out);
  if (o.out) cli_out_commit(out);
  else if (fflush(stdout) || ferror(stdout)) cli_die(CLI_EXIT_FAIL, "cannot write the output");
  free(w.v);
  lb_topo_free(topo);
  return 0;
}
