/* lbtrace: read a trace (lbsim --msg-trace, lbmaster --trace; the rows of
 * lb/lb_trace.h) and write what a viewer needs: a summary and a check,
 * the segments and state intervals of a space-time diagram
 * (experiments/trace/spacetime.gp), Trace Event Format JSON for
 * Perfetto, or a Paje trace for ViTE and PajeNG.
 *
 * Here: reading, matching each receipt to its send (by the sender's id;
 * a payload, which has none, by link and process in order), placing the
 * arrivals, the checks, the filters. */
#include <getopt.h>
#include <stdarg.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "lbtrace.h"
#include "cli.h"
#include "lb_errno.h"
#include "lb_topo.h"

static void usage(void)
{
  printf("Usage: lbtrace [OPTIONS] COMMAND TRACE\n"
         "       lbtrace [OPTIONS] --perfetto|--paje TRACE\n"
         "Read a trace (lbsim --msg-trace, lbmaster --trace: a row per message sent\n"
         "and taken in, and per interval a host is busy, idle or balancing; the\n"
         "columns %s;\n"
         "version 1's, sends only, are read too) and convert it for a viewer.\n\n"
         "Commands:\n"
         "  info      messages, hosts, time span, arrivals, migrations (messages\n"
         "            carrying processes; one per process-hop), deliveries, the\n"
         "            receipts matched, the seconds per state, types\n"
         "  check     the trace's invariants: every receipt matched to its send,\n"
         "            none before it; each host's states tile its span (no gap,\n"
         "            no overlap); exit 1 naming each failure\n"
         "  segments  CSV for the space-time diagram, one row per message:\n"
         "            send,arrive,src,dst,type,kind,procs,bytes,hv,lv,tag,count,arrival\n"
         "            (dst of a delivery to lbmaster: the lane after the hosts)\n"
         "  states    CSV of the state intervals: host,state,start,end\n"
         "  json, perfetto\n"
         "            Trace Event Format for ui.perfetto.dev or chrome://tracing: a\n"
         "            track per host, its states as slices, each message a slice at\n"
         "            its send and at its arrival joined by a flow arrow\n"
         "  paje      a Paje trace for ViTE or PajeNG (pj_dump): a container per\n"
         "            host with its states, each received message a link\n\n"
         "Options:\n"
         "      --from T       keep messages sent at or after T (states: clipped)\n"
         "      --to T         keep messages sent at or before T\n"
         "      --types LIST   keep these types (comma-separated, e.g. RM,AM,LMM)\n"
         "      --topology T   for messages the trace has no receipt of (version 1,\n"
         "                     lbsim): the arrival lbsim gives without jitter,\n"
         "                     send + hops x (latency + bytes / bandwidth); give the\n"
         "                     run's --topology and, if set,\n"
         "      --latency X    its latency (default 1, lbsim's)\n"
         "      --bandwidth B  its bandwidth, 0 = infinite (default 0, lbsim's)\n"
         "      --offset D     else arrivals not received drawn at send + D (default\n"
         "                     1%% of the time span of the messages kept)\n"
         "      --perfetto     the command perfetto;  --paje  the command paje\n"
         "  -o, --output F     write to F, not stdout\n"
         "  -c, --csv          info as one CSV header and row\n"
         "      --version      print the version and the commit it was built from\n"
         "  -h, --help         show this help and exit\n\n"
         "kind: migration (LMM or TRANSFER carrying processes), result (DRM,\n"
         "RESULT, PAYLOAD), deliver (DELIVER: result bytes to lbmaster), protocol.\n"
         "arrival: recv (the receipt's row), exact (computed), offset (drawn).\n"
         "JSON timestamps are microseconds: trace time x 1e6.\n\n"
         "Exit status: 0 success, 1 a check failed, 2 bad arguments or a\n"
         "malformed trace.\n",
         lb_trace_columns());
}

