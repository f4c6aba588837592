/* lbsim: run one balancing policy in the discrete-event simulator. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "lb_sim.h"
#include "lb_optimum.h"
#include "lb_errno.h"
#include "lb_rt.h"

static void usage(void)
{
  printf("Usage: lbsim [OPTIONS]\n"
         "Simulate a load-balancing policy over a processor graph and report the\n"
         "makespan against the ideal, the messages and the migrations.  Every run\n"
         "also checks the protocol invariants (each process runs once, each result\n"
         "reaches its origin once, no lock or table entry is left at the end).\n\n"
         "Options:\n"
         "      --profile P     unit (latency 1, no message costs) or farm (the PVM\n"
         "                      farm's costs in units of its 10 ms quantum); set first,\n"
         "                      the other options then change it (default unit)\n"
         "  -p, --policy P      none, rmtlb, lowest, dasud, cchspmd, diffusion,\n"
         "                      diffusion2 (default rmtlb)\n"
         "  -t, --topology T    ring:N, mesh:RxC, torus:RxC, hypercube:D, complete:N,\n"
         "                      star:N, random:N[:EXTRA[:SEED]] or a graph file\n"
         "                      (default torus:8x8)\n"
         "  -l, --load L        skew (80%% of the processes on an eighth of the nodes),\n"
         "                      random, one (all on node 0), or trace:FILE with\n"
         "                      'time node work' lines (default skew)\n"
         "  -s, --seed N        random seed (default 1)\n"
         "  -n, --procs N       processes (default 2 x capacity x nodes)\n"
         "  -w, --work W        mean work per process, uniform in 0.5W..1.5W (default 10)\n"
         "  -C, --capacity C    processes a node holds in its normal band (default 4)\n"
         "  -A, --threshold A   band half-width (default 10%% of C)\n"
         "      --threshold-ceil  round the default A up to a whole process\n"
         "      --speeds LIST   comma-separated speeds, one per node (default all 1)\n"
         "      --latency X     time per hop (default 1)\n"
         "      --bandwidth B   bytes per time unit, 0 = infinite (default 0)\n"
         "      --jitter J      extra delay, uniform in [0, J x latency) (default 0)\n"
         "      --quantum Q     longest compute slice (default 1)\n"
         "      --probes K      LOWEST: nodes probed (default 3)\n"
         "      --hop-time H    expected one-hop time of a small message (default the\n"
         "                      worst one: latency x (1 + jitter) + its size / bandwidth)\n"
         "      --tmax T        RMTLB: answer window (default 2 x hop time x eccentricity);\n"
         "                      LOWEST: probe timeout (default 4 x hop time x eccentricity)\n"
         "      --backoff-max K RMTLB: after a round with no answer wait 2^j windows,\n"
         "                      j up to K, before searching again (default 0: search\n"
         "                      again at once, as the paper); LOWEST: the same\n"
         "                      after a round with no light node (default 5)\n"
         "      --drain F       the variant RMTLB-drain: the load index is the work\n"
         "                      left in mean processes (the load's mean work), and C\n"
         "                      starts at --capacity (default: processes / nodes,\n"
         "                      rounded up) and falls by one for each mean process's\n"
         "                      work a node runs, down to F (default 0: the paper)\n"
         "      --period P      DASUD, diffusion, CCHSPMD: exchange period (default 1)\n"
         "      --plan P        CCHSPMD: greedy, or transport (fewest hops) (default greedy)\n"
         "      --alpha X       diffusion: uniform coefficient (default Boillat's per edge)\n"
         "      --beta X        diffusion2: beta in (0,2) (default beta_opt of the graph)\n"
         "      --results M     where result bytes go: origin (back along the protocol's\n"
         "                      path, as the paper) or direct (to the sink from where the\n"
         "                      process finished; the path carries a receipt) (default\n"
         "                      direct, as the farm's)\n"
         "      --sched S       rr (each node time-shares its processes, one quantum\n"
         "                      each) or fifo (one at a time to completion) (default rr)\n"
         "      --no-codec      pass messages as structures, not through the byte codec\n"
         "      --no-optimum    skip the fewest process-hops that balance the start\n"
         "                      (a transport problem; for timing the simulator itself)\n"
         "      --ctx-bytes N   bytes of a process's context, moved with it (default 8)\n"
         "      --leaving       contexts as on the farm: each node keeps a live copy of\n"
         "                      the processes that ran there and saves it into one\n"
         "                      only when it leaves (default: the node gets the\n"
         "                      context after every quantum)\n"
         "      --result-bytes N  bytes of a result (default 8)\n"
         "      --cost-msg X    CPU time a node spends on each message it sends, relays\n"
         "                      or takes (default 0)\n"
         "      --cost-byte X   ... and on each byte of it (default 0)\n"
         "      --poll 0|1      1: a node takes messages only between quanta (default 0)\n"
         "      --route R       hops (a message for a node that is not a neighbour goes\n"
         "                      through the graph, a neighbour at a time) or direct\n"
         "                      (default hops)\n"
         "      --crash T:NODE  NODE fails at time T (repeat for more); its processes,\n"
         "                      held results and messages in flight are lost, and the\n"
         "                      sink runs the lost processes again\n"
         "      --detect D      time from a failure to the survivors knowing (default\n"
         "                      2 x latency + 1)\n"
         "      --load-csv F    write the load over time (time,queued,max,min,heavy,light)\n"
         "      --sample DT     sampling interval of --load-csv (default 1)\n"
         "      --msg-trace F   write one CSV line per message sent\n"
         "      --csv           print one CSV header line and one data line\n"
         "      --max-events N  give up (a violation) after N events (default 200 million)\n"
         "  -h, --help          show this help and exit\n\n"
         "Every invariant violation is printed on stderr.\n\n"
         "Exit status: 0 success, 1 an invariant was violated, 2 bad input.\n");
}

static FILE *open_out(const char *opt, const char *path)
{
  FILE *f = fopen(path, "w");
  if (!f) cli_usage_error("%s: cannot write '%s'", opt, path);
  return f;
}

int main(int argc, char **argv)
{
  enum { O_SPEEDS = 256, O_LAT, O_BW, O_JIT, O_QUANT, O_PROBES, O_PERIOD, O_CSVLOAD, O_SAMPLE, O_TRACE, O_CSV, O_ALPHA, O_BETA, O_BACKOFF, O_TMAX, O_MAXEV, O_PLAN, O_HOP, O_RESULTS, O_SCHED, O_NOCODEC, O_CRASH, O_DETECT, O_ACEIL, O_PROFILE, O_COSTMSG, O_COSTBYTE, O_POLL, O_ROUTE, O_CTXB, O_RESB, O_NOOPT, O_DRAIN, O_LEAVING };
  static const struct option opts[] = {
    { "policy", required_argument, 0, 'p' }, { "topology", required_argument, 0, 't' },
    { "load", required_argument, 0, 'l' }, { "seed", required_argument, 0, 's' },
    { "procs", required_argument, 0, 'n' }, { "work", required_argument, 0, 'w' },
    { "capacity", required_argument, 0, 'C' }, { "threshold", required_argument, 0, 'A' },
    { "speeds", required_argument, 0, O_SPEEDS }, { "latency", required_argument, 0, O_LAT },
    { "bandwidth", required_argument, 0, O_BW }, { "jitter", required_argument, 0, O_JIT },
    { "quantum", required_argument, 0, O_QUANT }, { "probes", required_argument, 0, O_PROBES },
    { "period", required_argument, 0, O_PERIOD }, { "load-csv", required_argument, 0, O_CSVLOAD },
    { "sample", required_argument, 0, O_SAMPLE }, { "msg-trace", required_argument, 0, O_TRACE },
    { "csv", no_argument, 0, O_CSV }, { "alpha", required_argument, 0, O_ALPHA },
    { "beta", required_argument, 0, O_BETA }, { "backoff-max", required_argument, 0, O_BACKOFF },
    { "tmax", required_argument, 0, O_TMAX }, { "max-events", required_argument, 0, O_MAXEV },
    { "plan", required_argument, 0, O_PLAN }, { "hop-time", required_argument, 0, O_HOP },
    { "results", required_argument, 0, O_RESULTS }, { "sched", required_argument, 0, O_SCHED },
    { "no-codec", no_argument, 0, O_NOCODEC }, { "no-optimum", no_argument, 0, O_NOOPT }, { "crash", required_argument, 0, O_CRASH },
    { "detect", required_argument, 0, O_DETECT }, { "threshold-ceil", no_argument, 0, O_ACEIL },
    { "profile", required_argument, 0, O_PROFILE }, { "cost-msg", required_argument, 0, O_COSTMSG },
    { "cost-byte", required_argument, 0, O_COSTBYTE }, { "poll", required_argument, 0, O_POLL },
    { "route", required_argument, 0, O_ROUTE }, { "ctx-bytes", required_argument, 0, O_CTXB },
    { "result-bytes", required_argument, 0, O_RESB }, { "drain", required_argument, 0, O_DRAIN }, { "leaving", no_argument, 0, O_LEAVING }, { "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 }
  };
  cli_init(argv[0]);
  lb_sim_config c;
  lb_sim_config_default(&c);
  /* The profile sets every default; the other options then change them,
   * wherever it stands on the command line. */
  for (int k = 1; k < argc; k++) {
    const char *v = !strcmp(argv[k], "--profile") && k + 1 < argc ? argv[k + 1]
                  : !strncmp(argv[k], "--profile=", 10) ? argv[k] + 10 : NULL;
    if (!v) continue;
    if (!strcmp(v, "farm")) lb_sim_config_farm(&c);
    else if (strcmp(v, "unit")) cli_usage_error("--profile: unknown profile '%s' (unit, farm)", v);
  }
  c.node.results = LB_RESULTS_DIRECT;   /* the farm's default */
  c.policy = LB_POLICY_RMTLB;
  c.seed = 1;
  const char *topo_spec = "torus:8x8", *load = "skew", *speeds = NULL;
  const char *csv_path = NULL, *trace_path = NULL;
  double sample_dt = 1;
  lb_sim_crash crash[64];
  size_t ncrash = 0;
  int csv = 0, ch, cap_given = 0;
  while ((ch = getopt_long(argc, argv, ":p:t:l:s:n:w:C:A:h", opts, NULL)) != -1) {
    switch (ch) {
    case 'p':
      if (lb_policy_from_name(optarg, &c.policy)) cli_usage_error("--policy: %s", lb_errmsg());
      break;
    case 't': topo_spec = optarg; break;
    case 'l': load = optarg; break;
    case 's': c.seed = cli_ulong("--seed", optarg, 0, 4294967295ul); break;
    case 'n': c.nproc = cli_ulong("--procs", optarg, 1, 100000000ul); break;
    case 'w': c.work = cli_double("--work", optarg, 1e-9, 1e12); break;
    case 'C': c.node.capacity = (int)cli_ulong("--capacity", optarg, 0, 1000000); cap_given = 1; break;
    case 'A': c.node.threshold = cli_double("--threshold", optarg, 0, 1e6); break;
    case O_ACEIL: c.node.threshold_ceil = 1; break;
    case O_PROFILE: break;   /* applied first, above */
    case O_CTXB: c.ctx_len = cli_ulong("--ctx-bytes", optarg, 8, 1ul << 30); break;
    case O_RESB: c.result_len = cli_ulong("--result-bytes", optarg, 8, 1ul << 30); break;
    case O_COSTMSG: c.cost_msg = cli_double("--cost-msg", optarg, 0, 1e9); break;
    case O_COSTBYTE: c.cost_byte = cli_double("--cost-byte", optarg, 0, 1e9); break;
    case O_POLL: c.poll = (int)cli_ulong("--poll", optarg, 0, 1); break;
    case O_ROUTE:
      if (!strcmp(optarg, "hops")) c.node.route = LB_ROUTE_HOPS;
      else if (!strcmp(optarg, "direct")) c.node.route = LB_ROUTE_DIRECT;
      else cli_usage_error("--route: unknown route '%s' (hops, direct)", optarg);
      break;
    case O_SPEEDS: speeds = optarg; break;
    case O_LAT: c.latency = cli_double("--latency", optarg, 0, 1e9); break;
    case O_BW: c.bandwidth = cli_double("--bandwidth", optarg, 0, 1e18); break;
    case O_JIT: c.jitter = cli_double("--jitter", optarg, 0, 1e6); break;
    case O_QUANT: c.quantum = cli_double("--quantum", optarg, 1e-9, 1e12); break;
    case O_PROBES: c.node.lowest.probes = cli_ulong("--probes", optarg, 1, 1000000); break;
    case O_PERIOD:
      c.node.dasud.period = c.node.cchspmd.period = c.node.diffusion.period =
        cli_double("--period", optarg, 1e-9, 1e12);
      break;
    case O_CSVLOAD: csv_path = optarg; break;
    case O_SAMPLE: sample_dt = cli_double("--sample", optarg, 1e-9, 1e12); break;
    case O_TRACE: trace_path = optarg; break;
    case O_CSV: csv = 1; break;
    case O_ALPHA: c.node.diffusion.alpha = cli_double("--alpha", optarg, 1e-9, 1); break;
    case O_BACKOFF:
      c.node.rmtlb.backoff_max = c.node.lowest.backoff_max = (unsigned)cli_ulong("--backoff-max", optarg, 0, 20);
      break;
    case O_PLAN:
      if (!strcmp(optarg, "greedy")) c.node.cchspmd.plan = 0;
      else if (!strcmp(optarg, "transport")) c.node.cchspmd.plan = 1;
      else cli_usage_error("--plan: unknown plan '%s' (greedy, transport)", optarg);
      break;
    case O_MAXEV: c.max_events = cli_ulong("--max-events", optarg, 1, 4000000000ul); break;
    case O_TMAX: c.node.rmtlb.tmax = c.node.lowest.timeout = cli_double("--tmax", optarg, 1e-9, 1e12); break;
    case O_DRAIN: c.node.rmtlb.drain = cli_double("--drain", optarg, 0, 1e6); break;
    case O_LEAVING: c.leaving = 1; break;
    case O_BETA: c.node.diffusion.beta = cli_double("--beta", optarg, 1e-9, 1.999999); break;
    case O_HOP: c.node.hop_time = cli_double("--hop-time", optarg, 1e-12, 1e12); break;
    case O_RESULTS:
      if (lb_results_from_name(optarg, &c.node.results)) cli_usage_error("--results: %s", lb_errmsg());
      break;
    case O_SCHED:
      if (!strcmp(optarg, "rr")) c.node.sched = LB_SCHED_RR;
      else if (!strcmp(optarg, "fifo")) c.node.sched = LB_SCHED_FIFO;
      else cli_usage_error("--sched: unknown schedule '%s' (rr, fifo)", optarg);
      break;
    case O_NOCODEC: c.codec = 0; break;
    case O_NOOPT: c.optimum = 0; break;
    case O_CRASH: {
      char *colon = strchr(optarg, ':');
      if (!colon || ncrash == sizeof crash / sizeof *crash) cli_usage_error("--crash: expected TIME:NODE (at most 64)");
      *colon = '\0';
      crash[ncrash].t = cli_double("--crash TIME", optarg, 0, 1e15);
      crash[ncrash].node = cli_ulong("--crash NODE", colon + 1, 0, 100000000ul);
      ncrash++;
      break;
    }
    case O_DETECT: c.detect = cli_double("--detect", optarg, 1e-9, 1e12); break;
    case 'h': usage(); return 0;
    default: cli_bad_option(ch, argc, argv);
    }
  }
  if (optind < argc) cli_usage_error("unexpected argument '%s'", argv[optind]);
  lb_topo *t;
  if (lb_topo_from_spec(topo_spec, &t)) cli_usage_error("--topology: %s", lb_errmsg());
  c.topo = t;
  c.crashes = crash;
  c.ncrashes = ncrash;
  for (size_t k = 0; k < ncrash; k++)
    if (crash[k].node >= t->n) cli_usage_error("--crash: node %zu of %zu", crash[k].node, t->n);
  lb_sim_arrival *arr = NULL;
  if (!strcmp(load, "skew")) c.load = LB_SIM_LOAD_SKEW;
  else if (!strcmp(load, "random")) c.load = LB_SIM_LOAD_RANDOM;
  else if (!strcmp(load, "one")) c.load = LB_SIM_LOAD_ONE;
  else if (!strncmp(load, "trace:", 6)) {
    c.load = LB_SIM_LOAD_TRACE;
    if (lb_sim_read_trace(load + 6, t->n, &arr, &c.ntrace)) cli_usage_error("--load: %s", lb_errmsg());
    c.trace = arr;
  } else cli_usage_error("--load: unknown load '%s' (skew, random, one, trace:FILE)", load);
  if (c.node.rmtlb.drain > 0) {
    /* RMTLB-drain starts C at the average queue and counts work in
     * mean processes of this load. */
    size_t np = c.load == LB_SIM_LOAD_TRACE ? c.ntrace : c.nproc ? c.nproc : (size_t)c.node.capacity * t->n * 2;
    if (!cap_given) c.node.capacity = (int)((np + t->n - 1) / t->n);
    double sum = 0;
    for (size_t k = 0; c.load == LB_SIM_LOAD_TRACE && k < c.ntrace; k++) sum += arr[k].work;
    c.node.rmtlb.work_mean = c.load == LB_SIM_LOAD_TRACE ? sum / (double)c.ntrace : c.work;
  }
  double *sp = NULL;
  if (speeds) {
    if (!(sp = malloc(t->n * sizeof *sp))) cli_die(CLI_EXIT_FAIL, "out of memory");
    size_t k = cli_doubles("--speeds", speeds, sp, t->n, 1e-9, 1e12);
    if (k != t->n) cli_usage_error("--speeds: %zu values for %zu nodes", k, t->n);
    c.speeds = sp;
  }
  if (csv_path) { c.load_csv = open_out("--load-csv", csv_path); c.sample_dt = sample_dt; }
  if (trace_path) {
    c.msg_trace = open_out("--msg-trace", trace_path);
    fprintf(c.msg_trace, "%s\n", lb_rt_trace_header());
  }
  c.violation_log = stderr;
  lb_sim_result r;
  int rc = lb_sim_run(&c, &r);
  if (c.load_csv) fclose(c.load_csv);
  if (c.msg_trace) fclose(c.msg_trace);
  if (rc) cli_die(rc == LB_EINVAL || rc == LB_ERANGE ? CLI_EXIT_USAGE : CLI_EXIT_FAIL, "%s", lb_errmsg());
  double ipe = r.episodes ? (double)r.invocations / (double)r.episodes : 0;
  unsigned long placed = 0;
  for (int k = 1; k < 8; k++) placed += r.placed[k];
  if (csv) {
    printf("policy,topology,nodes,procs,seed,makespan,ideal,ratio,messages,bytes,migrated,hops,"
           "episodes,invocations,inv_per_episode,violations,migrated_started,ctx_bytes,results,sched,"
           "crashed,lost,reruns,duplicates,orphans,placed1,placed,dissolved,hops_optimal,hops_ratio");
    for (int k = 0; k < LB_MSG_NTYPES; k++) printf(",%s", lb_msg_type_name((lb_msg_type)k));
    printf("\n%s,%s,%zu,%zu,%lu,%.17g,%.17g,%.17g,%lu,%lu,%lu,%lu,%lu,%lu,%.17g,%lu,%lu,%lu,%s,%s,%lu,%lu,%lu,%lu,%lu,%lu,%lu,%lu",
           lb_policy_name(c.policy), t->name, t->n, r.nproc, c.seed, r.makespan, r.ideal,
           r.makespan / r.ideal, r.messages, r.bytes, r.migrated, r.hops, r.episodes,
           r.invocations, ipe, r.violations, r.migrated_started, r.ctx_bytes,
           lb_results_name(c.node.results), c.node.sched == LB_SCHED_RR ? "rr" : "fifo", r.crashed, r.lost,
           r.reruns, r.duplicates, r.orphans, r.placed[1], placed, r.dissolved);
    if (r.hops_optimal >= 0) printf(",%ld,%.17g", r.hops_optimal, lb_optimum_ratio(r.hops, (unsigned long)r.hops_optimal));
    else printf(",,");
    for (int k = 0; k < LB_MSG_NTYPES; k++) printf(",%lu", r.sent[k]);
    printf("\n");
  } else {
    printf("policy          %s\ntopology        %s (%zu nodes)\nprocesses       %zu\n"
           "makespan        %.6g\nideal           %.6g\nratio           %.4f\n",
           lb_policy_name(c.policy), t->name, t->n, r.nproc, r.makespan, r.ideal, r.makespan / r.ideal);
    printf("messages        %lu (", r.messages);
    int first = 1;
    for (int k = 0; k < LB_MSG_NTYPES; k++)
      if (r.sent[k]) { printf("%s%s %lu", first ? "" : ", ", lb_msg_type_name((lb_msg_type)k), r.sent[k]); first = 0; }
    printf(")\nbytes           %lu\nmigrated        %lu (%lu started)\nprocess-hops    %lu",
           r.bytes, r.migrated, r.migrated_started, r.hops);
    if (r.hops_optimal >= 0)
      printf(" (fewest that balance the start: %ld; ratio %.4g)", r.hops_optimal,
             lb_optimum_ratio(r.hops, (unsigned long)r.hops_optimal));
    else
      printf(" (fewest that balance the start: not computed%s)", c.optimum ? ", problem too large" : "");
    printf("\n"
           "heavy episodes  %lu\ninvocations     %lu (%.3g per episode)\n"
           "placed         %lu episodes (%lu by one flood, %lu by two, %lu by three or more); %lu dissolved\n"
           "failures        %lu (%lu processes lost, %lu run again, %lu duplicates dropped, %lu results off their path)\n"
           "events          %lu\n"
           "violations      %lu%s%s\n", r.episodes, r.invocations, ipe,
           placed, r.placed[1], r.placed[2], placed - r.placed[1] - r.placed[2], r.dissolved, r.crashed, r.lost, r.reruns, r.duplicates, r.orphans, r.events, r.violations, r.violations ? ": " : "", r.first_violation);
  }
  free(arr);
  free(sp);
  lb_topo_free(t);
  return r.violations ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}
