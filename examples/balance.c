/* balance: balance your own load vector with two of liblb's policies,
 * first-order diffusion and the transport planner of seed 003, and
 * print the moves, the loads after and the metrics of each.
 *
 * It uses only the installed library:
 *   cc balance.c $(pkg-config --cflags --libs --static lbfarm) -o balance
 *   ./balance ring:6 12,0,3,9,1,5 */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lb_errno.h>
#include <lb_topo.h>
#include <lb_paths.h>
#include <lb_diffusion.h>
#include <lb_diffuse.h>
#include <lb_transport.h>
#include <lb_hublake.h>   /* lb_transfer, lb_transfer_schedule */
#include <lb_taskgraph.h> /* lb_taskgraph_migrate, lb_taskgraph_loads */
#include <lb_metrics.h>

/* Every unit of load is followed as a task to count Q, and shortest
 * paths take P^2 memory and P^3 time: both are kept small. */
#define MAX_TASKS 10000
#define MAX_PROCS 1024

static void usage(void)
{
  printf("Usage: balance [--variant T|TB] [--csv] TOPOLOGY LOADS\n"
         "Balance integer loads, one per processor (numbered from 1), on the graph\n"
         "TOPOLOGY (ring:N, mesh:RxC, torus:RxC, hypercube:D, complete:N, star:N,\n"
         "random:N[:EXTRA[:SEED]], or a graph file) with two policies of liblb:\n\n"
         "  diffusion  first order, integer loads, Boillat's alpha 1/(max degree of\n"
         "             the link's ends + 1), so no load goes negative; steps are\n"
         "             taken while each lowers sum (load - average)^2\n"
         "  transport  seed 003's planner: an optimal sender -> receiver plan over\n"
         "             shortest paths (north-west corner start); T balances to\n"
         "             ceil(average), TB (default) then to floor(average)\n\n"
         "For each it prints the moves (tasks sent across each link, over all\n"
         "rounds), the loads after, task-hops (the sum of the moves), Q (tasks\n"
         "whose processor changed: a processor sends first tasks that started at\n"
         "the receiver, then tasks passing through, then its own), and M1 = max -\n"
         "min, M2 = sqrt(sum (load - average)^2 / (P-1)) / max, M3 = max, before\n"
         "-> after.  At most %d processors and a total load of %d.\n\n"
         "Options:\n"
         "  -v, --variant V  transport variant, T or TB (default TB)\n"
         "  -c, --csv        one CSV header, then one row per policy\n"
         "  -h, --help       show this help and exit\n\n"
         "Exit status: 0 success, 1 a failed computation, 2 bad input.\n",
         MAX_PROCS, MAX_TASKS);
}