/* ---- small shared helpers ---- */
const char *tr_meta_get(const tr_trace *t, const char *key)
{
  for (size_t k = 0; k < t->nmeta; k++)
    if (!strcmp(t->meta[k].key, key)) return t->meta[k].value;
  return NULL;
}

const char *tr_kind(const lb_trace_row *r)
{
  if ((r->type == LB_MSG_LMM || r->type == LB_MSG_TRANSFER) && r->procs > 0) return "migration";
  if (r->type == LB_TRACE_DELIVER) return "deliver";
  if (r->type == LB_MSG_DRM || r->type == LB_MSG_RESULT || r->type == LB_TRACE_PAYLOAD) return "result";
  return "protocol";
}

const char *tr_arrival_name(tr_arrival a)
{
  static const char *n[NARR] = {"recv", "exact", "offset"};
  return (unsigned)a < NARR ? n[a] : "?";
}

const char *tr_arrival_summary(const tr_trace *t)
{
  for (int a = 0; a < NARR; a++)
    if (t->narr[a] == t->nm) return tr_arrival_name((tr_arrival)a);
  return "mixed";
}

long tr_lane(const tr_trace *t, long id) { return id < 0 ? t->hosts : id; }
long long tr_ns(double t) { return llround(t * 1e9); }

/* ---- reading ---- */
static const char *g_path;

static void bad(size_t line, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));
static void bad(size_t line, const char *fmt, ...)
{
  char msg[320];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  cli_usage_error("%s:%zu: %s", g_path, line, msg);
}

static void add_meta(tr_trace *t, const char *k, const char *v)
{
  tr_meta *m = realloc(t->meta, (t->nmeta + 1) * sizeof *m);
  if (!m) cli_die(CLI_EXIT_FAIL, "out of memory");
  t->meta = m;
  if (!(m[t->nmeta].key = strdup(k)) || !(m[t->nmeta].value = strdup(v))) cli_die(CLI_EXIT_FAIL, "out of memory");
  t->nmeta++;
}

static void read_trace(tr_trace *t, const char *path)
{
  FILE *f = fopen(path, "r");
  if (!f) cli_usage_error("cannot open trace '%s'", path);
  g_path = path;
  char *s = NULL;
  size_t cap = 0, nv = 0, line;
  ssize_t len;
  int magic = 0;
  for (line = 1; (len = getline(&s, &cap, f)) >= 0; line++) {
    while (len > 0 && (s[len - 1] == '\n' || s[len - 1] == '\r')) s[--len] = '\0';
    if ((size_t)len != strlen(s)) bad(line, "a NUL byte in the row");
    if (!t->version) {
      if (line == 1 && !strcmp(s, LB_TRACE_MAGIC)) {
        magic = 1;
        continue;
      }
      const char *k, *v;
      if (magic && s[0] == '#') {
        if (lb_trace_meta_parse(s, &k, &v)) add_meta(t, k, v);
        continue;
      }
      if (!(t->version = lb_trace_columns_version(s)) || (t->version == 2) != magic)
        bad(line, "header '%.80s', expected '%s' then the columns '%s' (or version 1's '%s')", s, LB_TRACE_MAGIC,
            lb_trace_columns(), lb_trace_columns_v1());
      continue;
    }
    if (t->version == 2 && s[0] == '#') { /* notes a writer adds later (truncated, dropped) */
      const char *k, *v;
      if (lb_trace_meta_parse(s, &k, &v)) add_meta(t, k, v);
      continue;
    }
    if (t->n == nv) {
      nv = nv ? 2 * nv : 1024;
      if (!(t->v = realloc(t->v, nv * sizeof *t->v))) cli_die(CLI_EXIT_FAIL, "out of memory");
    }
    if (lb_trace_parse(s, t->version, &t->v[t->n].r)) bad(line, "%s", lb_errmsg());
    t->v[t->n++].line = line;
  }
  if (!t->version) bad(line > 1 ? line - 1 : 1, line == 1 ? "empty file: no header" : "no column line");
  free(s);
  fclose(f);
}

