/* lbtrace_paje.c: a trace in the Paje trace file format (lbtrace.h),
 * which ViTE and PajeNG (pj_dump) read: a header of %EventDef blocks,
 * then one event per line in order of time.
 *
 * Types: the farm (a container in the root, "0"), its hosts (containers
 * in it), a host's State (values busy, idle, balancing), a Message link
 * between two hosts (a value per message type) and a Message event on a
 * host (a message whose arrival the trace does not give: a delivery to
 * lbmaster, or one never received).  Each host's container lives from
 * the trace's first time to its own last one, the farm's to the last of
 * all; a host's states are set at each interval's start. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "lbtrace.h"
#include "cli.h"

enum {
  DEF_CTYPE,
  DEF_STYPE,
  DEF_ETYPE,
  DEF_LTYPE,
  DEF_VALUE,
  CREATE,
  DESTROY,
  SET_STATE,
  START_LINK,
  END_LINK,
  NEW_EVENT
};

static const char *header =
    "%EventDef PajeDefineContainerType 0\n%       Alias string\n%       Type string\n%       Name "
    "string\n%EndEventDef\n"
    "%EventDef PajeDefineStateType 1\n%       Alias string\n%       Type string\n%       Name string\n%EndEventDef\n"
    "%EventDef PajeDefineEventType 2\n%       Alias string\n%       Type string\n%       Name string\n%EndEventDef\n"
    "%EventDef PajeDefineLinkType 3\n%       Alias string\n%       Type string\n%       StartContainerType string\n"
    "%       EndContainerType string\n%       Name string\n%EndEventDef\n"
    "%EventDef PajeDefineEntityValue 4\n%       Alias string\n%       Type string\n%       Name string\n"
    "%       Color color\n%EndEventDef\n"
    "%EventDef PajeCreateContainer 5\n%       Time date\n%       Alias string\n%       Type string\n"
    "%       Container string\n%       Name string\n%EndEventDef\n"
    "%EventDef PajeDestroyContainer 6\n%       Time date\n%       Type string\n%       Name string\n%EndEventDef\n"
    "%EventDef PajeSetState 7\n%       Time date\n%       Type string\n%       Container string\n%       Value string\n"
    "%EndEventDef\n"
    "%EventDef PajeStartLink 8\n%       Time date\n%       Type string\n%       Container string\n%       Value "
    "string\n"
    "%       StartContainer string\n%       Key string\n%EndEventDef\n"
    "%EventDef PajeEndLink 9\n%       Time date\n%       Type string\n%       Container string\n%       Value string\n"
    "%       EndContainer string\n%       Key string\n%EndEventDef\n"
    "%EventDef PajeNewEvent 10\n%       Time date\n%       Type string\n%       Container string\n%       Value "
    "string\n"
    "%EndEventDef\n";

/* The message types' colours: those of experiments/trace/spacetime.gp. */
static const char *colour(int type)
{
  static const char *c[] = {"0.122 0.467 0.706", "1.000 0.498 0.055", "0.173 0.627 0.173", "0.839 0.153 0.157",
                            "0.580 0.404 0.741", "0.498 0.498 0.498", "0.737 0.741 0.133", "0.698 0.094 0.169",
                            "0.090 0.745 0.812", "0.416 0.239 0.604", "0.200 0.627 0.173", "0.984 0.604 0.600",
                            "0.651 0.463 0.114", "0.400 0.400 0.400", "0.106 0.620 0.467"};
  if (type == LB_TRACE_PAYLOAD) return "0.549 0.337 0.294";
  if (type == LB_TRACE_DELIVER) return "0.906 0.161 0.541";
  return type >= 0 && (size_t)type < sizeof c / sizeof *c ? c[type] : "0 0 0";
}

/* One line of the body, put in order of (time, kind, made). */
typedef struct pev {
  long long ns;
  int cls;
  size_t seq;
  char *text;
} pev;
typedef struct pbuf {
  pev *v;
  size_t n, cap;
} pbuf;

