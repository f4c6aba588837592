/* lbtransport: transport-problem balancing of integer loads (seed 003). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <getopt.h>
#include "cli.h"
#include "lb_errno.h"
#include "lb_topo.h"
#include "lb_paths.h"
#include "lb_transport.h"

#define MAXP 1024

static void usage(void)
{
  printf("Usage: lbtransport [OPTIONS] LOADS\n"
         "       lbtransport --example\n"
         "Balance integer loads with the transport-problem method of seed 003:\n"
         "shortest paths, an optimal transport plan (potentials method), and the\n"
         "transfers along every edge.  LOADS is a comma-separated list, one\n"
         "non-negative integer per processor (numbered from 1).\n\n"
         "Options:\n"
         "  -v, --variant V    T (target ceil of the average) or TB (ceil, then\n"
         "                     floor; default)\n"
         "  -i, --init I       initial solution: nwc (north-west corner, default)\n"
         "                     or vogel\n"
         "  -g, --topology S   processor graph (default complete:P): ring:N,\n"
         "                     torus:RxC, random:N:EXTRA:SEED, a graph file, ...\n"
         "  -e, --example      seed 003's example: 100,104,96,96,99,100,103,101,102,96\n"
         "                     on a complete graph, both variants\n"
         "  -h, --help         show this help and exit\n\n"
         "Exit status: 0 success, 2 bad input.\n");
}

static void show(const lb_paths *p, const long *load, lb_transport_variant v, lb_tp_init init)
{
  size_t P = p->n;
  long *delta = malloc(P * P * sizeof *delta), *after = malloc(P * sizeof *after);
  if (!delta || !after) cli_die(CLI_EXIT_FAIL, "out of memory");
  if (lb_transport_plan_paths(p, load, v, init, delta)) cli_die(CLI_EXIT_USAGE, "%s", lb_errmsg());
  lb_transport_apply(P, load, delta, after);
  long hops = 0, mx = after[0], mn = after[0];
  printf("%s (%s start):\n  transfers (along edges):", v == LB_TRANSPORT_T ? "T" : "TB",
         init == LB_TP_NWC ? "north-west corner" : "Vogel");
  for (size_t i = 0; i < P; i++)
    for (size_t j = 0; j < P; j++)
      if (delta[i * P + j]) { printf(" %zu->%zu:%ld", i + 1, j + 1, delta[i * P + j]); hops += delta[i * P + j]; }
  printf("\n  loads after:");
  for (size_t i = 0; i < P; i++) {
    printf("%s%ld", i ? "," : " ", after[i]);
    if (after[i] > mx) mx = after[i];
    if (after[i] < mn) mn = after[i];
  }
  printf("\n  task-hops %ld, max %ld, max-min %ld\n", hops, mx, mx - mn);
  free(delta);
  free(after);
}

int main(int argc, char **argv)
{
  static const struct option opts[] = {
    { "variant", required_argument, 0, 'v' }, { "init", required_argument, 0, 'i' },
    { "topology", required_argument, 0, 'g' }, { "example", no_argument, 0, 'e' },
    { "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 } };
  cli_init(argv[0]);
  int c, example = 0, both = 0;
  lb_transport_variant v = LB_TRANSPORT_TB;
  lb_tp_init init = LB_TP_NWC;
  const char *spec = NULL;
  while ((c = getopt_long(argc, argv, ":v:i:g:eh", opts, NULL)) != -1) {
    switch (c) {
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
    both = 1;
  } else {
    if (argc - optind != 1) cli_usage_error("expected one LOADS list (try --help)");
    P = cli_doubles("LOADS", argv[optind], d, MAXP, 0, 1e15);
  }
  for (size_t i = 0; i < P; i++) {
    load[i] = (long)d[i];
    if ((double)load[i] != d[i]) cli_usage_error("LOADS: %g at processor %zu is not an integer", d[i], i + 1);
  }
  lb_topo *t;
  char def[32];
  snprintf(def, sizeof def, "complete:%zu", P);
  if (lb_topo_from_spec(spec ? spec : def, &t)) cli_die(CLI_EXIT_USAGE, "%s", lb_errmsg());
  if (t->n != P) cli_usage_error("%zu loads given for a %zu-processor graph", P, t->n);
  lb_paths *p;
  if (lb_paths_alloc(P, &p) || lb_paths_floyd(t, NULL, p)) cli_die(CLI_EXIT_USAGE, "%s", lb_errmsg());
  if (both) {
    printf("Seed 003 example on %s; average 99.7\n", t->name);
    show(p, load, LB_TRANSPORT_T, LB_TP_NWC);
    show(p, load, LB_TRANSPORT_TB, LB_TP_NWC);
    show(p, load, LB_TRANSPORT_TB, LB_TP_VOGEL);
  } else {
    show(p, load, v, init);
  }
  lb_paths_free(p);
  lb_topo_free(t);
  return 0;
}
