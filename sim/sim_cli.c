/* sim_cli.c: lbsim's command line, for any driver of a simulated run
 * (sim_cli.h): lbsim's own event loop, or SimGrid's. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "cli_param.h"
#include "cli_csv.h"
#include "lb_sim.h"
#include "lb_optimum.h"
#include "lb_errno.h"
#include "lb_rt.h"
#include "lb_trace.h"
#include "lb_lease.h"
#include <math.h>
#include "sim_cli.h"

static void usage(const sim_cli_driver *d, const lb_sim_config *dflt)
{
  printf("Usage: %s [OPTIONS]\n"
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
         "                      'time node work [estimate]' lines, the estimate being\n"
         "                      the work the application declares (default skew)\n"
         "  -n, --procs N       processes (default 2 x capacity x nodes)\n"
         "  -w, --work W        mean work per process, uniform in 0.5W..1.5W (default 10)\n"
         "      --speeds LIST   comma-separated speeds, one per node (default all 1)\n"
         "      --rates LIST    the CPU each node actually gets, one per node, where it\n"
         "                      differs from the speed its policy knows and plans with\n"
         "                      (--speeds): a replay of a farm run, whose hosts received\n"
         "                      other shares than lbmaster's --speeds (default: the\n"
         "                      speeds)\n"
         "      --latency X     time per hop (default 1)\n"
         "      --bandwidth B   bytes per time unit, 0 = infinite (default 0); pack:\n"
         "                      1 / --cost-byte, a message crosses each link in the time\n"
         "                      its sender spends on its bytes, so it leaves once packed\n"
         "                      (the farm's worker writes it whole into its pvmd, which\n"
         "                      runs unthrottled); infinite without a cost a byte\n"
         "      --jitter J      extra delay, uniform in [0, J x latency) (default 0)\n"
         "      --quantum Q     longest compute slice (default 1)\n"
         "      --no-codec      pass messages as structures, not through the byte codec\n"
         "      --no-optimum    skip the fewest process-hops that balance the start\n"
         "                      (a transport problem; for timing the simulator itself)\n"
         "      --ctx-bytes N   bytes of a process's context, moved with it (default 8)\n"
         "      --ctx-bytes-started N  ... once the process has run a quantum (default:\n"
         "                      the same; matmul's grows from its descriptor to its\n"
         "                      block's partial sums)\n"
         "      --leaving       contexts as on the farm: each node keeps a live copy of\n"
         "                      the processes that ran there and saves it into one\n"
         "                      only when it leaves (default: the node gets the\n"
         "                      context after every quantum)\n"
         "      --result-bytes N  bytes of a result (default 8)\n"
         "      --cost-msg X    CPU time a node spends on each message it sends, relays\n"
         "                      or takes (default 0)\n"
         "      --cost-byte X   ... and on each byte of it (default 0)\n"
         "      --host-setup X  CPU time a node spends once, before its first quantum\n"
         "                      (a workload's per-host set-up; default 0)\n"
         "      --poll 0|1      1: a node takes messages only between quanta (default 0)\n"
         "      --crash T:NODE  NODE fails at time T (repeat for more); its processes,\n"
         "                      held results and messages in flight are lost, and the\n"
         "                      sink runs the lost processes again\n"
         "      --detect D      time from a failure to the survivors knowing (default\n"
         "                      2 x latency + 1)\n"
         "      --freeze T:NODE[:D]  a silent fault: NODE stops at time T for D (default:\n"
         "                      for good), then goes on; nothing tells the others\n"
         "      --partition T:NODE:D  a silent fault: from T for D nothing NODE sends or\n"
         "                      is sent arrives; then what was held does\n"
         "                      With silent faults every node renews a lease with the\n"
         "                      master (--lease-period, --lease); a node whose lease\n"
         "                      runs out is fenced: its work runs again, and what it\n"
         "                      sends from then on is dropped (one fault a node)\n"
         "      --corrupt NODE:F  a fraction F of the results NODE makes are wrong: the\n"
         "                      sink rejects each and runs it again elsewhere, and\n"
         "                      excludes NODE after 3 (as if it failed)\n"
         "      --load-csv F    write the load over time (time,queued,max,min,heavy,light)\n"
         "      --sample DT     sampling interval of --load-csv (default 1)\n"
         "      --msg-trace F   write the run's trace: a CSV row per message sent and\n"
         "                      taken in, and per interval a node is busy, idle or\n"
         "                      balancing (docs/TRACES.md; tools/lbtrace reads it)\n"
         "      --csv           print the run CSV's header line and this run's row\n"
         "                      (docs/FORMATS.md; the same columns as lbmaster's)\n"
         "      --csv-header    print the header line only, and exit\n"
         "      --max-events N  give up (a violation) after N events (default 200 million)\n"
         "      --version       print the version and the commit it was built from\n"
         "  -h, --help          show this help and exit\n",
         d->name);
  cli_param_help(stdout, &dflt->node);
  printf("\nHere --hop-time 0 is the worst one-hop time: latency x (1 + jitter) + its\n"
         "size / bandwidth.  RMTLB-drain (--rmtlb-drain F > 0) starts C at processes /\n"
         "nodes, rounded up, unless -C is given, and takes the load's mean work as the\n"
         "mean process unless --rmtlb-work-mean is given.\n");
  if (d->usage) d->usage(stdout);
  printf("Every invariant violation is printed on stderr.\n\n"
         "Exit status: 0 success, 1 an invariant was violated, 2 bad input.\n");
}

/* The run's row of the one CSV schema (cli_csv.h), after its header. */
static void write_csv(const sim_cli_driver *d, const lb_sim_config *c, const lb_sim_result *r, const char *profile,
                      const char *topo, const char *load)
{
  cli_csv_row *w = cli_csv_row_new(d->name);
  size_t n = c->topo->n;
  cli_csv_set(w, "policy", "%s", lb_policy_name(c->policy));
  cli_csv_set(w, "topology", "%s", topo);
  cli_csv_ulong(w, "nodes", n);
  cli_csv_ulong(w, "procs", r->nproc);
  double one = 1, cap = c->node.capacity;
  cli_csv_list(w, "speeds", c->speeds ? c->speeds : &one, c->speeds ? n : 1);
  if (c->rates) cli_csv_list(w, "rates", c->rates, n);
  cli_csv_list(w, "capacities", &cap, 1);
  cli_csv_set(w, "load", "%s", load);
  if (c->load != LB_SIM_LOAD_TRACE) cli_csv_real(w, "work", c->work);
  cli_csv_set(w, "profile", "%s", profile);
  cli_csv_real(w, "latency", c->latency);
  cli_csv_real(w, "bandwidth", c->bandwidth);
  cli_csv_real(w, "jitter", c->jitter);
  cli_csv_real(w, "quantum", c->quantum);
  cli_csv_real(w, "host_setup", c->host_setup);
  cli_csv_real(w, "cost_msg", c->cost_msg);
  cli_csv_real(w, "cost_byte", c->cost_byte);
  cli_csv_ulong(w, "poll", (unsigned long)c->poll);
  cli_csv_ulong(w, "ctx_size", lb_sim_ctx_size(c, 0));
  cli_csv_ulong(w, "ctx_size_started", lb_sim_ctx_size(c, 1));
  cli_csv_ulong(w, "result_size", c->result_len ? c->result_len : 8);
  cli_csv_ulong(w, "codec", (unsigned long)c->codec);
  char *cr = NULL;
  size_t crlen = 0;
  FILE *m = open_memstream(&cr, &crlen);
  if (!m) cli_die(CLI_EXIT_FAIL, "out of memory");
  for (size_t k = 0; k < c->ncrashes; k++) fprintf(m, "%s%.17g:%zu", k ? ";" : "", c->crashes[k].t, c->crashes[k].node);
  if (fclose(m)) cli_die(CLI_EXIT_FAIL, "out of memory");
  cli_csv_set(w, "crashes", "%s", cr);
  free(cr);
  if (c->ncrashes) cli_csv_real(w, "detect", c->detect > 0 ? c->detect : 2 * c->latency + 1);
  char *sl = NULL;
  size_t sllen = 0;
  FILE *ms = open_memstream(&sl, &sllen);
  if (!ms) cli_die(CLI_EXIT_FAIL, "out of memory");
  for (size_t k = 0; k < c->nsilent; k++)
    fprintf(ms, "%s%s:%.17g:%zu:%.17g", k ? ";" : "", c->silent[k].kind == LB_SIM_FREEZE ? "freeze" : "partition",
            c->silent[k].t, c->silent[k].node, c->silent[k].dur);
  if (fclose(ms)) cli_die(CLI_EXIT_FAIL, "out of memory");
  cli_csv_set(w, "silent", "%s", sl);
  free(sl);
  cli_csv_params(w, &c->node);
  cli_csv_real(w, "makespan", r->makespan);
  cli_csv_real(w, "ideal", r->ideal);
  cli_csv_real(w, "ratio", r->makespan / r->ideal);
  cli_csv_ulong(w, "messages", r->messages);
  cli_csv_ulong(w, "bytes", r->bytes);
  for (int k = 0; k < LB_MSG_NTYPES; k++) {
    char col[32];
    snprintf(col, sizeof col, "lb_%s", lb_msg_type_name((lb_msg_type)k));
    cli_csv_ulong(w, col, r->sent[k]);
  }
  cli_csv_ulong(w, "migrated", r->migrated);
  cli_csv_ulong(w, "migrated_started", r->migrated_started);
  cli_csv_ulong(w, "ctx_bytes", r->ctx_bytes);
  cli_csv_ulong(w, "hops", r->hops);
  if (r->hops_optimal >= 0) {
    cli_csv_set(w, "hops_optimal", "%ld", r->hops_optimal);
    cli_csv_real(w, "hops_ratio", lb_optimum_ratio(r->hops, (unsigned long)r->hops_optimal));
  }
  cli_csv_ulong(w, "invocations", r->invocations);
  cli_csv_ulong(w, "episodes", r->episodes);
  for (int k = 1; k < 8; k++) {
    char col[16];
    snprintf(col, sizeof col, "placed%d", k);
    cli_csv_ulong(w, col, r->placed[k]);
  }
  cli_csv_ulong(w, "dissolved", r->dissolved);
  cli_csv_ulong(w, "events", r->events);
  cli_csv_ulong(w, "violations", r->violations);
  cli_csv_ulong(w, "crashed", r->crashed);
  cli_csv_ulong(w, "lost", r->lost);
  cli_csv_ulong(w, "reruns", r->reruns);
  cli_csv_ulong(w, "duplicates", r->duplicates);
  cli_csv_ulong(w, "orphans", r->orphans);
  cli_csv_ulong(w, "fenced", r->fenced);
  cli_csv_ulong(w, "fenced_dropped", r->fenced_dropped);
  if (cli_csv_header(stdout) || cli_csv_write(stdout, w) || fflush(stdout))
    cli_die(CLI_EXIT_FAIL, "cannot write the CSV");
  cli_csv_row_free(w);
}