static int pev_cmp(const void *a, const void *b)
{
  const pev *x = a, *y = b;
  if (x->ns != y->ns) return x->ns < y->ns ? -1 : 1;
  if (x->cls != y->cls) return x->cls - y->cls;
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Time as seconds with nine decimals, from nanoseconds. */
static void when(char *b, size_t cap, long long ns)
{
  snprintf(b, cap, "%s%lld.%09lld", ns < 0 ? "-" : "", llabs(ns) / 1000000000, llabs(ns) % 1000000000);
}

static void put(pbuf *p, long long ns, int cls, int id, const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static void put(pbuf *p, long long ns, int cls, int id, const char *fmt, ...)
{
  if (p->n == p->cap) {
    p->cap = p->cap ? 2 * p->cap : 1024;
    if (!(p->v = realloc(p->v, p->cap * sizeof *p->v))) cli_die(CLI_EXIT_FAIL, "out of memory");
  }
  char t[40], rest[256];
  when(t, sizeof t, ns);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(rest, sizeof rest, fmt, ap);
  va_end(ap);
  size_t n = strlen(t) + strlen(rest) + 16;
  char *s = malloc(n);
  if (!s) cli_die(CLI_EXIT_FAIL, "out of memory");
  snprintf(s, n, "%d %s %s", id, t, rest);
  p->v[p->n] = (pev){ns, cls, p->n, s};
  p->n++;
}

static void comment(FILE *f, const char *key, const char *value)
{
  if (value) fprintf(f, "# %s: %s\n", key, value);
}

void tr_paje(const tr_trace *t, FILE *f)
{
  long H = t->hosts;
  long long *last = malloc((size_t)(H + 1) * sizeof *last); /* per host: its last time, -1 none */
  if (!last) cli_die(CLI_EXIT_FAIL, "out of memory");
  long long t0 = 0, t1 = 0;
  int any = 0;
  for (long h = 0; h < H; h++) last[h] = -1;
#define SEEN(h, ns)                                                                                                    \
  do {                                                                                                                 \
    long long x_ = (ns);                                                                                               \
    if (!any || x_ < t0) t0 = x_;                                                                                      \
    if (!any || x_ > t1) t1 = x_;                                                                                      \
    any = 1;                                                                                                           \
    if ((h) >= 0 && (h) < H && x_ > last[h]) last[h] = x_;                                                             \
  } while (0)
  for (size_t k = 0; k < t->nst; k++) {
    SEEN(t->st[k].host, tr_ns(t->st[k].t));
    SEEN(t->st[k].host, tr_ns(t->st[k].end));
  }
  for (size_t k = 0; k < t->nm; k++) {
    const tr_msg *m = &t->m[k];
    SEEN(m->s->r.src, tr_ns(m->s->r.t));
    if (m->how != ARR_OFFSET && m->s->r.dst >= 0) SEEN(m->s->r.dst, tr_ns(m->arr));
  }
#undef SEEN
  fprintf(f, "# lbtrace: a Paje trace of %s (ViTE; PajeNG: pj_dump)\n", t->o->path);
  comment(f, "driver", tr_meta_get(t, "driver"));
  comment(f, "time", tr_meta_get(t, "time"));
  comment(f, "clock", tr_meta_get(t, "clock"));
  fprintf(f,
          "# arrivals: %zu received, %zu computed from the topology (links); %zu not recorded (events at "
          "the send)\n",
          t->narr[ARR_RECV], t->narr[ARR_EXACT], t->narr[ARR_OFFSET]);
  fputs(header, f);
  fprintf(f,
          "%d CT_Farm 0 \"Farm\"\n%d CT_Host CT_Farm \"Host\"\n%d ST_State CT_Host \"State\"\n"
          "%d ET_Msg CT_Host \"Message sent\"\n%d LT_Msg CT_Farm CT_Host CT_Host \"Message\"\n",
          DEF_CTYPE, DEF_CTYPE, DEF_STYPE, DEF_ETYPE, DEF_LTYPE);
  static const char *scol[LB_HOST_NSTATES] = {"0.200 0.650 0.250", "0.850 0.850 0.850", "1.000 0.600 0.000"};
  for (int s = 0; s < LB_HOST_NSTATES; s++)
    fprintf(f, "%d S_%s ST_State \"%s\" \"%s\"\n", DEF_VALUE, lb_host_state_name((lb_host_state)s),
            lb_host_state_name((lb_host_state)s), scol[s]);
  for (int y = 0; y < LB_TRACE_NTYPES; y++) {
    fprintf(f, "%d L_%s LT_Msg \"%s\" \"%s\"\n", DEF_VALUE, lb_trace_type_name(y), lb_trace_type_name(y), colour(y));
    fprintf(f, "%d E_%s ET_Msg \"%s\" \"%s\"\n", DEF_VALUE, lb_trace_type_name(y), lb_trace_type_name(y), colour(y));
  }
  pbuf p = {0};
  put(&p, t0, 0, CREATE, "farm CT_Farm 0 \"farm\"");
  for (long h = 0; h < H; h++) {
    put(&p, t0, 1, CREATE, "h%ld CT_Host farm \"host %ld\"", h, h);
    put(&p, last[h] >= 0 ? last[h] : t0, 6, DESTROY, "CT_Host h%ld", h);
  }
  put(&p, t1, 7, DESTROY, "CT_Farm farm");
  for (size_t k = 0; k < t->nst; k++) {
    const lb_trace_row *s = &t->st[k];
    put(&p, tr_ns(s->t), 2, SET_STATE, "ST_State h%ld S_%s", s->host, lb_host_state_name((lb_host_state)s->type));
  }
  for (size_t k = 0; k < t->nm; k++) {
    const tr_msg *m = &t->m[k];
    const lb_trace_row *r = &m->s->r;
    const char *y = lb_trace_type_name(r->type);
    if (m->how == ARR_OFFSET || r->dst < 0) {
      put(&p, tr_ns(r->t), 3, NEW_EVENT, "ET_Msg h%ld E_%s", r->src, y);
      continue;
    }
    put(&p, tr_ns(r->t), 4, START_LINK, "LT_Msg farm L_%s h%ld m%zu", y, r->src, k + 1);
    put(&p, tr_ns(m->arr), 5, END_LINK, "LT_Msg farm L_%s h%ld m%zu", y, r->dst, k + 1);
  }
  qsort(p.v, p.n, sizeof *p.v, pev_cmp);
  for (size_t k = 0; k < p.n; k++) {
    fprintf(f, "%s\n", p.v[k].text);
    free(p.v[k].text);
  }
  free(p.v);
  free(last);
}
