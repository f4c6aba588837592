/* lbtransport: balance one integer load vector by the transport method
 * of seed 003 (T, TB) or by Hu-Blake optimal diffusion (H), and report
 * the plan, the transfers, the tasks moved and the metrics M1-M3, Q. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <getopt.h>
#include "cli.h"
#include "lb_errno.h"
#include "lb_topo.h"
#include "lb_paths.h"
#include "lb_transport.h"
#include "lb_hublake.h"
#include "lb_metrics.h"

#define MAXP 1024

static void usage(void)
{
  printf("Usage: lbtransport [OPTIONS] LOADS\n"
         "       lbtransport --example [--csv]\n"
         "Balance integer loads, one per processor, by the transport-problem method\n"
         "of seed 003 (an optimal sender -> receiver plan over shortest paths,\n"
         "potentials method) or by Hu-Blake optimal diffusion, carry the transfers\n"
         "out round by round, and report the plan, the transfers along edges, the\n"
         "loads after, the tasks moved and the metrics.  LOADS is a comma-separated\n"
         "list of non-negative integers (processors numbered from 1).\n\n"
         "Options:\n"
         "  -m, --method M     transport (default; see --variant), hublake, or all\n"
         "                     (T, TB and Hu-Blake one after the other)\n"
         "  -v, --variant V    transport: T (target ceil of the average) or TB (ceil,\n"
         "                     then floor; default)\n"
         "  -i, --init I       transport: initial solution nwc (north-west corner,\n"
         "                     default) or vogel\n"
         "  -g, --topology S   processor graph (default complete:P): ring:N,\n"
         "                     torus:RxC, random:N:EXTRA:SEED, a graph file, ...\n"
         "  -e, --example      seed 003's example: 100,104,96,96,99,100,103,101,102,96\n"
         "                     on a complete graph: T, TB, and TB from Vogel's start\n"
         "  -c, --csv          one CSV header, then one row per method run\n"
         "      --version      print the version and the commit it was built from\n"
         "  -h, --help         show this help and exit\n\n"
         "Reported: the plan (transport: sender -> receiver with the hops of the\n"
         "route; Hu-Blake: the integer edge flows), transfers along edges (a task\n"
         "relayed i->k->j counts on both edges), rounds (a processor sends in a\n"
         "round only what it held when the round began), task-hops (the sum of\n"
         "the transfers), and after the run M1 = max - min, M2 = sqrt(sum (l -\n"
         "avg)^2 / (P-1)) / max, M3 = max, Q = tasks whose processor changed.\n"
         "Tasks have no identity beyond where they started: a sender sends first\n"
         "tasks that started at the receiver, then tasks passing through, then\n"
         "its own, as lbseed003 does with real tasks (docs/PLANNERS.md).\n\n"
         "Exit status: 0 success, 1 a failed computation, 2 bad input.\n");
}

typedef struct run {
  const char *method, *start;
  long *after; /* P loads after */
  long *flow;  /* m net edge flows, summed over passes */
  char *plan;  /* text of the plan, "i->j:q(h) ..." */
  size_t planlen, plancap;
  long planned, hops, rounds, q;
  size_t cg_iters; /* Hu-Blake only */
} run;

/* One item of the plan: "i->j:q", with "(h)" the route's hops if h >= 0. */
static void plan_add(run *r, size_t a, size_t b, long q, long h)
{
  char item[96];
  int k = h >= 0 ? snprintf(item, sizeof item, "%zu->%zu:%ld(%ld)", a, b, q, h)
                 : snprintf(item, sizeof item, "%zu->%zu:%ld", a, b, q);
  if (r->planlen + (size_t)k + 2 > r->plancap) {
    r->plancap = 2 * (r->plancap + (size_t)k + 2);
    if (!(r->plan = realloc(r->plan, r->plancap))) cli_die(CLI_EXIT_FAIL, "out of memory");
  }
  if (r->planlen) r->plan[r->planlen++] = ' ';
  memcpy(r->plan + r->planlen, item, (size_t)k + 1);
  r->planlen += (size_t)k;
  r->planned += q;
}

