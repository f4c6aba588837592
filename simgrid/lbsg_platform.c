/* lbsg_platform.c: a processor graph as a SimGrid platform
 * (lbsg_platform.h). */
#include <math.h>
#include <string.h>
#include "lbsg_platform.h"
#include "lb_errno.h"

void lbsg_platform_default(lbsg_platform *p)
{
  memset(p, 0, sizeof *p);
  p->latency = 1;
  p->speed = 1;
}

int lbsg_zone_from_name(const char *s, lbsg_zone *out)
{
  static const char *const names[] = {"auto", "graph", "torus"};
  for (int k = 0; k < 3; k++)
    if (!strcmp(s, names[k])) {
      *out = (lbsg_zone)k;
      return LB_SUCCESS;
    }
  return lb_error(LB_EINVAL, "unknown platform form '%s' (auto, graph, torus)", s);
}

/* Sides of SimGrid's torus for t (the first varies fastest, as node
 * row x cols + col), or 0 when it has none: sides of 2 would give an
 * edge two links, and a graph of one side less than 3 is not a torus
 * of SimGrid's. */
static int torus_sides(const lb_topo *t, size_t side[2])
{
  if (t->shape.kind == LB_TOPO_RING && t->n >= 3) {
    side[0] = t->n;
    side[1] = 1;
    return 1;
  }
  if (t->shape.kind == LB_TOPO_TORUS && t->shape.rows >= 3 && t->shape.cols >= 3) {
    side[0] = t->shape.cols;
    side[1] = t->shape.rows;
    return 2;
  }
  return 0;
}

static int uniform(const lb_topo *t, const lbsg_platform *p)
{
  for (size_t i = 1; p->speeds && i < t->n; i++)
    if (p->speeds[i] != p->speeds[0]) return 0;
  return 1;
}

int lbsg_platform_form(const lb_topo *t, const lbsg_platform *p, lbsg_zone *out)
{
  size_t side[2];
  int torus = torus_sides(t, side) && uniform(t, p);
  if (p->zone == LBSG_ZONE_TORUS && !torus)
    return lb_error(LB_EINVAL,
                    "'%s'%s is not a torus of SimGrid's (a ring, or a torus of sides 3 or more, "
                    "hosts of one speed): use the graph form",
                    t->name, uniform(t, p) ? "" : " with its speeds");
  *out = p->zone == LBSG_ZONE_GRAPH || !torus ? LBSG_ZONE_GRAPH : LBSG_ZONE_TORUS;
  return LB_SUCCESS;
}

/* s with XML's five special characters escaped. */
static void put_escaped(FILE *f, const char *s)
{
  for (; *s; s++) switch (*s) {
    case '&': fputs("&amp;", f); break;
    case '<': fputs("&lt;", f); break;
    case '>': fputs("&gt;", f); break;
    case '"': fputs("&quot;", f); break;
    case '\'': fputs("&apos;", f); break;
    default: fputc(*s, f);
    }
}

static int check(const lb_topo *t, const lbsg_platform *p)
{
  if (!t || !t->n) return lb_error(LB_EINVAL, "no graph");
  if (!(p->latency >= 0) || !isfinite(p->latency))
    return lb_error(LB_EINVAL, "latency %g: want a finite value >= 0", p->latency);
  if (!(p->bandwidth >= 0) || !isfinite(p->bandwidth))
    return lb_error(LB_EINVAL, "bandwidth %g: want a finite value >= 0 (0: infinite)", p->bandwidth);
  for (size_t i = 0; i < (p->speeds ? t->n : 1); i++) {
    double s = p->speeds ? p->speeds[i] : p->speed;
    if (!(s > 0) || !isfinite(s)) return lb_error(LB_EINVAL, "speed %g of node %zu: want a finite value > 0", s, i);
  }
  return LB_SUCCESS;
}

int lbsg_platform_write(FILE *f, const lb_topo *t, const lbsg_platform *p)
{
  int rc = check(t, p);
  lbsg_zone form;
  if (rc || (rc = lbsg_platform_form(t, p, &form))) return rc;
  double bw = p->bandwidth > 0 ? p->bandwidth : LBSG_BANDWIDTH_INF;
  const char *policy = p->shared ? "SHARED" : "SPLITDUPLEX";
  fprintf(f, "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
             "<!-- lbfarm: the graph ");
  put_escaped(f, t->name);
  fprintf(f,
          " (%zu nodes, %zu edges); a host per node, a link per edge,\n"
          "     latency %.17g, ",
          t->n, t->m, p->latency);
  if (p->bandwidth > 0) fprintf(f, "bandwidth %.17g bytes per time unit", p->bandwidth);
  else fprintf(f, "bandwidth infinite (written as %g bytes per time unit)", LBSG_BANDWIDTH_INF);
  fprintf(f, " -->\n<platform version=\"4.1\">\n");
  if (form == LBSG_ZONE_TORUS) {
    size_t side[2] = {0, 0};
    int dims = torus_sides(t, side);
    /* The cluster is a zone of its own; the outer one carries the name. */
    fprintf(f, "  <zone id=\"lbfarm\" routing=\"Full\">\n    <prop id=\"lbfarm/topology\" value=\"");
    put_escaped(f, t->name);
    fprintf(f,
            "\"/>\n    <cluster id=\"lbfarm-torus\" prefix=\"" LBSG_HOST_PREFIX "\" suffix=\"\" radical=\"0-%zu\" "
            "speed=\"%.17gf\" bw=\"%.17gBps\" lat=\"%.17gs\" topology=\"TORUS\" topo_parameters=\"",
            t->n - 1, p->speeds ? p->speeds[0] : p->speed, bw, p->latency);
    fprintf(f, dims == 1 ? "%zu" : "%zu,%zu", side[0], side[1]);
    fprintf(f, "\" sharing_policy=\"%s\"/>\n  </zone>\n", policy);
  } else {
    fprintf(f, "  <zone id=\"lbfarm\" routing=\"DijkstraCache\">\n    <prop id=\"lbfarm/topology\" value=\"");
    put_escaped(f, t->name);
    fprintf(f, "\"/>\n");
    for (size_t i = 0; i < t->n; i++)
      fprintf(f, "    <host id=\"" LBSG_HOST_PREFIX "%zu\" speed=\"%.17gf\"/>\n", i,
              p->speeds ? p->speeds[i] : p->speed);
    for (size_t k = 0; k < t->m; k++)
      fprintf(f, "    <link id=\"l%zu-%zu\" bandwidth=\"%.17gBps\" latency=\"%.17gs\" sharing_policy=\"%s\"/>\n",
              t->edge[k][0], t->edge[k][1], bw, p->latency, policy);
    /* One route per edge, symmetrical: the way back takes the link's
     * other direction. */
    for (size_t k = 0; k < t->m; k++)
      fprintf(f,
              "    <route src=\"" LBSG_HOST_PREFIX "%zu\" dst=\"" LBSG_HOST_PREFIX
              "%zu\"><link_ctn id=\"l%zu-%zu\"%s/></route>\n",
              t->edge[k][0], t->edge[k][1], t->edge[k][0], t->edge[k][1], p->shared ? "" : " direction=\"UP\"");
    fprintf(f, "  </zone>\n");
  }
  fprintf(f, "</platform>\n");
  if (fflush(f) || ferror(f)) return lb_error(LB_EIO, "writing the platform failed");
  return LB_SUCCESS;
}
