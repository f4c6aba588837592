/* lbtrace_out.c: lbtrace's summary, check and CSV outputs (lbtrace.h). */
#include <string.h>
#include "lbtrace.h"
#include "cli.h"

void tr_info(const tr_trace *t, FILE *f)
{
  const tr_opts *o = t->o;
  long long cnt[LB_TRACE_NTYPES] = {0}, migr = 0, hops = 0, deliv = 0;
  for (size_t k = 0; k < t->nm; k++) {
    const lb_trace_row *r = &t->m[k].s->r;
    cnt[r->type]++;
    if (!strcmp(tr_kind(r), "migration")) {
      migr++;
      hops += r->procs;
    }
    if (r->type == LB_TRACE_DELIVER) deliv++;
  }
  char types[512] = "";
  for (int y = 0; y < LB_TRACE_NTYPES; y++)
    if (cnt[y])
      snprintf(types + strlen(types), sizeof types - strlen(types), "%s%s", *types ? " " : "", lb_trace_type_name(y));
  double first = t->nm ? t->m[0].s->r.t : 0, last = t->nm ? t->m[t->nm - 1].s->r.t : 0;
  const tr_checks *c = &t->ck;
  if (o->csv) {
    fprintf(f, "rows,messages,hosts,sink,first,last,arrival,offset,migrations,process_hops,deliveries,types,"
               "version,received,unmatched_recv,before_send,state_hosts,gaps,overlaps,busy_s,idle_s,balancing_s,"
               "arr_recv,arr_exact,arr_offset");
    for (int y = 0; y < LB_TRACE_NTYPES; y++) fprintf(f, ",n_%s", lb_trace_type_name(y));
    fprintf(f,
            "\n%zu,%zu,%ld,%d,%.17g,%.17g,%s,%.17g,%lld,%lld,%lld,%s,%d,%zu,%zu,%zu,%zu,%zu,%zu,%.17g,%.17g,%.17g,"
            "%zu,%zu,%zu",
            t->n, t->nm, t->hosts, t->sink, first, last, tr_arrival_summary(t), t->offset, migr, hops, deliv, types,
            t->version, c->matched, c->unmatched_recv, c->before_send, c->state_hosts, c->gaps, c->overlaps,
            c->state_s[LB_HOST_BUSY], c->state_s[LB_HOST_IDLE], c->state_s[LB_HOST_BALANCING], t->narr[ARR_RECV],
            t->narr[ARR_EXACT], t->narr[ARR_OFFSET]);
    for (int y = 0; y < LB_TRACE_NTYPES; y++) fprintf(f, ",%lld", cnt[y]);
    fprintf(f, "\n");
    return;
  }
  fprintf(f, "trace       %s (version %d)\nrows        %zu\nmessages    %zu kept of %zu\nhosts       %ld%s\n", o->path,
          t->version, t->n, t->nm, t->nmsg, t->hosts, t->sink ? " and lbmaster" : "");
  const char *clock = tr_meta_get(t, "clock");
  if (clock) fprintf(f, "clock       %s\n", clock);
  fprintf(f, "sent        %.10g .. %.10g\n", first, last);
  fprintf(f, "arrival     %zu at their receipt, %zu computed (lbsim's delivery on %s), %zu drawn at send + %.10g\n",
          t->narr[ARR_RECV], t->narr[ARR_EXACT], o->topo ? o->topo : "no topology given", t->narr[ARR_OFFSET],
          t->offset);
  fprintf(f,
          "received    %zu receipts, %zu matched to their send, %zu unmatched, %zu before their send; "
          "%zu sends not received in the trace\n",
          c->recv, c->matched, c->unmatched_recv, c->before_send, c->unreceived);
  fprintf(f,
          "states      %zu rows on %zu hosts, %zu gaps, %zu overlaps; busy %.6g s, idle %.6g s, balancing %.6g s "
          "(all hosts)\n",
          c->state_rows, c->state_hosts, c->gaps, c->overlaps, c->state_s[LB_HOST_BUSY], c->state_s[LB_HOST_IDLE],
          c->state_s[LB_HOST_BALANCING]);
  fprintf(f, "migrations  %lld messages carried %lld process-hops\ndeliveries  %lld\ntypes      ", migr, hops, deliv);
  for (int y = 0; y < LB_TRACE_NTYPES; y++)
    if (cnt[y]) fprintf(f, " %s %lld", lb_trace_type_name(y), cnt[y]);
  fprintf(f, "\n");
}

int tr_check(const tr_trace *t, FILE *f)
{
  const tr_checks *c = &t->ck;
  int fail = 0;
  const char *p = cli_prog();
  if (c->unmatched_recv) {
    fprintf(stderr, "%s: FAIL %zu receipts match no send\n", p, c->unmatched_recv);
    fail = 1;
  }
  if (c->before_send) {
    fprintf(stderr, "%s: FAIL %zu messages received before they were sent\n", p, c->before_send);
    fail = 1;
  }
  if (c->gaps || c->overlaps) {
    fprintf(stderr, "%s: FAIL states: %zu gaps and %zu overlaps between a host's intervals\n", p, c->gaps, c->overlaps);
    fail = 1;
  }
  if (t->version == 2 && c->state_hosts != (size_t)t->hosts) {
    fprintf(stderr, "%s: FAIL states: %zu of the %ld hosts have state rows\n", p, c->state_hosts, t->hosts);
    fail = 1;
  }
  if (fail && c->first[0]) fprintf(stderr, "%s: the first: %s\n", p, c->first);
  if (!fail)
    fprintf(f, "ok: %zu receipts, each after its send; %zu hosts' states tile their spans (%zu intervals)\n",
            c->matched, c->state_hosts, c->state_rows);
  return fail;
}

void tr_segments(const tr_trace *t, FILE *f)
{
  fprintf(f, "send,arrive,src,dst,type,kind,procs,bytes,hv,lv,tag,count,arrival\n");
  for (size_t k = 0; k < t->nm; k++) {
    const tr_msg *m = &t->m[k];
    const lb_trace_row *r = &m->s->r;
    char key[3][24] = {"", "", ""};
    if (r->keys & LB_TRACE_HV) snprintf(key[0], sizeof key[0], "%llu", (unsigned long long)r->hv);
    if (r->keys & LB_TRACE_LV) snprintf(key[1], sizeof key[1], "%llu", (unsigned long long)r->lv);
    if (r->keys & LB_TRACE_TAG) snprintf(key[2], sizeof key[2], "%llu", (unsigned long long)r->tag);
    fprintf(f, "%.17g,%.17g,%ld,%ld,%s,%s,%lld,%lld,%s,%s,%s,%lld,%s\n", r->t, m->arr, r->src, tr_lane(t, r->dst),
            lb_trace_type_name(r->type), tr_kind(r), r->procs, r->bytes, key[0], key[1], key[2], r->count,
            tr_arrival_name(m->how));
  }
}

void tr_states(const tr_trace *t, FILE *f)
{
  fprintf(f, "host,state,start,end\n");
  for (size_t k = 0; k < t->nst; k++) {
    const lb_trace_row *s = &t->st[k];
    fprintf(f, "%ld,%s,%.17g,%.17g\n", s->host, lb_host_state_name((lb_host_state)s->type), s->t, s->end);
  }
}