/* Tasks on each processor by where they started: C[p*P + o].  What
 * arrives in a round waits in `fresh` until the round ends, since a
 * processor sends only what it held when the round began. */
typedef struct arrival {
  size_t v, o;
  long n;
} arrival;
typedef struct tasks {
  size_t P, round;
  long *C;
  arrival *fresh;
  size_t nfresh, cap;
} tasks;

static void settle(tasks *T)
{
  for (size_t k = 0; k < T->nfresh; k++) T->C[T->fresh[k].v * T->P + T->fresh[k].o] += T->fresh[k].n;
  T->nfresh = 0;
}

/* Up to `want` tasks of origin o leave u for v; returns how many. */
static long grab(tasks *T, size_t u, size_t v, size_t o, long want)
{
  long *have = &T->C[u * T->P + o], n = *have < want ? *have : want;
  if (n <= 0) return 0;
  if (T->nfresh == T->cap) {
    T->cap = T->cap ? 2 * T->cap : 64;
    if (!(T->fresh = realloc(T->fresh, T->cap * sizeof *T->fresh))) cli_die(CLI_EXIT_FAIL, "out of memory");
  }
  T->fresh[T->nfresh++] = (arrival){v, o, n};
  *have -= n;
  return n;
}

/* Tasks that started at v go first (home), then tasks passing through
 * (lowest origin first), then u's own. */
static void move(tasks *T, const lb_transfer *tr)
{
  size_t u = tr->from, v = tr->to;
  if (tr->round != T->round) {
    settle(T);
    T->round = tr->round;
  }
  long left = tr->amount - grab(T, u, v, v, tr->amount);
  for (size_t o = 0; o < T->P && left > 0; o++)
    if (o != u && o != v) left -= grab(T, u, v, o, left);
  left -= grab(T, u, v, u, left);
  if (left > 0) cli_die(CLI_EXIT_FAIL, "internal error: processor %zu cannot send %ld", u + 1, tr->amount);
}

/* Schedule an edge flow from the current loads and carry it out. */
static void carry_out(const lb_topo *t, tasks *T, long *cur, const long *flow, run *r)
{
  lb_transfer *tr;
  size_t nt, nr;
  if (lb_transfer_schedule(t, cur, flow, &tr, &nt, &nr)) cli_die(CLI_EXIT_FAIL, "schedule: %s", lb_errmsg());
  T->round = 0;
  for (size_t k = 0; k < nt; k++) {
    move(T, &tr[k]);
    cur[tr[k].from] -= tr[k].amount;
    cur[tr[k].to] += tr[k].amount;
    r->hops += tr[k].amount;
  }
  settle(T);
  r->rounds += (long)nr;
  free(tr);
}

/* One pass of seed 003 Fig. 1 (as lb_transport_pass): its optimal
 * sender -> receiver plan is added to r, its net edge flow to flow. */
