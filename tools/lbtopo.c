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

/* Work limits for info, so a large graph gets an answer, not a hang. */
#define DIAM_WORK 4e9
#define SPECTRUM_MAX 2048

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
         "  -c, --csv      CSV instead of text: info one header and row; write the\n"
         "                 edges as from,to; check graph,nodes,edges; paths\n"
         "                 from,to,hops (nodes numbered from 1, full precision)\n"
         "      --version  print the version and the commit it was built from\n"
         "  -h, --help     show this help and exit\n\n"
         "info computes the diameter exactly (a breadth-first search from every\n"
         "node) when nodes x (nodes + 2 edges) is at most %.0e, else it gives the\n"
         "bounds e <= diameter <= 2e from the eccentricity e of node 1; the\n"
         "spectrum needs 2..%d nodes.\n\n"
         "Exit status: 0 success, 2 bad arguments or an invalid graph.\n",
         DIAM_WORK, SPECTRUM_MAX);
}

static int info(const lb_topo *t, int csv)
{
  size_t dmin = (size_t)-1, dmax = 0;
  for (size_t i = 0; i < t->n; i++) {
    size_t d = lb_topo_degree(t, i);
    if (d < dmin) dmin = d;
    if (d > dmax) dmax = d;
  }
  size_t *dist = malloc(t->n * sizeof *dist), diam = 0;
  if (!dist) cli_die(CLI_EXIT_FAIL, "out of memory");
  int exact = (double)t->n * ((double)t->n + 2.0 * (double)t->m) <= DIAM_WORK;
  for (size_t i = 0; i < (exact ? t->n : 1); i++) {
    size_t e = lb_topo_bfs(t, i, dist);
    if (e > diam) diam = e;
  }
  free(dist);
  double ev1 = NAN, evn = NAN;
  if (t->n >= 2 && t->n <= SPECTRUM_MAX) {
    double *ev = malloc(t->n * sizeof *ev);
    if (!ev || lb_spectrum_laplacian(t, ev)) cli_die(CLI_EXIT_FAIL, "%s", lb_errmsg());
    ev1 = ev[1];
    evn = ev[t->n - 1];
    free(ev);
  }
  if (csv) {
    printf("name,nodes,edges,degree_min,degree_max,diameter,diameter_lo,diameter_hi,"
           "lambda_2,lambda_max,ratio\n%s,%zu,%zu,%zu,%zu,", t->name, t->n, t->m, dmin, dmax);
    if (exact) printf("%zu,%zu,%zu,", diam, diam, diam);
    else printf(",%zu,%zu,", diam, 2 * diam);
    if (isnan(ev1)) printf(",,\n");
    else printf("%.17g,%.17g,%.17g\n", ev1, evn, evn / ev1);
    return 0;
  }
  printf("name       %s\nnodes      %zu\nedges      %zu\ndegree     %zu..%zu\n",
         t->name, t->n, t->m, dmin, dmax);
  if (exact) printf("diameter   %zu\n", diam);
  else printf("diameter   %zu..%zu (eccentricity of node 1 and twice it; too large to search)\n",
              diam, 2 * diam);
  if (!isnan(ev1))
    printf("lambda_2   %.10g\nlambda_max %.10g\nratio      %.10g\n", ev1, evn, evn / ev1);
  return 0;
}

static int write_csv(const lb_topo *t)
{
  printf("from,to\n");
  for (size_t k = 0; k < t->m; k++) printf("%zu,%zu\n", t->edge[k][0] + 1, t->edge[k][1] + 1);
  return ferror(stdout) ? 1 : 0;
}

static int paths(const lb_topo *t, int csv)
{
  lb_paths *p;
  if (lb_paths_alloc(t->n, &p) || lb_paths_bfs(t, p))
    cli_die(CLI_EXIT_USAGE, "%s", lb_errmsg());
  if (csv) printf("from,to,hops\n");
  for (size_t i = 0; i < t->n; i++) {
    for (size_t j = 0; j < t->n; j++)
      if (csv) printf("%zu,%zu,%.17g\n", i + 1, j + 1, lb_paths_dist(p, i, j));
      else printf(j ? " %.17g" : "%.17g", lb_paths_dist(p, i, j));
    if (!csv) putchar('\n');
  }
  lb_paths_free(p);
  return 0;
}

int main(int argc, char **argv)
{
  static const struct option opts[] = { { "csv", no_argument, 0, 'c' },
    { "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 } };
  cli_init(argv[0]);
  cli_version_opt(argc, argv);
  int c, csv = 0;
  while ((c = getopt_long(argc, argv, ":ch", opts, NULL)) != -1) {
    if (c == 'h') { usage(); return 0; }
    if (c == 'c') { csv = 1; continue; }
    cli_bad_option(c, argc, argv);
  }
  if (argc - optind != 2) cli_usage_error("expected COMMAND and TOPOLOGY");
  const char *cmd = argv[optind], *spec = argv[optind + 1];
  if (strcmp(cmd, "info") && strcmp(cmd, "write") && strcmp(cmd, "check") && strcmp(cmd, "paths"))
    cli_usage_error("unknown command '%s' (expected info, write, check or paths)", cmd);
  lb_topo *t;
  if (lb_topo_from_spec(spec, &t)) cli_die(CLI_EXIT_USAGE, "%s", lb_errmsg());
  int rc = 0;
  if (!strcmp(cmd, "info")) rc = info(t, csv);
  else if (!strcmp(cmd, "write")) rc = csv ? write_csv(t) : lb_topo_write(stdout, t) ? 1 : 0;
  else if (!strcmp(cmd, "paths")) rc = paths(t, csv);
  else if (csv) printf("graph,nodes,edges\n%s,%zu,%zu\n", spec, t->n, t->m);
  else printf("%s: valid, connected, symmetric: %zu nodes, %zu edges\n", spec, t->n, t->m);
  lb_topo_free(t);
  return rc;
}
