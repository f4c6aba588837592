/* farm_run.c: set up the workers, hand out the processes, collect and
 * verify the results, gather the counters, write the CSV row. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <math.h>
#include <time.h>
#include <pvm3.h>
#include "farm_run.h"
#include "farm_payload.h"
#include "farm_msg.h"
#include "farm_wire.h"
#include "app_verify.h"
#include "farm_throttle.h"
#include "lb_topo.h"
#include "lb_proc.h"
#include "lb_rng.h"
#include "lb_share.h"
#include "lb_errno.h"
#include "cli.h"

static double wall(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int farm_spawn_workers(const farm_vm *vm, int run, int n, int *tids)
{
  char path[PATH_MAX], runarg[16];
  if (farm_worker_path(path, sizeof path)) return -1;
  snprintf(runarg, sizeof runarg, "%d", run);
  char *wargv[] = { runarg, NULL };
  int nhost, narch;
  struct pvmhostinfo *hi;
  if (pvm_config(&nhost, &narch, &hi) < 0) nhost = 0;
  for (int i = 0; i < n; i++) {
    int one = vm->nhosts >= n && nhost >= n;
    int got = pvm_spawn(path, wargv, one ? PvmTaskHost : PvmTaskDefault,
                        one ? hi[i].hi_name : NULL, 1, &tids[i]);
    if (got != 1) {
      fprintf(stderr, "%s: cannot spawn worker %d from %s (PVM error %d)\n", cli_prog(),
              i, path, tids[i]);
      return -1;
    }
  }
  pvm_notify(PvmTaskExit, FARM_EXITED, n, tids);
  return 0;
}

/* Which host each process starts on. */
static void distribute(const farm_opts *o, int *where)
{
  unsigned long np = o->w.nproc;
  int h = o->hosts;
  if (o->init == FARM_INIT_ONE) {
    for (unsigned long i = 0; i < np; i++) where[i] = 0;
  } else if (o->init == FARM_INIT_EVEN) {
    for (unsigned long i = 0; i < np; i++) where[i] = (int)(i % (unsigned long)h);
  } else if (o->init == FARM_INIT_SKEWED || o->init == FARM_INIT_SHARE) {
    /* Contiguous blocks: skewed, host k gets a share proportional to
     * 2^-k (half on host 0, a quarter on host 1, ...); share, the shares
     * of OPT_LOAD_SHARE (seed 004) with every host available from the
     * start, i.e. in proportion to speed. */
    double *share = malloc((size_t)h * sizeof *share);
    unsigned long *count = malloc((size_t)h * sizeof *count);
    if (!share || !count) cli_die(CLI_EXIT_FAIL, "out of memory");
    if (o->init == FARM_INIT_SKEWED) {
      for (int k = 0; k < h; k++) share[k] = 1.0 / (double)(1ul << (k < 60 ? k : 60));
    } else {
      lb_share_window always = { 0, INFINITY };
      lb_share_proc *p = malloc((size_t)h * sizeof *p);
      double tstar;
      if (!p) cli_die(CLI_EXIT_FAIL, "out of memory");
      for (int k = 0; k < h; k++) p[k] = (lb_share_proc){ o->speed[k], 1, &always };
      if (lb_share_opt((size_t)h, p, 0, (double)np, &tstar, share, NULL))
        cli_die(CLI_EXIT_FAIL, "OPT_LOAD_SHARE: %s", lb_errmsg());
      free(p);
    }
    if (lb_share_apportion((size_t)h, share, np, count)) cli_die(CLI_EXIT_FAIL, "%s", lb_errmsg());
    unsigned long i = 0;
    for (int k = 0; k < h; k++)
      for (unsigned long e = i + count[k]; i < e; i++) where[i] = k;
    free(share);
    free(count);
  } else {
    lb_rng *r;
    if (lb_rng_alloc(o->seed, &r)) cli_die(CLI_EXIT_FAIL, "%s", lb_errmsg());
    for (unsigned long i = 0; i < np; i++) where[i] = (int)lb_rng_below(r, (unsigned long)h);
    lb_rng_free(r);
  }
}