static void transport_pass(const lb_topo *t, const lb_paths *paths, long *cur, long target, lb_tp_init init, long *flow,
                           run *r)
{
  size_t P = t->n, no = 0, ni = 0;
  size_t *O = malloc(P * sizeof *O), *I = malloc(P * sizeof *I);
  long *sup = malloc(P * sizeof *sup), *dem = malloc(P * sizeof *dem);
  long *delta = calloc(P * P, sizeof *delta), *lib = calloc(P * P, sizeof *lib);
  long *copy = malloc(P * sizeof *copy);
  if (!O || !I || !sup || !dem || !delta || !lib || !copy) cli_die(CLI_EXIT_FAIL, "out of memory");
  for (size_t i = 0; i < P; i++) {
    if (cur[i] > target) {
      O[no] = i;
      sup[no++] = cur[i] - target;
    }
    if (cur[i] < target) {
      I[ni] = i;
      dem[ni++] = target - cur[i];
    }
  }
  if (no && ni) {
    double *c = malloc(no * ni * sizeof *c);
    long *x = malloc(no * ni * sizeof *x);
    if (!c || !x) cli_die(CLI_EXIT_FAIL, "out of memory");
    for (size_t k = 0; k < no; k++)
      for (size_t m = 0; m < ni; m++) c[k * ni + m] = lb_paths_dist(paths, O[k], I[m]);
    if (lb_tp_solve(no, ni, c, sup, dem, init, x, NULL, NULL)) cli_die(CLI_EXIT_FAIL, "transport: %s", lb_errmsg());
    for (size_t k = 0; k < no; k++)
      for (size_t m = 0; m < ni; m++) {
        long q = x[k * ni + m];
        if (!q) continue;
        plan_add(r, O[k] + 1, I[m] + 1, q, (long)c[k * ni + m]);
        for (size_t a = O[k]; a != I[m];) {
          size_t b = lb_paths_next(paths, a, I[m]);
          delta[a * P + b] += q;
          a = b;
        }
      }
    free(c);
    free(x);
  }
  /* The library's own pass must give the same transfers. */
  memcpy(copy, cur, P * sizeof *copy);
  if (lb_transport_pass(paths, copy, target, init, lib)) cli_die(CLI_EXIT_FAIL, "transport: %s", lb_errmsg());
  if (memcmp(lib, delta, P * P * sizeof *lib))
    cli_die(CLI_EXIT_FAIL, "internal error: the plan does not give lb_transport_pass's transfers");
  for (size_t k = 0; k < t->m; k++) {
    size_t a = t->edge[k][0], b = t->edge[k][1];
    flow[k] = delta[a * P + b] - delta[b * P + a];
  }
  free(O);
  free(I);
  free(sup);
  free(dem);
  free(delta);
  free(lib);
  free(copy);
}

static void solve(const lb_topo *t, const lb_paths *paths, const long *load, const char *method, lb_transport_variant v,
                  lb_tp_init init, run *r)
{
  size_t P = t->n;
  memset(r, 0, sizeof *r);
  r->after = malloc(P * sizeof *r->after);
  r->flow = calloc(t->m + 1, sizeof *r->flow);
  long *f = calloc(t->m + 1, sizeof *f);
  tasks T = {.P = P, .C = calloc(P * P, sizeof(long))};
  if (!r->after || !r->flow || !f || !T.C) cli_die(CLI_EXIT_FAIL, "out of memory");
  memcpy(r->after, load, P * sizeof *load);
  for (size_t p = 0; p < P; p++) T.C[p * P + p] = load[p];
  long sum = 0;
  for (size_t p = 0; p < P; p++) sum += load[p];
  long lo = sum / (long)P, hi = lo + (sum % (long)P != 0);
  if (!strcmp(method, "hublake")) {
    r->method = "H";
    r->start = "";
    if (lb_hublake_plan(t, load, f, NULL, &r->cg_iters)) cli_die(CLI_EXIT_FAIL, "Hu-Blake: %s", lb_errmsg());
    for (size_t k = 0; k < t->m; k++) {
      if (!f[k]) continue;
      int fw = f[k] > 0;
      plan_add(r, (fw ? t->edge[k][0] : t->edge[k][1]) + 1, (fw ? t->edge[k][1] : t->edge[k][0]) + 1, fw ? f[k] : -f[k],
               -1);
      r->flow[k] = f[k];
    }
    carry_out(t, &T, r->after, f, r);
  } else {
    r->method = v == LB_TRANSPORT_T ? "T" : "TB";
    r->start = init == LB_TP_NWC ? "nwc" : "vogel";
    /* Each pass is carried out before the next is planned, as lbseed003. */
    transport_pass(t, paths, r->after, hi, init, f, r);
    for (size_t k = 0; k < t->m; k++) r->flow[k] += f[k];
    carry_out(t, &T, r->after, f, r);
    if (v == LB_TRANSPORT_TB && lo != hi) {
      transport_pass(t, paths, r->after, lo, init, f, r);
      for (size_t k = 0; k < t->m; k++) r->flow[k] += f[k];
      carry_out(t, &T, r->after, f, r);
    }
  }
  for (size_t p = 0; p < P; p++)
    for (size_t o = 0; o < P; o++)
      if (o != p) r->q += T.C[p * P + o];
  if (!r->plan) r->plan = strdup("");
  free(f);
  free(T.C);
  free(T.fresh);
}