/* ---- matching ---- */
/* Receipts are found by (src, id), or for a payload (src, dst, pid). */
typedef struct key {
  long src, dst;
  uint64_t id;
  int type;
  size_t idx;
} key;

static int key_cmp(const void *a, const void *b)
{
  const key *x = a, *y = b;
  if (x->src != y->src) return x->src < y->src ? -1 : 1;
  if (x->dst != y->dst) return x->dst < y->dst ? -1 : 1;
  if (x->id != y->id) return x->id < y->id ? -1 : 1;
  return x->idx < y->idx ? -1 : x->idx > y->idx; /* file order: a payload's k-th send, k-th receipt */
}

static key key_of(const tr_trace *t, size_t i)
{
  const lb_trace_row *r = &t->v[i].r;
  if (r->has_id) return (key){r->src, -2, r->id, 1, i};
  return (key){r->src, r->dst, (uint64_t)r->count, 0, i};
}

/* recv_of[i]: the receipt of send row i, or SIZE_MAX.  Two sends under
 * one id, or a receipt that differs from its send, end the run. */
static size_t *match(tr_trace *t)
{
  size_t *recv_of = malloc((t->n + 1) * sizeof *recv_of);
  key *s = malloc((t->n + 1) * sizeof *s), *r = malloc((t->n + 1) * sizeof *r);
  if (!recv_of || !s || !r) cli_die(CLI_EXIT_FAIL, "out of memory");
  size_t ns = 0, nr = 0;
  for (size_t i = 0; i < t->n; i++) {
    recv_of[i] = SIZE_MAX;
    const lb_trace_row *x = &t->v[i].r;
    if (x->ev == LB_TRACE_SEND) s[ns++] = key_of(t, i);
    if (x->ev == LB_TRACE_RECV) r[nr++] = key_of(t, i);
  }
  qsort(s, ns, sizeof *s, key_cmp);
  qsort(r, nr, sizeof *r, key_cmp);
  for (size_t k = 1; k < ns; k++)
    if (s[k].type && s[k - 1].type && s[k].src == s[k - 1].src && s[k].id == s[k - 1].id)
      bad(t->v[s[k].idx].line, "host %ld sent id %llu twice (line %zu too)", s[k].src, (unsigned long long)s[k].id,
          t->v[s[k - 1].idx].line);
  t->ck.recv = nr;
  size_t a = 0;
  for (size_t k = 0; k < nr; k++) {
    key q = r[k];
    if (k && q.type && r[k - 1].type && q.src == r[k - 1].src && q.id == r[k - 1].id)
      bad(t->v[q.idx].line, "message %llu of host %ld received twice (line %zu too)", (unsigned long long)q.id, q.src,
          t->v[r[k - 1].idx].line);
    /* The first send of its key not taken yet. */
    while (a < ns && key_cmp(&(key){s[a].src, s[a].dst, s[a].id, 0, 0}, &(key){q.src, q.dst, q.id, 0, 0}) < 0) a++;
    size_t b = a;
    while (b < ns && s[b].src == q.src && s[b].dst == q.dst && s[b].id == q.id && recv_of[s[b].idx] != SIZE_MAX) b++;
    if (b >= ns || s[b].src != q.src || s[b].dst != q.dst || s[b].id != q.id || s[b].type != q.type) {
      if (!t->ck.unmatched_recv++)
        snprintf(t->ck.first, sizeof t->ck.first, "line %zu: a receipt of %s %llu from host %ld that no send matches",
                 t->v[q.idx].line, lb_trace_type_name(t->v[q.idx].r.type), (unsigned long long)q.id, q.src);
      continue;
    }
    const lb_trace_row *x = &t->v[s[b].idx].r, *y = &t->v[q.idx].r;
    if (x->type != y->type || x->dst != y->dst || x->procs != y->procs || (x->has_id && x->count != y->count))
      bad(t->v[q.idx].line, "the receipt differs from its send (line %zu): %s %ld -> %ld, not %s %ld -> %ld",
          t->v[s[b].idx].line, lb_trace_type_name(y->type), y->src, y->dst, lb_trace_type_name(x->type), x->src,
          x->dst);
    recv_of[s[b].idx] = q.idx;
    t->ck.matched++;
    if (y->t < x->t && !t->ck.before_send++ && !t->ck.first[0])
      snprintf(t->ck.first, sizeof t->ck.first, "line %zu: received at %.9f, before its send at %.9f (line %zu)",
               t->v[q.idx].line, y->t, x->t, t->v[s[b].idx].line);
  }
  for (size_t k = 0; k < ns; k++)
    if (recv_of[s[k].idx] == SIZE_MAX) t->ck.unreceived++;
  free(s);
  free(r);
  return recv_of;
}

