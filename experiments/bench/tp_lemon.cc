// tp_lemon: lb_tp_solve (both starts) against LEMON's NetworkSimplex on
// transport instances written by `bench_planners --dump`, alternating,
// CPU time, median of REPS.  Benchmark only: LEMON is not a dependency
// of the library or the tests.  Built by experiments/bench/transport.sh.
// Usage: tp_lemon REPS FILE...   CSV on stdout.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <cstdint>
#include <vector>
#include <lemon/smart_graph.h>
#include <lemon/network_simplex.h>
extern "C" {
#include "lb_transport.h"
}

static double cpu()
{
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static double median(std::vector<double> v)
{
  std::sort(v.begin(), v.end());
  size_t k = v.size();
  return k % 2 ? v[k / 2] : 0.5 * (v[k / 2 - 1] + v[k / 2]);
}

int main(int argc, char **argv)
{
  if (argc < 3) {
    std::fprintf(stderr, "usage: tp_lemon REPS FILE...\n");
    return 2;
  }
  int reps = std::atoi(argv[1]);
  std::printf("file,m,n,cost_nwc,cost_vogel,cost_lemon,cpu_nwc,cpu_vogel,cpu_lemon\n");
  for (int f = 2; f < argc; f++) {
    FILE *in = std::fopen(argv[f], "rb");
    uint64_t mn[2];
    if (!in || std::fread(mn, sizeof mn, 1, in) != 1) {
      std::perror(argv[f]);
      return 1;
    }
    size_t m = mn[0], n = mn[1];
    std::vector<double> c(m * n);
    std::vector<int64_t> s(m), d(n);
    if (std::fread(c.data(), sizeof(double), m * n, in) != m * n || std::fread(s.data(), sizeof(int64_t), m, in) != m ||
        std::fread(d.data(), sizeof(int64_t), n, in) != n) {
      std::fprintf(stderr, "%s: truncated\n", argv[f]);
      return 1;
    }
    std::fclose(in);
    std::vector<long> sl(s.begin(), s.end()), dl(d.begin(), d.end()), x(m * n);
    long S = 0, D = 0;
    for (long v : sl) S += v;
    for (long v : dl) D += v;
    // The same problem natively: rows supply at most s_i (exactly when
    // S <= D), columns take at most d_j (exactly when D <= S).
    lemon::SmartDigraph g;
    std::vector<lemon::SmartDigraph::Node> node(m + n);
    for (size_t k = 0; k < m + n; k++) node[k] = g.addNode();
    g.reserveArc((int)(m * n));
    for (size_t i = 0; i < m; i++)
      for (size_t j = 0; j < n; j++) g.addArc(node[i], node[m + j]);
    lemon::SmartDigraph::ArcMap<double> cost(g);
    lemon::SmartDigraph::NodeMap<long> sup(g);
    for (size_t a = 0; a < m * n; a++) cost[g.arcFromId((int)a)] = c[a];
    for (size_t i = 0; i < m; i++) sup[node[i]] = sl[i];
    for (size_t j = 0; j < n; j++) sup[node[m + j]] = -dl[j];
    typedef lemon::NetworkSimplex<lemon::SmartDigraph, long, double> NS;
    NS::SupplyType type = S >= D ? NS::LEQ : NS::GEQ;
    std::vector<double> tn, tv, tl;
    double zn = 0, zv = 0, zl = 0;
    for (int r = 0; r < reps; r++) {
      double t0 = cpu();
      if (lb_tp_solve(m, n, c.data(), sl.data(), dl.data(), LB_TP_NWC, x.data(), &zn, NULL)) return 1;
      double t1 = cpu();
      if (lb_tp_solve(m, n, c.data(), sl.data(), dl.data(), LB_TP_VOGEL, x.data(), &zv, NULL)) return 1;
      double t2 = cpu();
      NS ns(g);
      ns.costMap(cost).supplyMap(sup).supplyType(type);
      if (ns.run() != NS::OPTIMAL) {
        std::fprintf(stderr, "LEMON: not optimal\n");
        return 1;
      }
      zl = ns.totalCost();
      double t3 = cpu();
      tn.push_back(t1 - t0);
      tv.push_back(t2 - t1);
      tl.push_back(t3 - t2);
    }
    std::printf("%s,%zu,%zu,%.0f,%.0f,%.0f,%.6f,%.6f,%.6f\n", argv[f], m, n, zn, zv, zl, median(tn), median(tv),
                median(tl));
  }
  return 0;
}
