/* lbsimgrid: lbsim's run on SimGrid.  The same options, report and CSV
 * as lbsim (sim/sim_cli.h), the same nodes, workload, costs, codec and
 * checks; SimGrid's actors, executions and network carry time and
 * messages (lbsg_actor.h).  Its own options: the platform, and
 * SimGrid's --cfg= and --log=. */
#include <cstring>
#include <string>
#include <vector>
#include <simgrid/s4u.hpp>
#include "lbsg_actor.h"
extern "C" {
#include "cli.h"
#include "lb_errno.h"
#include "sim_cli.h"
}

namespace {

/* SimGrid's settings lbsimgrid starts from, before the user's --cfg= and
 * --log=, which come after and win:
 *   network/model:CM02   links cost latency + size / bandwidth, shared
 *                        max-min between the flows that cross them; the
 *                        default LV08 multiplies every latency by 13.01
 *                        (TCP slow start), which a per-hop latency given
 *                        as lbsim's would not mean;
 *   network/TCP-gamma:0  no TCP window bound (window / (2 x latency) per
 *                        flow), which lbsim has not either: a lone
 *                        message costs what it costs in lbsim, and
 *                        "infinite" bandwidth stays infinite;
 *   contexts/stack-size  256 KiB per actor instead of 8 MiB: 16 384 nodes
 *                        fit in memory, and a node's step needs far less;
 *   xbt_cfg at warning   no line on stderr per setting. */
const char *const defaults[] = { "--log=xbt_cfg.thres:warning", "--cfg=network/model:CM02",
                                 "--cfg=network/TCP-gamma:0", "--cfg=contexts/stack-size:256" };

void usage(FILE *f)
{
  fprintf(f, "\nlbsimgrid runs the same nodes as lbsim's, one SimGrid actor per node on\n"
             "host n<i> of a SimGrid platform: quanta are executions at the host's\n"
             "speed, messages (the codec's bytes) cross the platform's links.\n"
             "      --platform F    the platform (SimGrid XML) to run on: a host n<i> for\n"
             "                      node i and no other, of that node's speed (default:\n"
             "                      lbtopo platform's for the graph, --latency, --bandwidth\n"
             "                      and --speeds, written to a temporary file)\n"
             "      --zone Z        that platform's form: graph, torus or auto (lbtopo\n"
             "                      --help) (default auto)\n"
             "      --sharing S     its links: full (each direction its own bandwidth) or\n"
             "                      shared (default full)\n"
             "      --reverse-actors  make the nodes' actors last to first: SimGrid then\n"
             "                      takes simultaneous events in another order (how much\n"
             "                      a run's result owes to ties)\n"
             "      --cfg=NAME:V    a SimGrid option (here network/model:CM02,\n"
             "                      network/TCP-gamma:0, contexts/stack-size:256 unless\n"
             "                      given); --log= its logs\n"
             "--crash, --freeze, --partition and --corrupt are not simulated here (lbsim's\n"
             "alone).\n\n");
}

int run(const lb_sim_config *c, lb_sim_result *r, void *ctx)
{
  return lbsg_simulate(c, r, static_cast<const lbsg_options *>(ctx));
}

/* Take --platform, --zone and --sharing (as --opt V or --opt=V) and
 * --reverse-actors out of args; lbsim's parser gets the rest. */
void own_options(std::vector<char *> &args, lbsg_options *o)
{
  for (size_t k = 1; k < args.size();) {
    const char *a = args[k];
    if (!strcmp(a, "--reverse-actors")) {
      o->reverse = 1;
      args.erase(args.begin() + (long)k);
      continue;
    }
    const char *names[] = { "--platform", "--zone", "--sharing" };
    int which = -1;
    const char *v = nullptr;
    for (int j = 0; j < 3; j++) {
      size_t len = strlen(names[j]);
      if (!strncmp(a, names[j], len) && (a[len] == '\0' || a[len] == '=')) {
        which = j;
        v = a[len] == '=' ? a + len + 1 : nullptr;
      }
    }
    if (which < 0) { k++; continue; }
    size_t take = 1;
    if (!v) {
      if (k + 1 >= args.size()) cli_usage_error("%s needs a value", names[which]);
      v = args[k + 1];
      take = 2;
    }
    if (which == 0) o->platform = v;
    else if (which == 1) {
      if (lbsg_zone_from_name(v, &o->zone)) cli_usage_error("--zone: %s", lb_errmsg());
    } else if (!strcmp(v, "full")) o->shared = 0;
    else if (!strcmp(v, "shared")) o->shared = 1;
    else cli_usage_error("--sharing: unknown sharing '%s' (full, shared)", v);
    args.erase(args.begin() + (long)k, args.begin() + (long)(k + take));
  }
}

}  // namespace

int main(int argc, char **argv)
{
  cli_init(argv[0]);
  /* --version and --help before SimGrid's engine, which answers both
   * itself. */
  cli_version_opt(argc, argv);
  lbsg_options o = {};
  const sim_cli_driver d = { "lbsimgrid", run, &o, usage };
  for (int k = 1; k < argc; k++)
    if (!strcmp(argv[k], "--help") || !strcmp(argv[k], "-h")) {
      char help[] = "--help";
      char *a[] = { argv[0], help, nullptr };
      return sim_cli_main(2, a, &d);
    }
  std::vector<char *> args(argv, argv + argc);
  own_options(args, &o);
  std::vector<std::string> dflt(std::begin(defaults), std::end(defaults));
  for (size_t k = 0; k < dflt.size(); k++) args.insert(args.begin() + 1 + (long)k, dflt[k].data());
  int n = (int)args.size();
  args.push_back(nullptr);
  simgrid::s4u::Engine e(&n, args.data());
  return sim_cli_main(n, args.data(), &d);
}