/* ---- states ---- */
static int by_host_start(const void *a, const void *b)
{
  const lb_trace_row *x = a, *y = b;
  if (x->host != y->host) return x->host < y->host ? -1 : 1;
  if (x->t != y->t) return x->t < y->t ? -1 : 1;
  return x->end < y->end ? -1 : x->end > y->end;
}

static void states(tr_trace *t)
{
  const tr_opts *o = t->o;
  size_t n = 0;
  for (size_t i = 0; i < t->n; i++) n += t->v[i].r.ev == LB_TRACE_STATE;
  lb_trace_row *all = malloc((n + 1) * sizeof *all);
  if (!all || !(t->st = malloc((n + 1) * sizeof *t->st))) cli_die(CLI_EXIT_FAIL, "out of memory");
  n = 0;
  for (size_t i = 0; i < t->n; i++)
    if (t->v[i].r.ev == LB_TRACE_STATE) all[n++] = t->v[i].r;
  qsort(all, n, sizeof *all, by_host_start);
  t->ck.state_rows = n;
  for (size_t k = 0; k < n; k++) {
    const lb_trace_row *x = &all[k];
    t->ck.state_s[x->type] += x->end - x->t;
    if (!k || x->host != all[k - 1].host) {
      t->ck.state_hosts++;
    } else if (x->t != all[k - 1].end) {
      int gap = x->t > all[k - 1].end;
      if (gap) t->ck.gaps++;
      else t->ck.overlaps++;
      if (!t->ck.first[0])
        snprintf(t->ck.first, sizeof t->ck.first, "host %ld: %s %.9f .. %.9f, then %s from %.9f: %s", x->host,
                 lb_host_state_name((lb_host_state)all[k - 1].type), all[k - 1].t, all[k - 1].end,
                 lb_host_state_name((lb_host_state)x->type), x->t, gap ? "a gap" : "an overlap");
    }
    if (x->end < o->from || x->t > o->to) continue;
    lb_trace_row c = *x;
    if (c.t < o->from) c.t = o->from;
    if (c.end > o->to) c.end = o->to;
    t->st[t->nst++] = c;
  }
  free(all);
}

/* ---- messages ---- */
static int by_send(const void *a, const void *b)
{
  const tr_msg *x = a, *y = b;
  if (x->s->r.t != y->s->r.t) return x->s->r.t < y->s->r.t ? -1 : 1;
  return x->s->line < y->s->line ? -1 : x->s->line > y->s->line;
}

