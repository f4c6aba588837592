/* master_out.c: see master_out.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <errno.h>
#include "master_out.h"
#include "farm_count.h"
#include "farm_throttle.h"
#include "lb_errno.h"
#include "lb_optimum.h"
#include "cli.h"
#include "cli_csv.h"

/* The share of a core a host received while it ran its quanta: CPU
 * seconds over wall seconds; the nominal speed where it ran nothing. */
static double received(const master_opts *o, const master_host *h, int i)
{
  return h->got && h->rep.busy > 0 && h->rep.cpu > 0 ? h->rep.cpu / h->rep.busy : o->speed[i];
}

typedef struct sums {
  double makespan, ideal, ideal_recv;
  long long msgs[FARM_NTAGS], lb[LB_MSG_NTYPES], c[FARM_NCOUNTERS];
} sums;

static void add_up(const master_opts *o, const master_host *hs, const master_tally *t, sums *s)
{
  memset(s, 0, sizeof *s);
  double nominal = 0, recv = 0;
  for (int i = 0; i < o->hosts; i++) {
    nominal += o->speed[i];
    recv += received(o, &hs[i], i);
    for (int k = 0; k < FARM_NCOUNTERS; k++) s->c[k] += hs[i].rep.c[k];
    for (int k = 0; k < LB_MSG_NTYPES; k++) s->lb[k] += hs[i].rep.lbsent[k];
  }
  for (int k = 0; k < FARM_NTAGS; k++) s->msgs[k] = farm_msg_sent(FARM_TAG_MIN + k) + s->c[FARM_C_SENT0 + k];
  s->c[FARM_C_DROPPED] += (long long)t->dropped + farm_msg_dropped();
  s->makespan = t->tend > t->tstart ? t->tend - t->tstart : 0;
  s->ideal = t->work / nominal;
  s->ideal_recv = t->work / recv;
}

FILE *master_out_people(const master_opts *o) { return o->csv ? stderr : stdout; }

/* How the hosts' speeds were emulated (the per-host column says it host
 * by host): "cgroup-v1 (6 hosts)", or each way with its count. */
static void print_throttle(FILE *to, const master_opts *o, const master_host *hs)
{
  int n[FARM_THROTTLE_NMODES] = {0}, k = 0;
  for (int i = 0; i < o->hosts; i++)
    if (hs[i].got && hs[i].rep.throttle < FARM_THROTTLE_NMODES) n[hs[i].rep.throttle]++;
  fprintf(to, "host speeds emulated by");
  for (int m = 0; m < FARM_THROTTLE_NMODES; m++)
    if (n[m])
      fprintf(to, "%s %s (%d host%s)", k++ ? "," : "", farm_throttle_name((farm_throttle_mode)m), n[m],
              n[m] == 1 ? "" : "s");
  fprintf(to, "%s\n", k ? "" : " - (no host reported)");
}

void master_out_print(const master_opts *o, const master_host *hs, const master_tally *t)
{
  sums s;
  add_up(o, hs, t, &s);
  FILE *to = master_out_people(o);
  /* s/unit = span/units: wall time per unit of work while the host was
   * working; share: CPU over wall time in its quanta; msg_s: wall time
   * with messages; idle_s: waiting with nothing to run. */
  fprintf(to, "%-5s %-9s %6s %6s %-9s %5s %5s %9s %9s %9s %8s %9s %6s %6s %7s %8s %8s\n", "host", "tid", "speed",
          "share", "throttle", "init", "done", "units", "busy_s", "span_s", "cpu_s", "s/unit", "moved", "start",
          "dropped", "msg_s", "idle_s");
  for (int i = 0; i < o->hosts; i++) {
    const master_host *h = &hs[i];
    const int64_t *c = h->rep.c;
    fprintf(to, "%-5d t%-8x %6.3f %6.3f %-9s %5d %5lld %9lld %9.4f %9.4f %8.4f %9.3e %6lld %6lld %7lld %8.4f %8.4f\n",
            i, h->tid, o->speed[i], received(o, h, i),
            h->excluded ? "EXCL"
            : h->fenced ? "FENCED"
            : h->down   ? "DOWN"
            : h->got    ? farm_throttle_name((farm_throttle_mode)h->rep.throttle)
                        : "-",
            h->initial, (long long)c[FARM_C_FINISHED], (long long)c[FARM_C_UNITS], h->rep.busy, h->rep.span, h->rep.cpu,
            c[FARM_C_UNITS] ? h->rep.span / (double)c[FARM_C_UNITS] : 0.0, (long long)c[FARM_C_MIGRATED],
            (long long)c[FARM_C_MOVED_STARTED], (long long)c[FARM_C_DROPPED], h->rep.msg, h->rep.idle);
  }
  print_throttle(to, o, hs);
  if (t->bad) {
    fprintf(to, "%lu result(s) failed verification and ran again elsewhere", t->bad);
    const char *sep = "; excluded for it: host";
    for (int i = 0; i < o->hosts; i++)
      if (hs[i].excluded) {
        fprintf(to, "%s %d", sep, i);
        sep = ",";
      }
    fprintf(to, "\n");
  }
  if (t->hosts_down)
    fprintf(to,
            "%lu host(s) failed (%lu of them fenced when their lease ran out): %lu process(es) ran again, %lu "
            "second result(s) dropped, %lu late message(s) from hosts already out dropped\n",
            t->hosts_down, t->fenced, t->reruns, t->duplicates, t->late);
  if (t->journalled)
    fprintf(to, "%lu of %lu results came from the journal, verified again; %lu computed in this run\n", t->journalled,
            o->w.nproc, t->accepted - t->journalled);
  char opt[64] = "not computed";
  if (t->hops_optimal >= 0) snprintf(opt, sizeof opt, "%ld", t->hops_optimal);
  fprintf(to,
          "%s %s size %lu, %lu processes on %d hosts, results %s: makespan %.4f s, ideal %.4f s "
          "(%.4f s at the CPU share received), %lld migrations (%lld mid-run), %lld process-hops "
          "(fewest that balance the start: %s), %lu/%lu results verified: %s\n",
          lb_policy_name(o->policy), app_kind_name(o->w.kind), o->w.size, o->w.nproc, o->hosts,
          lb_results_name(o->par.results), s.makespan, s.ideal, s.ideal_recv, s.c[FARM_C_MIGRATED],
          s.c[FARM_C_MOVED_STARTED], s.c[FARM_C_HOPS], opt, t->accepted, o->w.nproc, t->verified ? "yes" : "NO");
}