static void send_setup(const farm_opts *o, int run, const lb_topo *topo, int me, const int *tids, double t0)
{
  int nn = (int)lb_topo_degree(topo, (size_t)me);
  int hdr[7] = { me, o->hosts, o->policy, (int)o->w.kind, o->throttle, o->trace != NULL, nn };
  long long l[3] = { (long long)o->w.size, (long long)o->w.nproc, (long long)o->w.seed };
  double d[6] = { o->speed[me], o->capacity[me], o->quantum_s, t0, o->hop_time, o->period };
  int ne = (int)topo->m;
  int *nbr = malloc((size_t)(nn + 1) * sizeof *nbr);
  for (int k = 0; k < nn; k++) nbr[k] = (int)lb_topo_neighbours(topo, (size_t)me)[k];
  farm_msg_begin(run, FARM_SETUP_ITEMS(o->hosts, nn, ne));
  farm_msg_pk_int(hdr, 7);
  farm_msg_pk_i64(l, 3);
  farm_msg_pk_double(d, 6);
  farm_msg_pk_int(tids, o->hosts);
  farm_msg_pk_int(nbr, nn);
  farm_msg_pk_int(&ne, 1);
  for (int k = 0; k < ne; k++) {
    int e[2] = { (int)topo->edge[k][0], (int)topo->edge[k][1] };
    farm_msg_pk_int(e, 2);
  }
  farm_msg_send(tids[me], FARM_SETUP);
  free(nbr);
}

/* One TASKS message per host with every process that starts there. */
static int send_tasks(const farm_opts *o, int run, const int *where, const int *tids, int host)
{
  int count = 0;
  long items = 2;
  app_task **ts = calloc(o->w.nproc, sizeof *ts);
  if (!ts) return -1;
  for (unsigned long i = 0; i < o->w.nproc; i++)
    if (where[i] == host) {
      if (app_task_alloc(&o->w, i, &ts[count])) { free(ts); return -1; }
      items += 1 + farm_msg_words((long)app_task_blob_size(ts[count]));
      count++;
    }
  int head[2] = { -1, count };
  farm_msg_begin(run, (int)items);
  farm_msg_pk_int(head, 2);
  for (int k = 0; k < count; k++) {
    size_t n = app_task_blob_size(ts[k]);
    unsigned char *b = malloc(n);
    if (!b || app_task_save(ts[k], b, n)) cli_die(CLI_EXIT_FAIL, "cannot encode a process");
    int len = (int)n;
    farm_msg_pk_int(&len, 1);
    farm_msg_pk_bytes(b, len);
    free(b);
    app_task_free(ts[k]);
  }
  free(ts);
  return farm_msg_send(tids[host], FARM_TASKS) < 0 ? -1 : count;
}

typedef struct host_rep {
  int got, throttle, initial;
  long long c[FARM_NCOUNTERS];
  long long lb[FARM_NLBTYPES];
  double busy, cpu, span, msg, idle;
} host_rep;

static int host_index(const int *tids, int n, int tid)
{
  for (int i = 0; i < n; i++)
    if (tids[i] == tid) return i;
  return -1;
}

static int read_report(host_rep *h, const farm_in *in, FILE *trace, int host)
{
  int head[3];
  double d[5];
  if (farm_msg_upk_int(head, 3) || head[2] < 0 || in->items != FARM_REPORT_ITEMS(head[2]) ||
      farm_msg_upk_i64(h->c, FARM_NCOUNTERS) || farm_msg_upk_i64(h->lb, FARM_NLBTYPES) ||
      farm_msg_upk_double(d, 5))
    return -1;
  h->throttle = head[1];
  h->busy = d[0];
  h->cpu = d[1];
  h->span = d[2];
  h->msg = d[3];
  h->idle = d[4];
  for (int i = 0; i < head[2]; i++) {
    double t;
    int v[3];
    if (farm_msg_upk_double(&t, 1) || farm_msg_upk_int(v, 3)) return -1;
    if (trace)
      fprintf(trace, "%.6f,%d,%d,%s,%d\n", t, host, v[0], farm_tag_name(v[1]) ? farm_tag_name(v[1]) : "?", v[2]);
  }
  h->got = 1;
  return 0;
}

static void write_csv(const farm_opts *o, FILE *f, int header, double makespan, double ideal,
                      const long long *msgs, const long long *lbm, long long migr, long long hops, long long inv,
                      long long dropped, int verified)
{
  if (header) {
    fprintf(f, "policy,workload,size,procs,hosts,topology,init,seed,makespan_s,ideal_makespan_s,ratio");
    for (int t = 0; t < FARM_NTAGS; t++) fprintf(f, ",msgs_%s", farm_tag_name(FARM_TAG_MIN + t));
    for (int t = 0; t < FARM_NLBTYPES; t++) fprintf(f, ",lb_%s", lb_msg_type_name((lb_msg_type)t));
    fprintf(f, ",migrations,process_hops,policy_invocations,dropped,verified\n");
  }
  fprintf(f, "%s,%s,%lu,%lu,%d,%s,%s,%lu,%.6f,%.6f,%.4f", o->policy_name, app_kind_name(o->w.kind),
          o->w.size, o->w.nproc, o->hosts, o->topo_spec, o->init_name, o->seed, makespan, ideal,
          ideal > 0 ? makespan / ideal : 0.0);
  for (int t = 0; t < FARM_NTAGS; t++) fprintf(f, ",%lld", msgs[t]);
  for (int t = 0; t < FARM_NLBTYPES; t++) fprintf(f, ",%lld", lbm[t]);
  fprintf(f, ",%lld,%lld,%lld,%lld,%s\n", migr, hops, inv, dropped, verified ? "yes" : "no");
}