static void messages(tr_trace *t, const lb_topo *topo)
{
  const tr_opts *o = t->o;
  if (!(t->m = malloc((t->n + 1) * sizeof *t->m))) cli_die(CLI_EXIT_FAIL, "out of memory");
  t->hosts = topo ? (long)topo->n : 0;
  const char *h = tr_meta_get(t, "hosts");
  if (h) {
    char *end;
    long v = strtol(h, &end, 10);
    if (*end || v < 0 || v > (1L << 31)) bad(1, "hosts: '%.30s' is not a count", h);
    if (topo && v != t->hosts) bad(1, "hosts: %ld, but %s has %ld nodes", v, o->topo, t->hosts);
    t->hosts = v;
  }
  int declared = topo || h;
  for (size_t i = 0; i < t->n; i++) {
    const lb_trace_row *r = &t->v[i].r;
    long top = r->host;
    if (r->ev != LB_TRACE_STATE) {
      if (r->dst < 0) t->sink = 1;
      if (r->src > top) top = r->src;
      if (r->dst > top) top = r->dst;
    }
    if (top >= t->hosts) {
      if (topo) bad(t->v[i].line, "host %ld is not in %s (%ld nodes)", top, o->topo, t->hosts);
      if (declared) bad(t->v[i].line, "host %ld is not in the trace's %ld hosts", top, t->hosts);
      t->hosts = top + 1;
    }
  }
  size_t *recv_of = match(t);
  for (size_t i = 0; i < t->n; i++) {
    const lb_trace_row *r = &t->v[i].r;
    if (r->ev != LB_TRACE_SEND) continue;
    t->nmsg++;
    if (!o->keep[r->type] || r->t < o->from || r->t > o->to) continue;
    tr_msg *m = &t->m[t->nm++];
    *m = (tr_msg){.s = &t->v[i], .r = recv_of[i] == SIZE_MAX ? NULL : &t->v[recv_of[i]]};
  }
  free(recv_of);
  qsort(t->m, t->nm, sizeof *t->m, by_send);
  t->offset = o->have_offset ? o->offset : t->nm ? 0.01 * (t->m[t->nm - 1].s->r.t - t->m[0].s->r.t) : 0;
  for (size_t k = 0; k < t->nm; k++) {
    tr_msg *m = &t->m[k];
    const lb_trace_row *r = &m->s->r;
    if (m->r) {
      m->how = ARR_RECV;
      m->arr = m->r->r.t;
    } else if (topo && r->dst >= 0) {
      double hops = (double)lb_topo_distance(topo, (size_t)r->src, (size_t)r->dst);
      m->how = ARR_EXACT;
      m->arr = r->t + hops * (o->latency + (o->bandwidth > 0 ? (double)r->bytes / o->bandwidth : 0));
    } else {
      m->how = ARR_OFFSET;
      m->arr = r->t + t->offset;
    }
    t->narr[m->how]++;
  }
}

/* ---- main ---- */
static void parse_types(tr_opts *o, const char *list)
{
  char buf[512];
  if (strlen(list) >= sizeof buf) cli_usage_error("--types: list too long");
  strcpy(buf, list);
  memset(o->keep, 0, sizeof o->keep);
  for (char *save, *s = strtok_r(buf, ",", &save); s; s = strtok_r(NULL, ",", &save)) {
    int t = lb_trace_type_from(s);
    if (t < 0) cli_usage_error("--types: unknown message type '%.20s'", s);
    o->keep[t] = 1;
  }
}

static const char *const commands[] = {"info", "check", "segments", "states", "json", "perfetto", "paje"};