static void csv_header(FILE *f) { cli_csv_header(f); }

/* The header as one string, for comparing with a file's first line. */
static char *header_string(void)
{
  char *buf = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&buf, &len);
  if (!m) return NULL;
  csv_header(m);
  if (fclose(m)) {
    free(buf);
    return NULL;
  }
  return buf;
}

/* 0 if `path` is absent, empty or has our header; else -1 with a message. */
static int same_header(const char *path, const char *header)
{
  FILE *old = fopen(path, "r");
  if (!old) return 0;
  size_t n = strlen(header) + 2;
  char *line = calloc(1, n);
  int differs = !line || (fgets(line, (int)n, old) && strcmp(line, header));
  fclose(old);
  free(line);
  if (differs)
    fprintf(stderr, "%s: %s has other columns (an earlier version wrote it); name a new file\n", cli_prog(), path);
  return differs ? -1 : 0;
}

int master_out_check(const master_opts *o)
{
  if (!o->out) return 0;
  char *h = header_string();
  int rc = h ? same_header(o->out, h) : -1;
  free(h);
  return rc;
}

/* The run's row of the one CSV schema (cli_csv.h). */
static int csv_row(FILE *f, const master_opts *o, const sums *s, const master_tally *t)
{
  cli_csv_row *w = cli_csv_row_new(o->driver ? o->driver : cli_prog());
  cli_csv_set(w, "policy", "%s", lb_policy_name(o->policy));
  cli_csv_set(w, "topology", "%s", o->topo_spec);
  cli_csv_ulong(w, "nodes", (unsigned long)o->hosts);
  cli_csv_ulong(w, "procs", o->w.nproc);
  cli_csv_list(w, "speeds", o->speed, (size_t)o->hosts);
  cli_csv_list(w, "capacities", o->capacity, (size_t)o->hosts);
  cli_csv_set(w, "workload", "%s", app_kind_name(o->w.kind));
  cli_csv_ulong(w, "size", o->w.size);
  cli_csv_set(w, "init", "%s", o->init_name);
  cli_csv_real(w, "quantum_s", o->quantum_s);
  cli_csv_set(w, "throttle", "%s", farm_throttle_name((farm_throttle_mode)o->throttle));
  cli_csv_params(w, &o->par);
  /* Every host's C is in capacities; the parameter only when it set them. */
  if (!o->capacity_given) cli_csv_clear(w, "capacity");
  cli_csv_real(w, "makespan_s", s->makespan);
  cli_csv_real(w, "ideal_s", s->ideal);
  cli_csv_real(w, "ratio", s->ideal > 0 ? s->makespan / s->ideal : 0.0);
  cli_csv_real(w, "ideal_received_s", s->ideal_recv);
  cli_csv_real(w, "ratio_received", s->ideal_recv > 0 ? s->makespan / s->ideal_recv : 0.0);
  long long msgs = 0;
  for (int k = 0; k < LB_MSG_NTYPES; k++) {
    char col[32];
    snprintf(col, sizeof col, "lb_%s", lb_msg_type_name((lb_msg_type)k));
    cli_csv_set(w, col, "%lld", s->lb[k]);
    msgs += s->lb[k];
  }
  cli_csv_set(w, "messages", "%lld", msgs);
  for (int k = 0; k < FARM_NTAGS; k++) {
    char col[32];
    snprintf(col, sizeof col, "msgs_%s", farm_tag_name(FARM_TAG_MIN + k));
    cli_csv_set(w, col, "%lld", s->msgs[k]);
  }
  cli_csv_set(w, "migrated", "%lld", s->c[FARM_C_MIGRATED]);
  cli_csv_set(w, "migrated_started", "%lld", s->c[FARM_C_MOVED_STARTED]);
  cli_csv_set(w, "ctx_bytes", "%lld", s->c[FARM_C_CTX_BYTES]);
  cli_csv_set(w, "hops", "%lld", s->c[FARM_C_HOPS]);
  if (t->hops_optimal >= 0) {
    cli_csv_set(w, "hops_optimal", "%ld", t->hops_optimal);
    cli_csv_real(w, "hops_ratio", lb_optimum_ratio((unsigned long)s->c[FARM_C_HOPS], (unsigned long)t->hops_optimal));
  }
  cli_csv_set(w, "invocations", "%lld", s->c[FARM_C_INVOCATIONS]);
  cli_csv_set(w, "episodes", "%lld", s->c[FARM_C_EPISODES]);
  /* RMTLB's heavy episodes: placed by k floods (7: or more), or dissolved */
  for (int k = 1; k <= 7; k++) {
    char col[16];
    snprintf(col, sizeof col, "placed%d", k);
    cli_csv_set(w, col, "%lld", s->c[FARM_C_PLACED1 + k - 1]);
  }
  cli_csv_set(w, "dissolved", "%lld", s->c[FARM_C_DISSOLVED]);
  cli_csv_ulong(w, "crashed", t->hosts_down);
  cli_csv_ulong(w, "fenced", t->fenced);
  cli_csv_ulong(w, "fenced_dropped", t->late);
  cli_csv_ulong(w, "journalled", t->journalled);
  cli_csv_ulong(w, "reruns", t->reruns);
  cli_csv_ulong(w, "duplicates", t->duplicates);
  cli_csv_set(w, "dropped", "%lld", s->c[FARM_C_DROPPED]);
  cli_csv_set(w, "verified", "%s", t->verified ? "yes" : "no");
  int rc = cli_csv_write(f, w);
  cli_csv_row_free(w);
  return rc;
}