/* A value for each of n nodes from OPT's comma-separated list (NULL
 * when not given); a list of another length is bad input. */
static double *per_node(const char *opt, const char *list, size_t n)
{
  if (!list) return NULL;
  double *v = malloc(n * sizeof *v);
  if (!v) cli_die(CLI_EXIT_FAIL, "out of memory");
  size_t k = cli_doubles(opt, list, v, n, 1e-9, 1e12);
  if (k != n) cli_usage_error("%s: %zu values for %zu nodes", opt, k, n);
  return v;
}

int sim_cli_main(int argc, char **argv, const sim_cli_driver *d)
{
  enum {
    O_SPEEDS = 256,
    O_LAT,
    O_BW,
    O_JIT,
    O_QUANT,
    O_CSVLOAD,
    O_SAMPLE,
    O_TRACE,
    O_CSV,
    O_CSVHEAD,
    O_MAXEV,
    O_NOCODEC,
    O_CRASH,
    O_DETECT,
    O_PROFILE,
    O_COSTMSG,
    O_COSTBYTE,
    O_SETUP,
    O_POLL,
    O_CTXB,
    O_CTXS,
    O_RESB,
    O_NOOPT,
    O_LEAVING,
    O_CORRUPT,
    O_FREEZE,
    O_PARTITION,
    O_RATES
  };
  static const struct option own[] = {{"policy", required_argument, 0, 'p'},
                                      {"topology", required_argument, 0, 't'},
                                      {"load", required_argument, 0, 'l'},
                                      {"procs", required_argument, 0, 'n'},
                                      {"work", required_argument, 0, 'w'},
                                      {"speeds", required_argument, 0, O_SPEEDS},
                                      {"rates", required_argument, 0, O_RATES},
                                      {"latency", required_argument, 0, O_LAT},
                                      {"bandwidth", required_argument, 0, O_BW},
                                      {"jitter", required_argument, 0, O_JIT},
                                      {"quantum", required_argument, 0, O_QUANT},
                                      {"load-csv", required_argument, 0, O_CSVLOAD},
                                      {"sample", required_argument, 0, O_SAMPLE},
                                      {"msg-trace", required_argument, 0, O_TRACE},
                                      {"csv", no_argument, 0, O_CSV},
                                      {"csv-header", no_argument, 0, O_CSVHEAD},
                                      {"max-events", required_argument, 0, O_MAXEV},
                                      {"no-codec", no_argument, 0, O_NOCODEC},
                                      {"no-optimum", no_argument, 0, O_NOOPT},
                                      {"crash", required_argument, 0, O_CRASH},
                                      {"detect", required_argument, 0, O_DETECT},
                                      {"corrupt", required_argument, 0, O_CORRUPT},
                                      {"freeze", required_argument, 0, O_FREEZE},
                                      {"partition", required_argument, 0, O_PARTITION},
                                      {"profile", required_argument, 0, O_PROFILE},
                                      {"cost-msg", required_argument, 0, O_COSTMSG},
                                      {"host-setup", required_argument, 0, O_SETUP},
                                      {"cost-byte", required_argument, 0, O_COSTBYTE},
                                      {"poll", required_argument, 0, O_POLL},
                                      {"ctx-bytes", required_argument, 0, O_CTXB},
                                      {"ctx-bytes-started", required_argument, 0, O_CTXS},
                                      {"result-bytes", required_argument, 0, O_RESB},
                                      {"leaving", no_argument, 0, O_LEAVING},
                                      {"help", no_argument, 0, 'h'},
                                      {0, 0, 0, 0}};
  cli_init(argv[0]);
  const struct option *opts = cli_param_options(own);
  cli_version_opt(argc, argv);
  lb_sim_config c;
  lb_sim_config_default(&c);
  /* The profile sets every default; the other options then change them,
   * wherever it stands on the command line. */
  const char *profile = "unit";
  for (int k = 1; k < argc; k++) {
    const char *v = !strcmp(argv[k], "--profile") && k + 1 < argc ? argv[k + 1]
                    : !strncmp(argv[k], "--profile=", 10)         ? argv[k] + 10
                                                                  : NULL;
    if (!v) continue;
    if (!strcmp(v, "farm")) lb_sim_config_farm(&c);
    else if (strcmp(v, "unit")) cli_usage_error("--profile: unknown profile '%s' (unit, farm)", v);
    profile = v;
  }
  c.node.results = LB_RESULTS_DIRECT; /* the farm's default */
  c.node.seed = 1;
  c.policy = LB_POLICY_RMTLB;
  const lb_sim_config dflt = c;
  const char *topo_spec = "torus:8x8", *load = "skew", *speeds = NULL, *rates = NULL;
  const char *csv_path = NULL, *trace_path = NULL;
  double sample_dt = 1;
  lb_sim_crash crash[64];
  size_t ncrash = 0;
  lb_sim_silent silent[64];
  size_t nsilent = 0;
  int csv = 0, ch, bw_pack = 0;
  unsigned char given[CLI_PARAM_MAX] = {0};
  while ((ch = getopt_long(argc, argv, ":p:t:l:n:w:h" CLI_PARAM_SHORT, opts, NULL)) != -1) {
    if (cli_param_take(ch, optarg, &c.node, given)) continue;
    switch (ch) {
    case 'p':
      if (lb_policy_from_name(optarg, &c.policy)) cli_usage_error("--policy: %s", lb_errmsg());
      break;
    case 't': topo_spec = optarg; break;
    case 'l': load = optarg; break;
    case 'n': c.nproc = cli_ulong("--procs", optarg, 1, 100000000ul); break;
    case 'w': c.work = cli_double("--work", optarg, 1e-9, 1e12); break;
    case O_PROFILE: break; /* applied first, above */
    case O_CTXB: c.ctx_len = cli_ulong("--ctx-bytes", optarg, 8, 1ul << 30); break;
    case O_CTXS: c.ctx_started_len = cli_ulong("--ctx-bytes-started", optarg, 8, 1ul << 30); break;
    case O_RESB: c.result_len = cli_ulong("--result-bytes", optarg, 8, 1ul << 30); break;
    case O_COSTMSG: c.cost_msg = cli_double("--cost-msg", optarg, 0, 1e9); break;
    case O_SETUP: c.host_setup = cli_double("--host-setup", optarg, 0, 1e9); break;
    case O_COSTBYTE: c.cost_byte = cli_double("--cost-byte", optarg, 0, 1e9); break;
    case O_POLL: c.poll = (int)cli_ulong("--poll", optarg, 0, 1); break;
    case O_SPEEDS: speeds = optarg; break;
    case O_RATES: rates = optarg; break;
    case O_LAT: c.latency = cli_double("--latency", optarg, 0, 1e9); break;
    case O_BW:
      bw_pack = !strcmp(optarg, "pack");
      if (!bw_pack) c.bandwidth = cli_double("--bandwidth", optarg, 0, 1e18);
      break;
    case O_JIT: c.jitter = cli_double("--jitter", optarg, 0, 1e6); break;
    case O_QUANT: c.quantum = cli_double("--quantum", optarg, 1e-9, 1e12); break;
    case O_CSVLOAD: csv_path = optarg; break;
    case O_SAMPLE: sample_dt = cli_double("--sample", optarg, 1e-9, 1e12); break;
    case O_TRACE: trace_path = optarg; break;
    case O_CSV: csv = 1; break;
    case O_CSVHEAD:
      if (cli_csv_header(stdout) || fflush(stdout)) cli_die(CLI_EXIT_FAIL, "cannot write the header");
      return CLI_EXIT_OK;
    case O_MAXEV: c.max_events = cli_ulong("--max-events", optarg, 1, 4000000000ul); break;
    case O_LEAVING: c.leaving = 1; break;
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
    case O_FREEZE:
    case O_PARTITION: {
      const char *opt = ch == O_FREEZE ? "--freeze" : "--partition";
      char *a = strchr(optarg, ':'), *b = a ? strchr(a + 1, ':') : NULL;
      if (!a || (!b && ch == O_PARTITION) || nsilent == sizeof silent / sizeof *silent)
        cli_usage_error("%s: expected TIME:NODE%s (at most 64)", opt, ch == O_FREEZE ? "[:DURATION]" : ":DURATION");
      *a = '\0';
      if (b) *b = '\0';
      lb_sim_silent *f = &silent[nsilent++];
      f->kind = ch == O_FREEZE ? LB_SIM_FREEZE : LB_SIM_PARTITION;
      f->t = cli_double(ch == O_FREEZE ? "--freeze TIME" : "--partition TIME", optarg, 0, 1e15);
      f->node = cli_ulong(ch == O_FREEZE ? "--freeze NODE" : "--partition NODE", a + 1, 0, 100000000ul);
      f->dur =
          b ? cli_double(ch == O_FREEZE ? "--freeze DURATION" : "--partition DURATION", b + 1, 1e-9, 1e15) : INFINITY;
      break;
    }
    case O_CORRUPT: {
      char *colon = strchr(optarg, ':');
      if (!colon) cli_usage_error("--corrupt: expected NODE:FRACTION");
      *colon = '\0';
      c.corrupt_node = cli_ulong("--corrupt NODE", optarg, 0, 100000000ul);
      c.corrupt = cli_double("--corrupt FRACTION", colon + 1, 0, 1);
      break;
    }
    case 'h': usage(d, &dflt); return 0;
    default: cli_bad_option(ch, argc, argv);
    }
  }
  c.seed = c.node.seed;
  if (bw_pack) c.bandwidth = c.cost_byte > 0 ? 1 / c.cost_byte : 0;
  if (optind < argc) cli_usage_error("unexpected argument '%s'", argv[optind]);
  lb_topo *t;
  if (lb_topo_from_spec(topo_spec, &t)) cli_usage_error("--topology: %s", lb_errmsg());
  c.topo = t;
  c.crashes = crash;
  c.ncrashes = ncrash;
  for (size_t k = 0; k < ncrash; k++)
    if (crash[k].node >= t->n) cli_usage_error("--crash: node %zu of %zu", crash[k].node, t->n);
  c.silent = silent;
  c.nsilent = nsilent;
  for (size_t k = 0; k < nsilent; k++)
    if (silent[k].node >= t->n)
      cli_usage_error("%s: node %zu of %zu", silent[k].kind == LB_SIM_FREEZE ? "--freeze" : "--partition",
                      silent[k].node, t->n);
  if (nsilent && lb_lease_params_check(c.node.lease.period, c.node.lease.duration))
    cli_usage_error("--lease-period %g, --lease %g: %s", c.node.lease.period, c.node.lease.duration, lb_errmsg());
  if (c.corrupt > 0 && c.corrupt_node >= t->n) cli_usage_error("--corrupt: node %zu of %zu", c.corrupt_node, t->n);
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
    if (!given[lb_param_index(lb_param_find("capacity"))]) c.node.capacity = (int)((np + t->n - 1) / t->n);
    double sum = 0;
    for (size_t k = 0; c.load == LB_SIM_LOAD_TRACE && k < c.ntrace; k++) sum += arr[k].work;
    if (!given[lb_param_index(lb_param_find("rmtlb.work_mean"))])
      c.node.rmtlb.work_mean = c.load == LB_SIM_LOAD_TRACE ? sum / (double)c.ntrace : c.work;
  }
  double *sp = per_node("--speeds", speeds, t->n), *rt = per_node("--rates", rates, t->n);
  c.speeds = sp;
  c.rates = rt;
  if (csv_path) {
    c.load_csv = cli_out_open("--load-csv", csv_path);
    c.sample_dt = sample_dt;
  }
  if (trace_path) {
    c.msg_trace = cli_out_open("--msg-trace", trace_path);
    char head[1024];
    if (lb_trace_head(head, sizeof head, t->n, d->name, "simulated time units (a hop takes --latency)",
                      "one simulated clock: every time is exact"))
      cli_die(CLI_EXIT_FAIL, "%s", lb_errmsg());
    fprintf(c.msg_trace, "%s%s\n", head, lb_trace_columns());
  }
  c.violation_log = stderr;
  lb_sim_result r;
  int rc = d->run(&c, &r, d->ctx);
  /* Files are renamed into place only after a run that ended. */
  if (rc) {
    if (c.load_csv) cli_out_abort(c.load_csv);
    if (c.msg_trace) cli_out_abort(c.msg_trace);
  } else {
    int bad = c.load_csv && cli_out_close(c.load_csv);
    if (c.msg_trace && cli_out_close(c.msg_trace)) bad = 1;
    if (bad) exit(CLI_EXIT_FAIL);
  }
  if (rc) cli_die(rc == LB_EINVAL || rc == LB_ERANGE ? CLI_EXIT_USAGE : CLI_EXIT_FAIL, "%s", lb_errmsg());
  double ipe = r.episodes ? (double)r.invocations / (double)r.episodes : 0;
  unsigned long placed = 0;
  for (int k = 1; k < 8; k++) placed += r.placed[k];
  if (csv) write_csv(d, &c, &r, profile, topo_spec, load);
  if (!csv) {
    printf("policy          %s\ntopology        %s (%zu nodes)\nprocesses       %zu\n"
           "makespan        %.6g\nideal           %.6g\nratio           %.4f\n",
           lb_policy_name(c.policy), t->name, t->n, r.nproc, r.makespan, r.ideal, r.makespan / r.ideal);
    printf("messages        %lu (", r.messages);
    int first = 1;
    for (int k = 0; k < LB_MSG_NTYPES; k++)
      if (r.sent[k]) {
        printf("%s%s %lu", first ? "" : ", ", lb_msg_type_name((lb_msg_type)k), r.sent[k]);
        first = 0;
      }
    printf(")\nbytes           %lu\nmigrated        %lu (%lu started)\nprocess-hops    %lu", r.bytes, r.migrated,
           r.migrated_started, r.hops);
    if (r.hops_optimal >= 0)
      printf(" (fewest that balance the start: %ld; ratio %.4g)", r.hops_optimal,
             lb_optimum_ratio(r.hops, (unsigned long)r.hops_optimal));
    else printf(" (fewest that balance the start: not computed%s)", c.optimum ? ", problem too large" : "");
    printf(
        "\n"
        "heavy episodes  %lu\ninvocations     %lu (%.3g per episode)\n"
        "placed         %lu episodes (%lu by one flood, %lu by two, %lu by three or more); %lu dissolved\n"
        "failures        %lu (%lu processes lost, %lu run again, %lu duplicates dropped, %lu results off their path)\n"
        "wrong results   %lu rejected, %lu node(s) excluded\n"
        "silent faults   %lu node(s) fenced, %lu late message(s) dropped, %lu heartbeats\n"
        "events          %lu\n"
        "violations      %lu%s%s\n",
        r.episodes, r.invocations, ipe, placed, r.placed[1], r.placed[2], placed - r.placed[1] - r.placed[2],
        r.dissolved, r.crashed, r.lost, r.reruns, r.duplicates, r.orphans, r.rejected, r.excluded, r.fenced,
        r.fenced_dropped, r.beats, r.events, r.violations, r.violations ? ": " : "", r.first_violation);
  }
  free(arr);
  free(sp);
  free(rt);
  lb_topo_free(t);
  return r.violations ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}