static void metrics(const long *l, size_t P, double m[3])
{
  double *d = malloc(P * sizeof *d);
  if (!d) cli_die(CLI_EXIT_FAIL, "out of memory");
  for (size_t i = 0; i < P; i++) d[i] = (double)l[i];
  m[0] = lb_metric_m1(d, P);
  m[1] = lb_metric_m2(d, P);
  m[2] = lb_metric_m3(d, P);
  free(d);
}

static void print_loads(const long *l, size_t P, const char *sep)
{
  for (size_t i = 0; i < P; i++) printf("%s%ld", i ? sep : "", l[i]);
}

static void csv_header(void)
{
  printf("method,start,graph,P,total,average,init_m1,init_m2,init_m3,m1,m2,m3,q,planned,"
         "task_hops,rounds,cg_iters,loads_after,plan\n");
}

static void report(const lb_topo *t, const long *load, const run *r, int csv)
{
  size_t P = t->n;
  long sum = 0;
  for (size_t i = 0; i < P; i++) sum += load[i];
  double m0[3], m[3];
  metrics(load, P, m0);
  metrics(r->after, P, m);
  if (csv) {
    printf("%s,%s,%s,%zu,%ld,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%ld,%ld,%ld,%ld,", r->method, r->start, t->name,
           P, sum, (double)sum / (double)P, m0[0], m0[1], m0[2], m[0], m[1], m[2], r->q, r->planned, r->hops,
           r->rounds);
    if (r->method[0] == 'H') printf("%zu", r->cg_iters);
    putchar(',');
    print_loads(r->after, P, " ");
    printf(",%s\n", r->plan);
    return;
  }
  if (r->method[0] == 'H')
    printf("H (Hu-Blake, %zu CG iterations):\n  plan (integer edge flows, sender->receiver:tasks):", r->cg_iters);
  else
    printf("%s (%s start):\n  plan (sender->receiver:tasks(hops)):", r->method,
           r->start[0] == 'n' ? "north-west corner" : "Vogel");
  printf(" %s\n  transfers (along edges):", r->planlen ? r->plan : "none");
  if (!r->hops) printf(" none");
  for (size_t k = 0; k < t->m; k++)
    if (r->flow[k])
      printf(" %zu->%zu:%ld", (r->flow[k] > 0 ? t->edge[k][0] : t->edge[k][1]) + 1,
             (r->flow[k] > 0 ? t->edge[k][1] : t->edge[k][0]) + 1, r->flow[k] > 0 ? r->flow[k] : -r->flow[k]);
  printf("\n  loads after: ");
  print_loads(r->after, P, ",");
  printf("\n  tasks planned %ld, task-hops %ld, rounds %ld; Q (tasks whose processor changed) %ld\n", r->planned,
         r->hops, r->rounds, r->q);
  printf("  M1 (max-min) %.10g -> %.10g, M2 (dev/max) %.10g -> %.10g, M3 (max) %.10g -> %.10g\n", m0[0], m[0], m0[1],
         m[1], m0[2], m[2]);
}

static void free_run(run *r)
{
  free(r->after);
  free(r->flow);
  free(r->plan);
}

typedef struct job {
  const char *m;
  lb_transport_variant v;
  lb_tp_init i;
} job;