static void parse_args(int argc, char **argv, tr_opts *o)
{
  enum { O_FROM = 256, O_TO, O_TYPES, O_TOPO, O_LAT, O_BW, O_OFF, O_PERFETTO, O_PAJE };
  static const struct option lo[] = {{"from", required_argument, 0, O_FROM},
                                     {"to", required_argument, 0, O_TO},
                                     {"types", required_argument, 0, O_TYPES},
                                     {"topology", required_argument, 0, O_TOPO},
                                     {"latency", required_argument, 0, O_LAT},
                                     {"bandwidth", required_argument, 0, O_BW},
                                     {"offset", required_argument, 0, O_OFF},
                                     {"perfetto", no_argument, 0, O_PERFETTO},
                                     {"paje", no_argument, 0, O_PAJE},
                                     {"output", required_argument, 0, 'o'},
                                     {"csv", no_argument, 0, 'c'},
                                     {"help", no_argument, 0, 'h'},
                                     {0, 0, 0, 0}};
  *o = (tr_opts){.from = -INFINITY, .to = INFINITY, .latency = 1, .bandwidth = 0};
  memset(o->keep, 1, sizeof o->keep);
  int ch, lat = 0;
  const char *as = NULL;
  while ((ch = getopt_long(argc, argv, ":o:ch", lo, NULL)) != -1) {
    switch (ch) {
    case O_FROM: o->from = cli_double("--from", optarg, 0, 1e300); break;
    case O_TO: o->to = cli_double("--to", optarg, 0, 1e300); break;
    case O_TYPES: parse_types(o, optarg); break;
    case O_TOPO: o->topo = optarg; break;
    case O_LAT:
      o->latency = cli_double("--latency", optarg, 0, 1e9);
      lat = 1;
      break;
    case O_BW:
      o->bandwidth = cli_double("--bandwidth", optarg, 0, 1e18);
      lat = 1;
      break;
    case O_OFF:
      o->offset = cli_double("--offset", optarg, 0, 1e300);
      o->have_offset = 1;
      break;
    case O_PERFETTO:
    case O_PAJE:
      if (as) cli_usage_error("--perfetto and --paje: one output at a time");
      as = ch == O_PAJE ? "paje" : "perfetto";
      break;
    case 'o': o->out = optarg; break;
    case 'c': o->csv = 1; break;
    case 'h': usage(); exit(0);
    default: cli_bad_option(ch, argc, argv);
    }
  }
  if (argc - optind != (as ? 1 : 2))
    cli_usage_error(as ? "expected TRACE (see --help)" : "expected COMMAND and TRACE (see --help)");
  o->cmd = as ? as : argv[optind];
  o->path = argv[argc - 1];
  int known = 0;
  for (size_t k = 0; k < sizeof commands / sizeof *commands; k++) known |= !strcmp(o->cmd, commands[k]);
  if (!known) cli_usage_error("unknown command '%s' (info, check, segments, states, json, perfetto, paje)", o->cmd);
  if (o->from > o->to) cli_usage_error("--from %g is after --to %g", o->from, o->to);
  if (lat && !o->topo) cli_usage_error("--latency and --bandwidth need --topology");
  if (o->topo && o->have_offset) cli_usage_error("--offset is for traces without --topology");
}

int main(int argc, char **argv)
{
  cli_init(argv[0]);
  cli_version_opt(argc, argv);
  tr_opts o;
  parse_args(argc, argv, &o);
  lb_topo *topo = NULL;
  if (o.topo && lb_topo_from_spec(o.topo, &topo)) cli_usage_error("--topology: %s", lb_errmsg());
  FILE *out = o.out ? cli_out_open("--output", o.out) : stdout;
  tr_trace t = {.o = &o};
  read_trace(&t, o.path);
  messages(&t, topo);
  for (size_t k = 0; topo && k < t.nm; k++)
    if (t.m[k].s->r.dst < 0)
      bad(t.m[k].s->line, "a delivery to lbmaster: a farm trace, whose arrivals --topology cannot give");
  states(&t);
  int rc = 0;
  if (!strcmp(o.cmd, "info")) tr_info(&t, out);
  else if (!strcmp(o.cmd, "check")) rc = tr_check(&t, out);
  else if (!strcmp(o.cmd, "segments")) tr_segments(&t, out);
  else if (!strcmp(o.cmd, "states")) tr_states(&t, out);
  else if (!strcmp(o.cmd, "paje")) tr_paje(&t, out);
  else tr_json(&t, out);
  if (o.out) cli_out_commit(out);
  else if (fflush(stdout) || ferror(stdout)) cli_die(CLI_EXIT_FAIL, "cannot write the output");
  for (size_t k = 0; k < t.nmeta; k++) {
    free(t.meta[k].key);
    free(t.meta[k].value);
  }
  free(t.meta);
  free(t.v);
  free(t.m);
  free(t.st);
  lb_topo_free(topo);
  return rc;
}