/* Write a new version of `path` under a temporary name (the old
 * contents first when appending), renamed into place by cli_out_close:
 * a run that fails never leaves a truncated or half-written file. */
static FILE *begin_file(const char *opt, const char *path, int append, int *had_data)
{
  FILE *f = cli_out_try(opt, path);
  *had_data = 0;
  if (!f) return NULL;
  FILE *old = append ? fopen(path, "r") : NULL;
  if (old) {
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, old)) > 0)
      if (fwrite(buf, 1, n, f) == n) *had_data = 1;
    fclose(old);
  }
  return f;
}

int master_out_csv(const master_opts *o, const master_host *hs, const master_tally *t)
{
  sums s;
  add_up(o, hs, t, &s);
  if (!o->out) {
    csv_header(stdout);
    /* Checked here, not only at exit: a row that cannot be written is a failed run. */
    if (csv_row(stdout, o, &s, t) || fflush(stdout) || ferror(stdout)) {
      fprintf(stderr, "%s: writing the CSV row to standard output failed: %s\n", cli_prog(), strerror(errno));
      return -1;
    }
    return 0;
  }
  /* Rows go only under the same header, never mixed with other columns. */
  if (master_out_check(o)) return -1;
  int had;
  FILE *f = begin_file("--out", o->out, 1, &had);
  if (!f) return -1;
  if (!had) csv_header(f);
  if (csv_row(f, o, &s, t)) {
    cli_out_abort(f);
    fprintf(stderr, "%s: cannot make the CSV row for %s\n", cli_prog(), o->out);
    return -1;
  }
  return cli_out_close(f);
}

int master_out_hosts_csv(const master_opts *o, const master_host *hs)
{
  if (!o->hosts_csv) return 0;
  int had;
  FILE *f = begin_file("--hosts-csv", o->hosts_csv, 0, &had);
  if (!f) return -1;
  fprintf(f, "host,tid,speed,share,throttle,init,done,units,busy_s,span_s,cpu_s,moved,moved_started,ctx_bytes,"
             "homed,delivered,relayed,dropped,msg_s,idle_s,reported,down,fenced\n");
  for (int i = 0; i < o->hosts; i++) {
    const master_host *h = &hs[i];
    const int64_t *c = h->rep.c;
    fprintf(
        f,
        "%d,%d,%.17g,%.17g,%s,%d,%lld,%lld,%.17g,%.17g,%.17g,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%.17g,%.17g,%s,%s,%s\n",
        i, h->tid, o->speed[i], received(o, h, i),
        h->got ? farm_throttle_name((farm_throttle_mode)h->rep.throttle) : "-", h->initial,
        (long long)c[FARM_C_FINISHED], (long long)c[FARM_C_UNITS], h->rep.busy, h->rep.span, h->rep.cpu,
        (long long)c[FARM_C_MIGRATED], (long long)c[FARM_C_MOVED_STARTED], (long long)c[FARM_C_CTX_BYTES],
        (long long)c[FARM_C_HOMED], (long long)c[FARM_C_DELIVERED], (long long)c[FARM_C_RELAYED],
        (long long)c[FARM_C_DROPPED], h->rep.msg, h->rep.idle, h->got ? "yes" : "no", h->down ? "yes" : "no",
        h->fenced ? "yes" : "no");
  }
  return cli_out_close(f);
}