int main(int argc, char **argv)
{
  static const struct option opts[] = {{"method", required_argument, 0, 'm'}, {"variant", required_argument, 0, 'v'},
                                       {"init", required_argument, 0, 'i'},   {"topology", required_argument, 0, 'g'},
                                       {"example", no_argument, 0, 'e'},      {"csv", no_argument, 0, 'c'},
                                       {"help", no_argument, 0, 'h'},         {0, 0, 0, 0}};
  cli_init(argv[0]);
  cli_version_opt(argc, argv);
  int c, example = 0, csv = 0;
  lb_transport_variant v = LB_TRANSPORT_TB;
  lb_tp_init init = LB_TP_NWC;
  const char *spec = NULL, *method = "transport";
  while ((c = getopt_long(argc, argv, ":m:v:i:g:ech", opts, NULL)) != -1) {
    switch (c) {
    case 'm':
      if (strcmp(optarg, "transport") && strcmp(optarg, "hublake") && strcmp(optarg, "all"))
        cli_usage_error("--method '%s': expected transport, hublake or all", optarg);
      method = optarg;
      break;
    case 'v':
      if (!strcmp(optarg, "T")) v = LB_TRANSPORT_T;
      else if (!strcmp(optarg, "TB")) v = LB_TRANSPORT_TB;
      else cli_usage_error("--variant '%s': expected T or TB", optarg);
      break;
    case 'i':
      if (!strcmp(optarg, "nwc")) init = LB_TP_NWC;
      else if (!strcmp(optarg, "vogel")) init = LB_TP_VOGEL;
      else cli_usage_error("--init '%s': expected nwc or vogel", optarg);
      break;
    case 'g': spec = optarg; break;
    case 'e': example = 1; break;
    case 'c': csv = 1; break;
    case 'h': usage(); return 0;
    default: cli_bad_option(c, argc, argv);
    }
  }
  static double d[MAXP];
  static long load[MAXP];
  size_t P;
  if (example) {
    if (optind != argc) cli_usage_error("--example takes no loads");
    P = cli_doubles("loads", "100,104,96,96,99,100,103,101,102,96", d, MAXP, 0, 1e15);
  } else {
    if (argc - optind != 1) cli_usage_error("expected one LOADS list (try --help)");
    P = cli_doubles("LOADS", argv[optind], d, MAXP, 0, 1e15);
  }
  for (size_t i = 0; i < P; i++) {
    load[i] = (long)d[i];
    if ((double)load[i] != d[i]) cli_usage_error("LOADS: %.17g at processor %zu is not an integer", d[i], i + 1);
  }
  lb_topo *t;
  char def[32];
  snprintf(def, sizeof def, "complete:%zu", P);
  if (lb_topo_from_spec(spec ? spec : def, &t)) cli_die(CLI_EXIT_USAGE, "%s", lb_errmsg());
  if (t->n != P) cli_usage_error("%zu loads given for a %zu-processor graph", P, t->n);
  lb_paths *p;
  if (lb_paths_alloc(P, &p) || lb_paths_floyd(t, NULL, p)) cli_die(CLI_EXIT_USAGE, "%s", lb_errmsg());
  if (csv) csv_header();
  else if (example) printf("Seed 003 example on %s; average 99.7\n", t->name);
  job todo[3];
  size_t nt = 0;
  if (example) {
    todo[nt++] = (job){"transport", LB_TRANSPORT_T, LB_TP_NWC};
    todo[nt++] = (job){"transport", LB_TRANSPORT_TB, LB_TP_NWC};
    todo[nt++] = (job){"transport", LB_TRANSPORT_TB, LB_TP_VOGEL};
  } else if (!strcmp(method, "all")) {
    todo[nt++] = (job){"transport", LB_TRANSPORT_T, init};
    todo[nt++] = (job){"transport", LB_TRANSPORT_TB, init};
    todo[nt++] = (job){"hublake", v, init};
  } else {
    todo[nt++] = (job){method, v, init};
  }
  for (size_t k = 0; k < nt; k++) {
    run r;
    solve(t, p, load, todo[k].m, todo[k].v, todo[k].i, &r);
    report(t, load, &r, csv);
    free_run(&r);
  }
  lb_paths_free(p);
  lb_topo_free(t);
  return 0;
}
