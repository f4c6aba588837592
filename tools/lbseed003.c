/* lbseed003: the seed 003 experiment.  Random task graphs placed on P
 * processors are balanced by H (Hu-Blake), T and TB (transport), moving
 * actual tasks; one CSV row per test with M1, M2, M3 and Q. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <getopt.h>
#include "cli.h"
#include "lb_errno.h"
#include "lb_rng.h"
#include "lb_paths.h"
#include "lb_metrics.h"
#include "lb_transport.h"
#include "lb_hublake.h"
#include "lb_taskgraph.h"

static void usage(void)
{
  printf("Usage: lbseed003 [OPTIONS]\n"
         "Seed 003 experiment: balance random task graphs with H (Hu-Blake optimal\n"
         "diffusion), T (transport, ceil of the average) and TB (ceil, then floor),\n"
         "moving actual tasks, and print one CSV row per test.\n\n"
         "Options:\n"
         "  -n, --tests N     number of instances (default 20)\n"
         "  -s, --seed S      base seed; instance k uses stream k (default 2007)\n"
         "  -t, --tasks N     tasks per instance before the random shortfall (default 10000)\n"
         "  -p, --procs P     processors (default 10)\n"
         "  -o, --out FILE    write the CSV to FILE instead of standard output; FILE is\n"
         "                    checked before the run and replaced only when it ends\n"
         "  -c, --csv         CSV output (the only format; accepted for uniformity)\n"
         "      --version     print the version and the commit it was built from\n"
         "  -h, --help        show this help and exit\n\n"
         "Each instance has N - d tasks, d uniform in 0..P-1, so that the average is\n"
         "usually not an integer (docs/PLANNERS.md explains why).\n"
         "Columns: m1 = max-min, m2 = sqrt(sum (l-avg)^2/(P-1))/l_max, m3 = max,\n"
         "q = tasks whose processor changed, hops = task-hops moved.\n\n"
         "Exit status: 0 success, 1 a failed run, 2 bad arguments.\n");
}

static void die_lb(const char *what) { cli_die(CLI_EXIT_FAIL, "%s: %s", what, lb_errmsg()); }

/* Net edge flow of a transfer matrix (P x P) on graph t. */
static void delta_to_flow(const lb_topo *t, const long *delta, long *flow)
{
  size_t P = t->n;
  for (size_t k = 0; k < t->m; k++) {
    size_t a = t->edge[k][0], b = t->edge[k][1];
    flow[k] = delta[a * P + b] - delta[b * P + a];
  }
}

/* Schedule an edge flow and carry it out on the tasks. */
static long run_flow(const lb_topo *tg, const lb_topo *proc, size_t *owner, const size_t *origin, const long *flow)
{
  long load[256];
  lb_taskgraph_loads(owner, tg->n, proc->n, load);
  lb_transfer *tr;
  size_t nt, nr;
  if (lb_transfer_schedule(proc, load, flow, &tr, &nt, &nr)) die_lb("schedule");
  if (lb_taskgraph_migrate(tg, owner, origin, tr, nt)) die_lb("migrate");
  long hops = 0;
  for (size_t q = 0; q < nt; q++) hops += tr[q].amount;
  free(tr);
  return hops;
}

typedef struct result {
  double m1, m2, m3;
  size_t q;
  long hops;
} result;

static void measure(const lb_topo *tg, size_t P, const size_t *origin, const size_t *owner, long hops, result *r)
{
  long load[256];
  double l[256];
  lb_taskgraph_loads(owner, tg->n, P, load);
  for (size_t i = 0; i < P; i++) l[i] = (double)load[i];
  r->m1 = lb_metric_m1(l, P);
  r->m2 = lb_metric_m2(l, P);
  r->m3 = lb_metric_m3(l, P);
  r->q = lb_metric_q(origin, owner, tg->n);
  r->hops = hops;
}