static void die(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));
static void die(int status, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  fputs("balance: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  exit(status);
}

static void *xcalloc(size_t n, size_t size)
{
  void *p = calloc(n ? n : 1, size);
  if (!p) die(1, "out of memory");
  return p;
}

/* "12,0,3": non-negative integers; returns how many. */
static size_t parse_loads(const char *whole, long *load, size_t max)
{
  const char *s = whole;
  size_t n = 0;
  long total = 0;
  for (;;) {
    size_t len = strcspn(s, ","), digits = strspn(s, "0123456789");
    if (len == 0) die(2, "LOADS: an empty value in '%s'", whole);
    if (digits != len) die(2, "LOADS: '%.*s' is not a non-negative integer", (int)(len < 20 ? len : 20), s);
    if (n == max) die(2, "LOADS: more than %zu values", max);
    load[n] = len > 9 ? MAX_TASKS + 1 : strtol(s, NULL, 10);
    if ((total += load[n++]) > MAX_TASKS) die(2, "LOADS: the total load is more than %d", MAX_TASKS);
    if (s[len] == '\0') return n;
    s += len + 1;
  }
}

/* What one policy did: its transfers by round, the loads after, Q. */
typedef struct result {
  char name[40];
  size_t steps; /* diffusion steps or transport passes */
  lb_transfer *tr;
  size_t ntr, nrounds;
  long *after;
  size_t q;
} result;

static void add_transfers(result *r, const lb_transfer *tr, size_t n, size_t nrounds)
{
  r->tr = realloc(r->tr, (r->ntr + n + 1) * sizeof *r->tr);
  if (!r->tr) die(1, "out of memory");
  for (size_t k = 0; k < n; k++) {
    r->tr[r->ntr] = tr[k];
    r->tr[r->ntr++].round += r->nrounds;
  }
  r->nrounds += nrounds;
}

static long sum_squares(const long *w, size_t n)
{
  long s = 0;
  for (size_t i = 0; i < n; i++) s += w[i] * w[i];
  return s;
}

/* First-order integer diffusion; each step is one round of transfers.
 * The total is fixed, so a lower sum of w^2 is a lower variance; that
 * whole number falls at every step taken, so the run ends (a step that
 * moves nothing, or only swaps loads back and forth, is not taken). */
static void diffusion(const lb_topo *t, const long *load, result *r)
{
  size_t n = t->n, m = t->m;
  double *alpha = xcalloc(m, sizeof *alpha);
  long *w = xcalloc(n, sizeof *w), *next = xcalloc(n, sizeof *next), *y = xcalloc(m, sizeof *y);
  lb_transfer *tr = xcalloc(m, sizeof *tr);
  if (lb_diffusion_edge_alphas(t, LB_DIFFUSION_BOILLAT, 0.0, alpha)) die(1, "diffusion coefficients: %s", lb_errmsg());
  snprintf(r->name, sizeof r->name, "diffusion");
  memcpy(w, load, n * sizeof *w);
  for (;;) {
    memcpy(next, w, n * sizeof *w);
    memset(y, 0, m * sizeof *y);
    if (lb_diffuse_int_step(t, alpha, 1.0, next, y, NULL)) die(1, "diffusion: %s", lb_errmsg());
    if (sum_squares(next, n) >= sum_squares(w, n)) break;
    size_t nt = 0;
    for (size_t k = 0; k < m; k++) /* y[k] > 0 moves edge[k][0] -> edge[k][1] */
      if (y[k]) tr[nt++] = (lb_transfer){0, t->edge[k][y[k] < 0], t->edge[k][y[k] > 0], y[k] > 0 ? y[k] : -y[k]};
    add_transfers(r, tr, nt, 1);
    memcpy(w, next, n * sizeof *w);
    r->steps++;
  }
  free(alpha);
  free(w);
  free(next);
  free(y);
  free(tr);
}

/* Seed 003's planner, one pass per target; each pass is scheduled into
 * rounds (a processor sends only what it holds) and carried out before
 * the next is planned. */
static void transport(const lb_topo *t, const long *load, lb_transport_variant v, result *r)
{
  size_t P = t->n;
  long total = 0;
  for (size_t i = 0; i < P; i++) total += load[i];
  long lo = total / (long)P, hi = lo + (total % (long)P != 0);
  long *cur = xcalloc(P, sizeof *cur), *before = xcalloc(P, sizeof *before);
  long *delta = xcalloc(P * P, sizeof *delta), *flow = xcalloc(t->m, sizeof *flow);
  lb_paths *paths;
  if (lb_paths_alloc(P, &paths) || lb_paths_floyd(t, NULL, paths)) die(1, "shortest paths: %s", lb_errmsg());
  snprintf(r->name, sizeof r->name, "transport %s", v == LB_TRANSPORT_T ? "T" : "TB");
  memcpy(cur, load, P * sizeof *cur);
  for (int pass = 0; pass < (v == LB_TRANSPORT_TB && lo != hi ? 2 : 1); pass++) {
    memcpy(before, cur, P * sizeof *cur);
    memset(delta, 0, P * P * sizeof *delta);
    if (lb_transport_pass(paths, cur, pass ? lo : hi, LB_TP_NWC, delta)) die(1, "transport: %s", lb_errmsg());
    for (size_t k = 0; k < t->m; k++) {
      size_t a = t->edge[k][0], b = t->edge[k][1];
      flow[k] = delta[a * P + b] - delta[b * P + a];
    }
    lb_transfer *tr;
    size_t nt, nr;
    if (lb_transfer_schedule(t, before, flow, &tr, &nt, &nr)) die(1, "schedule: %s", lb_errmsg());
    add_transfers(r, tr, nt, nr);
    free(tr);
    r->steps++;
  }
  lb_paths_free(paths);
  free(cur);
  free(before);
  free(delta);
  free(flow);
}

/* Carry the transfers out on tasks (a task graph without edges: the
 * tasks are independent), then count Q and the loads after. */
static void follow_tasks(const lb_topo *t, const long *load, result *r)
{
  size_t P = t->n, ntasks = 0;
  for (size_t i = 0; i < P; i++) ntasks += (size_t)load[i];
  r->after = xcalloc(P, sizeof *r->after);
  if (ntasks == 0) return;
  size_t *origin = xcalloc(ntasks, sizeof *origin), *owner = xcalloc(ntasks, sizeof *owner);
  for (size_t i = 0, k = 0; i < P; i++)
    for (long j = 0; j < load[i]; j++) origin[k++] = i;
  memcpy(owner, origin, ntasks * sizeof *owner);
  lb_topo *tasks;
  if (lb_topo_from_edges(ntasks, NULL, 0, "tasks", &tasks) || lb_taskgraph_migrate(tasks, owner, origin, r->tr, r->ntr))
    die(1, "%s: moving tasks: %s", r->name, lb_errmsg());
  r->q = lb_metric_q(origin, owner, ntasks);
  lb_taskgraph_loads(owner, ntasks, P, r->after);
  lb_topo_free(tasks);
  free(origin);
  free(owner);
}

static void metrics(const long *l, size_t P, double m[3])
{
  double *d = xcalloc(P, sizeof *d);
  for (size_t i = 0; i < P; i++) d[i] = (double)l[i];
  m[0] = lb_metric_m1(d, P);
  m[1] = lb_metric_m2(d, P);
  m[2] = lb_metric_m3(d, P);
  free(d);
}

static void print_loads(const long *l, size_t P, char sep)
{
  for (size_t i = 0; i < P; i++) {
    if (i) putchar(sep);
    printf("%ld", l[i]);
  }
}

/* Tasks sent over each link in each direction, over all rounds, in
 * link order; returns the task-hops. */
static long print_moves(const lb_topo *t, const result *r)
{
  long *fwd = xcalloc(t->m, sizeof *fwd), *back = xcalloc(t->m, sizeof *back), hops = 0;
  int any = 0;
  for (size_t k = 0; k < r->ntr; k++) {
    size_t e = lb_topo_edge_index(t, r->tr[k].from, r->tr[k].to);
    *(r->tr[k].from < r->tr[k].to ? &fwd[e] : &back[e]) += r->tr[k].amount;
    hops += r->tr[k].amount;
  }
  for (size_t e = 0; e < t->m; e++) {
    size_t a = t->edge[e][0] + 1, b = t->edge[e][1] + 1;
    if (fwd[e]) printf("%s%zu->%zu:%ld", any++ ? " " : "", a, b, fwd[e]);
    if (back[e]) printf("%s%zu->%zu:%ld", any++ ? " " : "", b, a, back[e]);
  }
  if (!any) printf("none");
  free(fwd);
  free(back);
  return hops;
}

static void report(const lb_topo *t, const long *load, const result *r, int csv)
{
  size_t P = t->n;
  long total = 0;
  double m0[3], m1[3];
  for (size_t i = 0; i < P; i++) total += r->after[i];
  metrics(load, P, m0);
  metrics(r->after, P, m1);
  if (csv) {
    printf("%s,%s,%zu,%ld,%zu,%zu,", r->name, t->name, P, total, r->steps, r->nrounds);
    print_loads(r->after, P, ' ');
    putchar(',');
    long hops = print_moves(t, r);
    printf(",%ld,%zu,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n", hops, r->q, m0[0], m1[0], m0[1], m1[1], m0[2], m1[2]);
    return;
  }
  if (r->name[0] == 'd')
    printf("diffusion (first order, Boillat's alpha, integer loads): %zu step%s\n", r->steps, r->steps == 1 ? "" : "s");
  else
    printf("%s (shortest paths, north-west corner start): %zu pass%s\n", r->name, r->steps, r->steps == 1 ? "" : "es");
  printf("  moves: ");
  long hops = print_moves(t, r);
  printf("\n  loads after: ");
  print_loads(r->after, P, ',');
  printf(" (total %ld)\n  task-hops %ld in %zu round%s; Q (tasks whose processor changed) %zu\n", total, hops,
         r->nrounds, r->nrounds == 1 ? "" : "s", r->q);
  printf("  M1 (max-min) %.10g -> %.10g, M2 (dev/max) %.10g -> %.10g, M3 (max) %.10g -> %.10g\n", m0[0], m1[0], m0[1],
         m1[1], m0[2], m1[2]);
}

int main(int argc, char **argv)
{
  static const struct option opts[] = {{"variant", required_argument, 0, 'v'},
                                       {"csv", no_argument, 0, 'c'},
                                       {"help", no_argument, 0, 'h'},
                                       {0, 0, 0, 0}};
  lb_transport_variant variant = LB_TRANSPORT_TB;
  int c, csv = 0;
  opterr = 0;
  while ((c = getopt_long(argc, argv, ":v:ch", opts, NULL)) != -1) {
    switch (c) {
    case 'v':
      if (!strcmp(optarg, "T")) variant = LB_TRANSPORT_T;
      else if (!strcmp(optarg, "TB")) variant = LB_TRANSPORT_TB;
      else die(2, "--variant '%s': expected T or TB", optarg);
      break;
    case 'c': csv = 1; break;
    case 'h': usage(); return 0;
    case ':': die(2, "option '%s' needs an argument", argv[optind - 1]);
    default:
      if (optopt >= '0' && optopt <= '9') die(2, "LOADS: a load cannot be negative");
      if (optopt && strchr(argv[optind - 1], '=')) die(2, "option '%s' takes no argument", argv[optind - 1]);
      die(2, "unknown option '%s' (try --help)", argv[optind - 1]);
    }
  }
  if (argc - optind != 2) die(2, "expected TOPOLOGY and LOADS (try --help)");
  lb_topo *t;
  if (lb_topo_from_spec(argv[optind], &t)) die(2, "TOPOLOGY: %s", lb_errmsg());
  if (t->n > MAX_PROCS) die(2, "TOPOLOGY: %s has more than %d processors", t->name, MAX_PROCS);
  long *load = xcalloc(t->n + 1, sizeof *load);
  size_t P = parse_loads(argv[optind + 1], load, t->n + 1);
  if (P != t->n) die(2, "%zu loads given for the %zu processors of %s", P, t->n, t->name);
  long total = 0;
  for (size_t i = 0; i < P; i++) total += load[i];
  if (csv)
    printf("policy,graph,P,total,steps,rounds,loads_after,moves,task_hops,q,"
           "m1_before,m1,m2_before,m2,m3_before,m3\n");
  else {
    printf("%s: %zu processors, %zu links; loads ", t->name, P, t->m);
    print_loads(load, P, ',');
    printf(" (total %ld, average %.10g)\n", total, (double)total / (double)P);
  }
  for (int k = 0; k < 2; k++) {
    result r = {.steps = 0};
    if (k == 0) diffusion(t, load, &r);
    else transport(t, load, variant, &r);
    follow_tasks(t, load, &r);
    report(t, load, &r, csv);
    free(r.tr);
    free(r.after);
  }
  free(load);
  lb_topo_free(t);
  return 0;
}
