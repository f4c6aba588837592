/* lbtopo: generate, check and describe processor graphs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <getopt.h>
#include <math.h>
#include "cli.h"
#include "lb_topo.h"
#include "lb_paths.h"
#include "lb_spectrum.h"
#include "lb_errno.h"

static void usage(void)
{
  printf("Usage: lbtopo COMMAND TOPOLOGY\n"
         "Generate, check and describe lbfarm processor graphs.\n\n"
         "Commands:\n"
         "  info    nodes, edges, degrees, diameter and Laplacian spectrum\n"
         "  write   print the graph in the lbfarm text format (docs/FORMATS.md)\n"
         "  check   validate a graph file: exit 0 if valid, 2 with the fault if not\n"
         "  paths   print the hop-distance matrix\n\n"
         "TOPOLOGY is ring:N, mesh:RxC, torus:RxC, hypercube:D, complete:N, star:N,\n"
         "random:N[:EXTRA[:SEED]], or a graph file (file:PATH, or a path).\n\n"
         "Options:\n"
         "  -h, --help     show this help and exit\n\n"
         "Exit status: 0 success, 2 bad arguments or an invalid graph.\n");
}

static int info(const lb_topo *t)
{
  size_t dmin = (size_t)-1, dmax = 0;
  for (size_t i = 0; i < t->n; i++) {
    size_t d = lb_topo_degree(t, i);
    if (d < dmin) dmin = d;
    if (d > dmax) dmax = d;
  }
  size_t *dist = malloc(t->n * sizeof *dist), diam = 0;
  if (!dist) cli_die(CLI_EXIT_FAIL, "out of memory");
  for (size_t i = 0; i < t->n; i++) {
    size_t e = lb_topo_bfs(t, i, dist);
    if (e > diam) diam = e;
  }
  free(dist);
  printf("name       %s\nnodes      %zu\nedges      %zu\ndegree     %zu..%zu\ndiameter   %zu\n",
         t->name, t->n, t->m, dmin, dmax, diam);
  if (t->n >= 2 && t->n <= 2048) {
    double *ev = malloc(t->n * sizeof *ev);
    if (!ev || lb_spectrum_laplacian(t, ev)) cli_die(CLI_EXIT_FAIL, "%s", lb_errmsg());
    printf("lambda_2   %.6g\nlambda_max %.6g\nratio      %.6g\n", ev[1], ev[t->n - 1],
           ev[t->n - 1] / ev[1]);
    free(ev);
  }
  return 0;
}

static int paths(const lb_topo *t)
{
  lb_paths *p;
  if (lb_paths_alloc(t->n, &p) || lb_paths_bfs(t, p))
    cli_die(CLI_EXIT_USAGE, "%s", lb_errmsg());
  for (size_t i = 0; i < t->n; i++) {
    for (size_t j = 0; j < t->n; j++) printf(j ? " %g" : "%g", lb_paths_dist(p, i, j));
    putchar('\n');
  }
  lb_paths_free(p);
  return 0;
}

int main(int argc, char **argv)
{
  static const struct option opts[] = { { "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 } };
  cli_init(argv[0]);
  int c;
  while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
    if (c == 'h') { usage(); return 0; }
    cli_bad_option(c, argc, argv);
  }
  if (argc - optind != 2) cli_usage_error("expected COMMAND and TOPOLOGY");
  const char *cmd = argv[optind], *spec = argv[optind + 1];
  if (strcmp(cmd, "info") && strcmp(cmd, "write") && strcmp(cmd, "check") && strcmp(cmd, "paths"))
    cli_usage_error("unknown command '%s' (expected info, write, check or paths)", cmd);
  lb_topo *t;
  if (lb_topo_from_spec(spec, &t)) cli_die(CLI_EXIT_USAGE, "%s", lb_errmsg());
  int rc = 0;
  if (!strcmp(cmd, "info")) rc = info(t);
  else if (!strcmp(cmd, "write")) rc = lb_topo_write(stdout, t) ? 1 : 0;
  else if (!strcmp(cmd, "paths")) rc = paths(t);
  else printf("%s: valid, connected, symmetric: %zu nodes, %zu edges\n", spec, t->n, t->m);
  lb_topo_free(t);
  return rc;
}
