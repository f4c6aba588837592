/* lbsg_platform.h: a processor graph as a SimGrid platform (XML,
 * version 4.1), so that a SimGrid run and lbsim see the same graph and
 * costs: a host n<i> per node with its speed (work units per time unit
 * as flop/s), one link per edge with the per-hop latency and bandwidth,
 * and routes along the graph's shortest paths.
 *
 * Two forms:
 *   graph  every host, link and one-link route written out, in a zone
 *          whose routing is SimGrid's Dijkstra with its cache: SimGrid
 *          finds the shortest paths itself (fewest links, as the
 *          graph's hop distance).  Any graph.
 *   torus  SimGrid's own torus cluster (one link per edge, routes
 *          dimension by dimension the short way round): a ring or a
 *          torus of sides 3 or more whose hosts all have one speed.
 *          A Dijkstra zone keeps a row of n entries per sending host
 *          (2 GiB at 16 384 hosts), the cluster nothing.
 *   auto   torus where it applies, else graph.
 *
 * Plain C, no SimGrid: lbtopo writes platforms on any machine. */
#ifndef LBSG_PLATFORM_H
#define LBSG_PLATFORM_H

#include <stdio.h>
#include "lb_topo.h"

typedef enum { LBSG_ZONE_AUTO = 0, LBSG_ZONE_GRAPH, LBSG_ZONE_TORUS } lbsg_zone;

/* What "infinite" bandwidth (0) becomes: SimGrid wants a capacity. */
#define LBSG_BANDWIDTH_INF 1e30

typedef struct lbsg_platform {
  double latency;       /* per link, time units (seconds to SimGrid), >= 0 */
  double bandwidth;     /* bytes per time unit, > 0; 0: LBSG_BANDWIDTH_INF */
  double speed;         /* every host's speed, > 0 ... */
  const double *speeds; /* ... unless these (one per node) */
  int shared;           /* one capacity for both directions of a link
                          * (SimGrid's SHARED); 0: each direction its
                          * own (SPLITDUPLEX, a full-duplex link) */
  lbsg_zone zone;
} lbsg_platform;

/* Latency 1, bandwidth infinite, speed 1, full duplex, auto. */
void lbsg_platform_default(lbsg_platform *p);
/* "auto", "graph", "torus" and back. */
int lbsg_zone_from_name(const char *s, lbsg_zone *out);
/* The form `auto` resolves to for t, or LB_EINVAL (with the reason)
 * when `torus` was asked for a graph it cannot describe. */
int lbsg_platform_form(const lb_topo *t, const lbsg_platform *p, lbsg_zone *out);
/* Write the platform of t to f.  LB_EINVAL for a bad value, LB_EIO
 * when writing failed. */
int lbsg_platform_write(FILE *f, const lb_topo *t, const lbsg_platform *p);
/* The name of node i's host: "n<i>". */
#define LBSG_HOST_PREFIX "n"

#endif