int farm_run(const farm_vm *vm, int run, const farm_opts *o)
{
  const lb_topo *topo = o->topo;
  FILE *trace = o->trace_file;
  app_verifier *ver;
  if (app_verify_alloc(&o->w, &ver)) {
    fprintf(stderr, "%s: %s\n", cli_prog(), lb_errmsg());
    return 1;
  }
  int n = o->hosts;
  int *tids = calloc((size_t)n, sizeof *tids), *where = calloc(o->w.nproc, sizeof *where);
  host_rep *rep = calloc((size_t)n, sizeof *rep);
  if (!tids || !where || !rep) cli_die(CLI_EXIT_FAIL, "out of memory");
  farm_msg_on_send(NULL, NULL);
  int ok = farm_spawn_workers(vm, run, n, tids) == 0;
  double t0 = wall(), tstart = 0, tend = 0, ideal_work = 0;
  int bad_results = 0;
  if (ok) {
    pvm_setopt(PvmRoute, PvmRouteDirect);
    for (int i = 0; i < n; i++) send_setup(o, run, topo, i, tids, t0);
    if (o->junk)
      for (int i = 0; i < n; i++) { farm_msg_send_junk(tids[i], 0); farm_msg_send_junk(tids[i], 1); }
    distribute(o, where);
    tstart = wall();
    for (int i = 0; i < n && ok; i++) ok = (rep[i].initial = send_tasks(o, run, where, tids, i)) >= 0;
  }
  int ordered = o->order <= 0;
  unsigned long results = 0;
  while (ok && results < o->w.nproc) {
    /* After the first result: the busiest host is then in the middle
     * of its next process, which the order moves half done. */
    if (!ordered && results > 0 && wall() - tstart >= o->order_delay) {
      /* Test path: the busiest host moves `order` processes to each of
       * its neighbours, through the same LMM packing a policy uses. */
      int src = 0;
      for (int i = 1; i < n; i++) if (rep[i].initial > rep[src].initial) src = i;
      for (size_t k = 0; k < lb_topo_degree(topo, (size_t)src); k++) {
        int o2[2] = { (int)lb_topo_neighbours(topo, (size_t)src)[k], o->order };
        farm_msg_begin(run, 2);
        farm_msg_pk_int(o2, 2);
        farm_msg_send(tids[src], FARM_ORDER);
      }
      ordered = 1;
    }
    farm_in in;
    int r = farm_msg_recv(run, -1, -1, ordered ? o->timeout : 0.02, &in);
    if (r == 0 && !ordered) continue;
    if (r <= 0) {
      fprintf(stderr, "%s: no result for %g s; %lu of %lu processes are missing\n", cli_prog(), o->timeout,
              o->w.nproc - results, o->w.nproc);
      ok = 0;
      break;
    }
    if (in.tag == FARM_EXITED) {
      int dead = -1;
      pvm_upkint(&dead, 1, 1);
      int i = host_index(tids, n, dead);
      fprintf(stderr, "%s: worker %d (t%x) exited before the end\n", cli_prog(), i, dead);
      ok = 0;
      break;
    }
    int origin, exec, len, h = host_index(tids, n, in.src);
    uint64_t pid;
    if (in.tag != FARM_RESULT || h < 0 || farm_payload_head(&in, &origin, &exec, &pid, &len) || origin != h) {
      fprintf(stderr, "%s: unexpected or malformed %s from t%x dropped\n", cli_prog(),
              farm_tag_name(in.tag) ? farm_tag_name(in.tag) : "message", in.src);
      continue;
    }
    unsigned char *blob = malloc((size_t)len);
    app_result res;
    int bad = !blob || farm_msg_upk_bytes(blob, len) || app_result_decode(blob, (size_t)len, &res);
    if (!bad && res.id != pid) {
      app_result_clear(&res);
      bad = lb_error(LB_EFORMAT, "the payload of process %llu holds process %llu", (unsigned long long)pid,
                     (unsigned long long)res.id);
    }
    if (bad) {
      fprintf(stderr, "%s: undecodable result from host %d: %s\n", cli_prog(), h, lb_errmsg());
      bad_results++;
      results++;
      free(blob);
      continue;
    }
    if (app_verify_result(ver, &res)) {
      fprintf(stderr, "%s: result from host %d (ran on %d) is WRONG: %s\n", cli_prog(), h, exec, lb_errmsg());
      bad_results++;
    } else {
      ideal_work += res.cost;
    }
    results++;
    tend = wall();
    app_result_clear(&res);
    free(blob);
  }
  /* Reports: every worker sends one after STOP, then exits. */
  for (int i = 0; i < n; i++)
    if (tids[i] > 0) { farm_msg_begin(run, 0); farm_msg_send(tids[i], ok ? FARM_STOP : FARM_QUIT); }
  for (int got = 0; ok && got < n;) {
    farm_in in;
    int r = farm_msg_recv(run, -1, -1, o->timeout, &in);
    if (r <= 0) { fprintf(stderr, "%s: %d worker report(s) missing\n", cli_prog(), n - got); ok = 0; break; }
    if (in.tag == FARM_EXITED) continue;
    int h = host_index(tids, n, in.src);
    if (in.tag != FARM_REPORT || h < 0 || rep[h].got || read_report(&rep[h], &in, trace, h)) {
      fprintf(stderr, "%s: unexpected %s from t%x dropped\n", cli_prog(),
              farm_tag_name(in.tag) ? farm_tag_name(in.tag) : "message", in.src);
      continue;
    }
    got++;
  }
  if (!ok)
    for (int i = 0; i < n; i++) if (tids[i] > 0) pvm_kill(tids[i]);
  int verified = ok && !bad_results && app_verify_accepted(ver) == o->w.nproc;
  double speeds = 0;
  for (int i = 0; i < n; i++) speeds += o->speed[i];
  double makespan = tend - tstart, ideal = ideal_work / speeds;
  long long msgs[FARM_NTAGS], lbm[FARM_NLBTYPES] = { 0 }, migr = 0, hops = 0, inv = 0, dropped = 0;
  for (int t = 0; t < FARM_NTAGS; t++) msgs[t] = farm_msg_sent(FARM_TAG_MIN + t);
  /* s/unit = span/units: wall time per unit of work while the host was
   * working, throttling included wherever it struck.  msg_s: wall time
   * receiving, handling and sending messages; idle_s: waiting with
   * nothing to run. */
  printf("%-5s %-9s %6s %-6s %5s %5s %9s %9s %9s %8s %9s %6s %7s %8s %8s\n", "host", "tid", "speed", "thrott",
         "init", "done", "units", "busy_s", "span_s", "cpu_s", "s/unit", "moved", "dropped", "msg_s", "idle_s");
  for (int i = 0; i < n; i++) {
    host_rep *h = &rep[i];
    for (int t = 0; t < FARM_NTAGS; t++) msgs[t] += h->c[FARM_C_SENT0 + t];
    for (int t = 0; t < FARM_NLBTYPES; t++) lbm[t] += h->lb[t];
    migr += h->c[FARM_C_MIGRATED];
    hops += h->c[FARM_C_HOPS];
    inv += h->c[FARM_C_INVOCATIONS];
    dropped += h->c[FARM_C_DROPPED];
    printf("%-5d t%-8x %6.3f %-6s %5d %5lld %9lld %9.4f %9.4f %8.4f %9.3e %6lld %7lld %8.4f %8.4f\n", i, tids[i], o->speed[i],
           h->got ? farm_throttle_name((farm_throttle_mode)h->throttle) : "-", h->initial,
           h->c[FARM_C_FINISHED], h->c[FARM_C_UNITS], h->busy, h->span, h->cpu,
           h->c[FARM_C_UNITS] ? h->span / (double)h->c[FARM_C_UNITS] : 0.0, h->c[FARM_C_MIGRATED],
           h->c[FARM_C_DROPPED], h->msg, h->idle);
  }
  long long started = 0;
  for (int i = 0; i < n; i++) started += rep[i].c[FARM_C_MOVED_STARTED];
  printf("%s %s size %lu, %lu processes on %d hosts: makespan %.4f s, ideal %.4f s, "
         "%lld migrations (%lld mid-run), %lu/%lu results verified: %s\n",
         o->policy_name, app_kind_name(o->w.kind), o->w.size, o->w.nproc, n, makespan, ideal, migr,
         started, app_verify_accepted(ver), o->w.nproc, verified ? "yes" : "NO");
  FILE *f = stdout;
  int header = 1;
  if (o->out) {
    FILE *probe = fopen(o->out, "r");
    if (probe) { header = fgetc(probe) == EOF; fclose(probe); }
    if (!(f = fopen(o->out, "a"))) { fprintf(stderr, "%s: cannot write %s\n", cli_prog(), o->out); f = stdout; }
  }
  write_csv(o, f, header, makespan, ideal, msgs, lbm, migr, hops, inv, dropped, verified);
  if (f != stdout) fclose(f);
  if (trace) fclose(trace);
  app_verify_free(ver);
  free(tids);
  free(where);
  free(rep);
  return verified ? 0 : 1;
}
