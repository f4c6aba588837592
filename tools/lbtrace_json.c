/* lbtrace_json.c: a trace as Trace Event Format JSON (lbtrace.h), which
 * ui.perfetto.dev and chrome://tracing open: one process, a thread (track)
 * per host and one for lbmaster; each host's states as complete slices;
 * each message a zero-length slice on its sender's track at its send
 * and one on its receiver's at its arrival, joined by a flow (bind_id,
 * flow_out, flow_in).  Times go out in whole nanoseconds, so two equal
 * times in the trace stay equal and a host's slices meet exactly. */
#include <stdlib.h>
#include <string.h>
#include "lbtrace.h"
#include "cli.h"

static void str(FILE *f, const char *s)
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

/* Microseconds with three decimals, from nanoseconds. */
static void us(FILE *f, long long ns)
{
  fprintf(f, "%s%lld.%03lld", ns < 0 ? "-" : "", llabs(ns) / 1000, llabs(ns) % 1000);
}

static void key(FILE *f, const char *name, unsigned has, uint64_t v)
{
  if (has) fprintf(f, ",\"%s\":%llu", name, (unsigned long long)v);
  else fprintf(f, ",\"%s\":null", name);
}

/* One event to write: a state (k indexes t->st) or a message's end (k
 * indexes t->m; in: its arrival). */
typedef struct ev {
  long long ns;
  int msg, in;
  size_t k;
} ev;

/* By time; at one time states first, so a message nests in the state
 * that begins there, not in the one that ends; then as made. */
static int ev_cmp(const void *a, const void *b)
{
  const ev *x = a, *y = b;
  if (x->ns != y->ns) return x->ns < y->ns ? -1 : 1;
  if (x->msg != y->msg) return x->msg - y->msg;
  if (x->k != y->k) return x->k < y->k ? -1 : 1;
  return x->in - y->in;
}

static void slice(FILE *f, const tr_trace *t, const tr_msg *m, size_t id, int in, long long ns)
{
  const lb_trace_row *r = &m->s->r;
  const char *k = tr_kind(r);
  long tid = tr_lane(t, in ? r->dst : r->src) + 1;
  fprintf(f, ",\n{\"ph\":\"X\",\"pid\":1,\"tid\":%ld,\"ts\":", tid);
  us(f, ns);
  fprintf(f,
          ",\"dur\":0,\"name\":\"%s%s\",\"cat\":\"%s\",\"bind_id\":%zu,\"%s\":true,\"args\":{\"type\":\"%s\","
          "\"src\":%ld,\"dst\":",
          lb_trace_type_name(r->type), strcmp(k, "migration") ? "" : " migration", k, id, in ? "flow_in" : "flow_out",
          lb_trace_type_name(r->type), r->src);
  if (r->dst < 0) fprintf(f, "\"lbmaster\"");
  else fprintf(f, "%ld", r->dst);
  key(f, "hv", r->keys & LB_TRACE_HV, r->hv);
  key(f, "lv", r->keys & LB_TRACE_LV, r->lv);
  key(f, "tag", r->keys & LB_TRACE_TAG, r->tag);
  key(f, "id", (unsigned)r->has_id, r->id);
  fprintf(f, ",\"count\":%lld,\"procs\":%lld,\"bytes\":%lld,\"line\":%zu,\"sent_s\":%.9f,\"arrival\":\"%s\"", r->count,
          r->procs, r->bytes, m->s->line, r->t, m->how == ARR_OFFSET ? "not recorded" : tr_arrival_name(m->how));
  if (m->r) fprintf(f, ",\"received_s\":%.9f,\"recv_line\":%zu", m->r->r.t, m->r->line);
  fprintf(f, "}}");
}

static void state(FILE *f, const lb_trace_row *s)
{
  /* cname: chrome://tracing's colours (Perfetto colours by name). */
  static const char *cname[LB_HOST_NSTATES] = {"thread_state_running", "thread_state_sleeping", "thread_state_iowait"};
  long long a = tr_ns(s->t), b = tr_ns(s->end);
  fprintf(f, ",\n{\"ph\":\"X\",\"pid\":1,\"tid\":%ld,\"ts\":", s->host + 1);
  us(f, a);
  fprintf(f, ",\"dur\":");
  us(f, b - a);
  fprintf(f,
          ",\"name\":\"%s\",\"cat\":\"state\",\"cname\":\"%s\",\"args\":{\"state\":\"%s\",\"start_s\":%.9f,"
          "\"end_s\":%.9f}}",
          lb_host_state_name((lb_host_state)s->type), cname[s->type], lb_host_state_name((lb_host_state)s->type), s->t,
          s->end);
}

void tr_json(const tr_trace *t, FILE *f)
{
  const tr_opts *o = t->o;
  fprintf(f, "{\"displayTimeUnit\":\"ms\",\"otherData\":{\"generator\":\"lbtrace\",\"trace\":");
  str(f, o->path);
  fprintf(f, ",\"version\":%d,\"time\":", t->version);
  const char *tm = tr_meta_get(t, "time"), *clock = tr_meta_get(t, "clock"), *drv = tr_meta_get(t, "driver");
  char what[200];
  snprintf(what, sizeof what, "microseconds = trace time x 1e6 (trace time: %s)", tm ? tm : "as written");
  str(f, what);
  fprintf(f, ",\"clock\":");
  str(f, clock ? clock : "not stated");
  fprintf(f, ",\"driver\":");
  str(f, drv ? drv : "not stated");
  fprintf(f, ",\"arrival\":");
  snprintf(what, sizeof what,
           "%zu at their receipt, %zu computed from the topology, %zu not recorded: drawn at "
           "send + %.9g",
           t->narr[ARR_RECV], t->narr[ARR_EXACT], t->narr[ARR_OFFSET], t->offset);
  str(f, what);
  fprintf(f, "},\n\"traceEvents\":[\n{\"ph\":\"M\",\"pid\":1,\"name\":\"process_name\",\"args\":{\"name\":");
  str(f, o->path);
  fprintf(f, "}}");
  for (long h = 0; h < t->hosts + t->sink; h++) {
    char name[32];
    if (h < t->hosts) snprintf(name, sizeof name, "host %ld", h);
    else snprintf(name, sizeof name, "lbmaster");
    fprintf(f, ",\n{\"ph\":\"M\",\"pid\":1,\"tid\":%ld,\"name\":\"thread_name\",\"args\":{\"name\":\"%s\"}}", h + 1,
            name);
    fprintf(f, ",\n{\"ph\":\"M\",\"pid\":1,\"tid\":%ld,\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":%ld}}",
            h + 1, h);
  }
  size_t n = 0;
  ev *v = malloc((t->nst + 2 * t->nm + 1) * sizeof *v);
  if (!v) cli_die(CLI_EXIT_FAIL, "out of memory");
  for (size_t k = 0; k < t->nst; k++) v[n++] = (ev){tr_ns(t->st[k].t), 0, 0, k};
  for (size_t k = 0; k < t->nm; k++) {
    v[n++] = (ev){tr_ns(t->m[k].s->r.t), 1, 0, k};
    v[n++] = (ev){tr_ns(t->m[k].arr), 1, 1, k};
  }
  qsort(v, n, sizeof *v, ev_cmp);
  for (size_t k = 0; k < n; k++) {
    if (v[k].msg) slice(f, t, &t->m[v[k].k], v[k].k + 1, v[k].in, v[k].ns);
    else state(f, &t->st[v[k].k]);
  }
  free(v);
  fprintf(f, "\n]}\n");
}
