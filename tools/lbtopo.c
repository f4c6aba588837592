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
#include "lbsg_platform.h"

/* Work limits for info, so a large graph gets an answer, not a hang. */
#define DIAM_WORK    4e9
#define SPECTRUM_MAX 2048

static void usage(void)
{
  printf("Usage: lbtopo COMMAND TOPOLOGY [OPTIONS]\n"
         "Generate, check and describe lbfarm processor graphs.\n\n"
         "Commands:\n"
         "  info      nodes, edges, degrees, diameter and Laplacian spectrum\n"
         "  write     print the graph in the lbfarm text format (docs/FORMATS.md)\n"
         "  check     validate a graph file: exit 0 if valid, 2 with the fault if not\n"
         "  paths     print the hop-distance matrix\n"
         "  platform  print the graph as a SimGrid platform (XML, version 4.1): a\n"
         "            host n<i> per node (node i, from 0), a link per edge, routes\n"
         "            along shortest paths; what simgrid/lbsimgrid runs on\n\n"
         "TOPOLOGY is ring:N, mesh:RxC, torus:RxC, hypercube:D, complete:N, star:N,\n"
         "random:N[:EXTRA[:SEED]], or a graph file (file:PATH, or a path).\n\n"
         "Options:\n"
         "  -c, --csv      CSV instead of text: info one header and row; write the\n"
         "                 edges as from,to; check graph,nodes,edges; paths\n"
         "                 from,to,hops (nodes numbered from 1, full precision)\n"
         "      --version  print the version and the commit it was built from\n"
         "  -h, --help     show this help and exit\n"
         "platform only (the same units as lbsim's, a time unit being SimGrid's second):\n"
         "  --latency X    per link (default 1)\n"
         "  --bandwidth B  bytes per time unit in each direction, 0 = infinite\n"
         "                 (written as %.0e) (default 0)\n"
         "  --speeds LIST  comma-separated host speeds, one per node (default all 1)\n"
         "  --sharing S    full (each direction of a link its own bandwidth) or\n"
         "                 shared (one for both) (default full)\n"
         "  --zone Z       graph (every link and one-link route, SimGrid's Dijkstra\n"
         "                 finds the paths), torus (SimGrid's torus cluster: rings and\n"
         "                 tori of sides 3 or more, one speed), or auto (torus where\n"
         "                 it applies) (default auto)\n\n"
         "info computes the diameter exactly (a breadth-first search from every\n"
         "node) when nodes x (nodes + 2 edges) is at most %.0e, else it gives the\n"
         "bounds e <= diameter <= 2e from the eccentricity e of node 1; the\n"
         "spectrum needs 2..%d nodes.\n\n"
         "Exit status: 0 success, 2 bad arguments or an invalid graph.\n",
         LBSG_BANDWIDTH_INF, DIAM_WORK, SPECTRUM_MAX);
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
           "lambda_2,lambda_max,ratio\n%s,%zu,%zu,%zu,%zu,",
           t->name, t->n, t->m, dmin, dmax);
    if (exact) printf("%zu,%zu,%zu,", diam, diam, diam);
    else printf(",%zu,%zu,", diam, 2 * diam);
    if (isnan(ev1)) printf(",,\n");
    else printf("%.17g,%.17g,%.17g\n", ev1, evn, evn / ev1);
    return 0;
  }
  printf("name       %s\nnodes      %zu\nedges      %zu\ndegree     %zu..%zu\n", t->name, t->n, t->m, dmin, dmax);
  if (exact) printf("diameter   %zu\n", diam);
  else printf("diameter   %zu..%zu (eccentricity of node 1 and twice it; too large to search)\n", diam, 2 * diam);
  if (!isnan(ev1)) printf("lambda_2   %.10g\nlambda_max %.10g\nratio      %.10g\n", ev1, evn, evn / ev1);
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
  if (lb_paths_alloc(t->n, &p) || lb_paths_bfs(t, p)) cli_die(CLI_EXIT_USAGE, "%s", lb_errmsg());
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
  enum { O_LAT = 256, O_BW, O_SPEEDS, O_SHARING, O_ZONE };
  static const struct option opts[] = {{"csv", no_argument, 0, 'c'},
                                       {"latency", required_argument, 0, O_LAT},
                                       {"bandwidth", required_argument, 0, O_BW},
                                       {"speeds", required_argument, 0, O_SPEEDS},
                                       {"sharing", required_argument, 0, O_SHARING},
                                       {"zone", required_argument, 0, O_ZONE},
                                       {"help", no_argument, 0, 'h'},
                                       {0, 0, 0, 0}};
  cli_init(argv[0]);
  cli_version_opt(argc, argv);
  int c, csv = 0, plat_opt = 0;
  const char *speeds = NULL;
  lbsg_platform plat;
  lbsg_platform_default(&plat);
  while ((c = getopt_long(argc, argv, ":ch", opts, NULL)) != -1) {
    switch (c) {
    case 'h': usage(); return 0;
    case 'c': csv = 1; continue;
    case O_LAT: plat.latency = cli_double("--latency", optarg, 0, 1e9); break;
    case O_BW: plat.bandwidth = cli_double("--bandwidth", optarg, 0, 1e18); break;
    case O_SPEEDS: speeds = optarg; break;
    case O_SHARING:
      if (!strcmp(optarg, "full")) plat.shared = 0;
      else if (!strcmp(optarg, "shared")) plat.shared = 1;
      else cli_usage_error("--sharing: unknown sharing '%s' (full, shared)", optarg);
      break;
    case O_ZONE:
      if (lbsg_zone_from_name(optarg, &plat.zone)) cli_usage_error("--zone: %s", lb_errmsg());
      break;
    default: cli_bad_option(c, argc, argv);
    }
    plat_opt = 1;
  }
  if (argc - optind != 2) cli_usage_error("expected COMMAND and TOPOLOGY");
  const char *cmd = argv[optind], *spec = argv[optind + 1];
  if (strcmp(cmd, "info") && strcmp(cmd, "write") && strcmp(cmd, "check") && strcmp(cmd, "paths") &&
      strcmp(cmd, "platform"))
    cli_usage_error("unknown command '%s' (expected info, write, check, paths or platform)", cmd);
  if (plat_opt && strcmp(cmd, "platform"))
    cli_usage_error("--latency, --bandwidth, --speeds, --sharing and --zone "
                    "are options of platform only");
  if (csv && !strcmp(cmd, "platform")) cli_usage_error("platform writes XML: no --csv");
  lb_topo *t;
  if (lb_topo_from_spec(spec, &t)) cli_die(CLI_EXIT_USAGE, "%s", lb_errmsg());
  double *sp = NULL;
  if (speeds) {
    if (!(sp = malloc(t->n * sizeof *sp))) cli_die(CLI_EXIT_FAIL, "out of memory");
    size_t k = cli_doubles("--speeds", speeds, sp, t->n, 1e-9, 1e12);
    if (k != t->n) cli_usage_error("--speeds: %zu values for %zu nodes", k, t->n);
    plat.speeds = sp;
  }
  int rc = 0;
  if (!strcmp(cmd, "info")) rc = info(t, csv);
  else if (!strcmp(cmd, "write")) rc = csv ? write_csv(t) : lb_topo_write(stdout, t) ? 1 : 0;
  else if (!strcmp(cmd, "paths")) rc = paths(t, csv);
  else if (!strcmp(cmd, "platform")) {
    if ((rc = lbsg_platform_write(stdout, t, &plat)))
      cli_die(rc == LB_EINVAL ? CLI_EXIT_USAGE : CLI_EXIT_FAIL, "%s", lb_errmsg());
  } else if (csv) printf("graph,nodes,edges\n%s,%zu,%zu\n", spec, t->n, t->m);
  else printf("%s: valid, connected, symmetric: %zu nodes, %zu edges\n", spec, t->n, t->m);
  free(sp);
  lb_topo_free(t);
  return rc;
}