int main(int argc, char **argv)
{
  static const struct option opts[] = {{"tests", required_argument, 0, 'n'}, {"seed", required_argument, 0, 's'},
                                       {"tasks", required_argument, 0, 't'}, {"procs", required_argument, 0, 'p'},
                                       {"out", required_argument, 0, 'o'},   {"csv", no_argument, 0, 'c'},
                                       {"help", no_argument, 0, 'h'},        {0, 0, 0, 0}};
  cli_init(argv[0]);
  cli_version_opt(argc, argv);
  unsigned long tests = 20, seed = 2007, ntasks = 10000, P = 10;
  const char *out = NULL;
  int c;
  while ((c = getopt_long(argc, argv, ":n:s:t:p:o:ch", opts, NULL)) != -1) {
    switch (c) {
    case 'n': tests = cli_ulong("--tests", optarg, 1, 100000); break;
    case 's': seed = cli_ulong("--seed", optarg, 0, 4294967295UL); break;
    case 't': ntasks = cli_ulong("--tasks", optarg, 20, 10000000); break;
    case 'p': P = cli_ulong("--procs", optarg, 2, 256); break;
    case 'o': out = optarg; break;
    case 'c': break;
    case 'h': usage(); return 0;
    default: cli_bad_option(c, argc, argv);
    }
  }
  if (optind != argc) cli_usage_error("unexpected argument '%s'", argv[optind]);
  if (ntasks < 2 * P) cli_usage_error("--tasks %lu is too small for %lu processors", ntasks, P);
  FILE *f = out ? cli_out_open("--out", out) : stdout;
  fprintf(f, "test,tasks,proc_edges,init_m1,h_m1,t_m1,tb_m1,h_m2,t_m2,tb_m2,h_m3,t_m3,tb_m3,"
             "h_q,t_q,tb_q,h_hops,t_hops,tb_hops,h_cg_iters\n");
  for (unsigned long k = 0; k < tests; k++) {
    cli_progress("tests", k, tests);
    lb_rng *r;
    if (lb_rng_alloc_stream(seed, k, &r)) die_lb("rng");
    size_t n = ntasks - lb_rng_below(r, P);
    size_t *origin = malloc(n * sizeof *origin), *own = malloc(n * sizeof *own);
    lb_topo *tg, *proc;
    if (!origin || !own) cli_die(CLI_EXIT_FAIL, "out of memory");
    if (lb_taskgraph_random(n, P, 2, 40, 0.001, 0.15, r, &tg, origin)) die_lb("task graph");
    if (lb_taskgraph_quotient(tg, origin, P, &proc)) die_lb("processor graph");
    lb_paths *paths;
    if (lb_paths_alloc(P, &paths) || lb_paths_floyd(proc, NULL, paths)) die_lb("paths");
    long load[256], flow[256 * 255 / 2], *delta = calloc(P * P, sizeof *delta);
    if (!delta) cli_die(CLI_EXIT_FAIL, "out of memory");
    lb_taskgraph_loads(origin, n, P, load);
    double l0[256];
    for (size_t i = 0; i < P; i++) l0[i] = (double)load[i];
    result h, t, tb;
    /* H */
    size_t iters;
    memcpy(own, origin, n * sizeof *own);
    if (lb_hublake_plan(proc, load, flow, NULL, &iters)) die_lb("Hu-Blake");
    measure(tg, P, origin, own, run_flow(tg, proc, own, origin, flow), &h);
    /* T: one pass at ceil(avg); TB: then a pass at floor(avg), each
     * pass carried out on the tasks before the next is planned. */
    long sum = 0;
    for (size_t i = 0; i < P; i++) sum += load[i];
    long lo = sum / (long)P, hi = lo + (sum % (long)P != 0);
    memcpy(own, origin, n * sizeof *own);
    long cur[256];
    memcpy(cur, load, P * sizeof *cur);
    if (lb_transport_pass(paths, cur, hi, LB_TP_NWC, delta)) die_lb("transport T");
    delta_to_flow(proc, delta, flow);
    long hops = run_flow(tg, proc, own, origin, flow);
    measure(tg, P, origin, own, hops, &t);
    memset(delta, 0, P * P * sizeof *delta);
    if (lb_transport_pass(paths, cur, lo, LB_TP_NWC, delta)) die_lb("transport TB");
    delta_to_flow(proc, delta, flow);
    hops += run_flow(tg, proc, own, origin, flow);
    measure(tg, P, origin, own, hops, &tb);
    fprintf(f,
            "%lu,%zu,%zu,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,"
            "%zu,%zu,%zu,%ld,%ld,%ld,%zu\n",
            k + 1, n, proc->m, lb_metric_m1(l0, P), h.m1, t.m1, tb.m1, h.m2, t.m2, tb.m2, h.m3, t.m3, tb.m3, h.q, t.q,
            tb.q, h.hops, t.hops, tb.hops, iters);
    free(delta);
    free(origin);
    free(own);
    lb_paths_free(paths);
    lb_topo_free(proc);
    lb_topo_free(tg);
    lb_rng_free(r);
  }
  cli_progress("tests", tests, tests); /* the last line says all ran */
  cli_progress_end();
  if (out) cli_out_commit(f);
  else if (fflush(stdout)) cli_die(CLI_EXIT_FAIL, "writing the CSV failed");
  return 0;
}
