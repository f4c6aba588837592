/* master_cli.c: see master_cli.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <libgen.h>
#include <unistd.h>
#include <signal.h>
#include "master_cli.h"
#include "master_ctx.h"
#include "master_out.h"
#include "master_journal.h"
#include "cli.h"
#include "cli_param.h"
#include "cli_csv.h"
#include "lb_rng.h"
#include "lb_errno.h"
#include "lb_topo.h"
#include "lb_load.h"
#include "lb_lease.h"
#include "farm_wire.h"
#include "farm_throttle.h"

static const char *const inits[] = {"one", "even", "skewed", "random", "share"};

/* The farm's defaults where they differ from the engine's: results
 * direct (measured: origin mode costs 12-24 % of the makespan on matmul,
 * where every result funnels through its origin, and nothing on
 * primes), periods of 50 ms, seed 1, and the hop time derived after
 * parsing. */
static void farm_defaults(lb_node_params *p)
{
  lb_node_params_default(p);
  p->results = LB_RESULTS_DIRECT;
  p->dasud.period = p->cchspmd.period = p->diffusion.period = 0.05;
  p->hop_time = 0;
  p->seed = 1;
}

void master_cli_help(const char *intro, const char *hosts_default, const char *outro)
{
  fputs(intro, stdout);
  printf("  --workload W     matmul (blocks of rows of C = A x B) or primes (ranges\n"
         "                   tested by trial division); default primes\n"
         "  --size N         matmul: order of the matrices (default 256);\n"
         "                   primes: test 2..N (default 2000000)\n"
         "  --procs P        processes the workload is cut into (default 4 per host)\n"
         "  --policy P       none, rmtlb, lowest, dasud, cchspmd, diffusion (first\n"
         "                   order) or diffusion2 (second order) (default none)\n"
         "  --hosts N        logical hosts, one worker each (default %s)\n"
         "  --topology SPEC  ring:N, mesh:RxC, torus:RxC, hypercube:D, complete:N,\n"
         "                   star:N, random:N[:E[:S]] or a .graph file; N nodes =\n"
         "                   --hosts (default ring:N, complete:N below 3 hosts)\n"
         "  --speeds S,...   relative host speeds in (0, 1], one for all or one per\n"
         "                   host (default 1 = no throttling)\n"
         "  --capacities C,... capacity C_i of each host, one for all or one per host\n"
         "                   (default --capacity if given, else the host's share of\n"
         "                   the processes, procs x s_i / sum of speeds, rounded up)\n"
         "  --init D         initial distribution: one (all on host 0), even,\n"
         "                   skewed (host k gets 2^-k of the work), random, or\n"
         "                   share (OPT_LOAD_SHARE, seed 004: in proportion to\n"
         "                   speed) (default one)\n"
         "  --quantum MS     CPU milliseconds per quantum (default 10)\n"
         "  --throttle M     speed emulation: auto (a cgroup quota where one can be\n"
         "                   made, else the duty timer), cgroup (v1 or v2, or\n"
         "                   fail), cgroup-v1, cgroup-v2, duty or off (default\n"
         "                   auto; docs/FARM.md)\n"
         "  --out FILE       append the CSV row to FILE (header if new), not stdout\n"
         "  --csv            stdout holds only the CSV header and row (docs/FORMATS.md;\n"
         "                   the same columns as lbsim's); the tables and lines for\n"
         "                   people go to stderr\n"
         "  --csv-header     print the CSV header line only, and exit\n"
         "  --hosts-csv FILE write one CSV row per host (counters, times, CPU share)\n"
         "  --trace FILE     write the run's trace (docs/TRACES.md): a CSV row per\n"
         "                   message each worker sent and took in, and per interval\n"
         "                   it was busy, idle or balancing, on this program's clock\n"
         "                   (a few CLOCK messages with each worker at the start)\n"
         "  --order K        test the transfer path: once the first result is in\n"
         "                   and --order-delay has passed, the busiest host sends K\n"
         "                   processes to each neighbour (default 0)\n"
         "  --order-delay SEC  earliest time for that order (default 0)\n"
         "  --inject-damage K  test recovery: the first K contexts sent are damaged\n"
         "                   (garbage, or naming another origin); their hosts hand\n"
         "                   them back and they run again elsewhere\n"
         "  --inject-junk    test the codec: send every worker a message with a\n"
         "                   foreign tag and one with a bad header first\n"
         "  --inject-wrong H test verification: host H makes every result wrong (its\n"
         "                   MAC right); each is rejected and runs again elsewhere,\n"
         "                   and H is excluded after 3\n"
         "  --timeout SEC    give up after SEC seconds without progress anywhere: no\n"
         "                   result, and no quantum run on any live host (default 300)\n"
         "  --selftest       instead of a workload: send each worker a packed int\n"
         "                   array and check the sums they return\n"
         "  --ints K         self-test: ints sent to worker 0; worker i gets K*(i+1)\n",
         hosts_default);
  printf("  --journal FILE   append every verified result to FILE (created; it must not\n"
         "                   exist), checksummed and on disk before it counts\n"
         "  --resume FILE    after a master died: take the results FILE (a --journal of\n"
         "                   the same workload, size, processes and seed) holds, verify\n"
         "                   them again, run only the other processes, and journal\n"
         "                   their results to FILE too\n"
         "  --inject-silent H  test leases: host H stops itself (SIGSTOP) when STOP\n"
         "                   comes, before its report, as a host that dies with all its\n"
         "                   results in; its lease runs out and it is fenced\n");
  printf("      --version    print the version and the commit it was built from\n");
  printf("  -h, --help       show this help and exit\n");
  lb_node_params d;
  farm_defaults(&d);
  cli_param_help(stdout, &d);
  printf("\nHere --hop-time 0 (the default) is a quantum's wall time on the slowest\n"
         "host, quantum / speed, + 0.002 s: a worker takes messages between quanta.\n"
         "--capacity gives every host the same C.  RMTLB-drain (--rmtlb-drain F > 0)\n"
         "takes the workload's declared mean process (apps/app.h) unless\n"
         "--rmtlb-work-mean is given.\n\n");
  fputs(outro, stdout);
}

static int pick(const char *opt, const char *s, const char *const *names, int n)
{
  for (int i = 0; i < n; i++)
    if (!strcmp(s, names[i])) return i;
  cli_usage_error("%s: unknown value '%s'", opt, s);
}

/* One value for all hosts or exactly one per host. */
static double *per_host(const char *opt, const char *s, unsigned long hosts, double dflt, double lo, double hi)
{
  double *v = malloc(hosts * sizeof *v);
  if (!v) cli_die(CLI_EXIT_FAIL, "out of memory");
  if (!s) {
    for (unsigned long i = 0; i < hosts; i++) v[i] = dflt;
    return v;
  }
  size_t n = cli_doubles(opt, s, v, hosts, lo, hi);
  if (n == 1)
    for (unsigned long i = 1; i < hosts; i++) v[i] = v[0];
  else if (n != hosts) cli_usage_error("%s: %zu values for %lu hosts (give one, or one per host)", opt, n, hosts);
  return v;
}

/* Default C_i: the count-based policies drain a heavy host and fill a
 * light one to C + A rounded so as not to overshoot it, which with A =
 * 10 % of C is C itself; so C_i is the host's share of the processes,
 * procs x s_i / sum of speeds, rounded up, and at least 1 (then C - A > 0
 * and an empty host is light). */
static void default_capacities(const master_opts *f, unsigned long hosts)
{
  double sum = 0;
  for (unsigned long i = 0; i < hosts; i++) sum += f->speed[i];
  for (unsigned long i = 0; i < hosts; i++) {
    double share = (double)f->w.nproc * f->speed[i] / sum;
    int c = (int)ceil(share - 1e-9);
    f->capacity[i] = c < 1 ? 1 : c;
  }
}

/* A file that can be made or replaced: its directory must be writable. */
static void check_writable(const char *opt, const char *path)
{
  if (!path) return;
  char *copy = strdup(path);
  if (!copy) cli_die(CLI_EXIT_FAIL, "out of memory");
  const char *dir = dirname(copy);
  int ok = access(dir, W_OK | X_OK) == 0 && (access(path, F_OK) != 0 || access(path, W_OK) == 0);
  free(copy);
  if (!ok) cli_usage_error("%s: cannot write '%s'", opt, path);
}

void master_cli_parse(int argc, char **argv, unsigned long hosts, void (*usage)(void), master_cli *o)
{
  enum {
    O_SELFTEST = 256,
    O_HOSTS,
    O_INTS,
    O_TIMEOUT,
    O_WORKLOAD,
    O_SIZE,
    O_PROCS,
    O_POLICY,
    O_TOPO,
    O_SPEEDS,
    O_CAPS,
    O_INIT,
    O_QUANTUM,
    O_THROTTLE,
    O_OUT,
    O_TRACE,
    O_ORDER,
    O_ORDER_DELAY,
    O_JUNK,
    O_HOSTS_CSV,
    O_DAMAGE,
    O_CSV,
    O_CSVHEAD,
    O_WRONG,
    O_SILENT,
    O_JOURNAL,
    O_RESUME
  };
  static const struct option own[] = {{"selftest", no_argument, 0, O_SELFTEST},
                                      {"hosts", required_argument, 0, O_HOSTS},
                                      {"ints", required_argument, 0, O_INTS},
                                      {"timeout", required_argument, 0, O_TIMEOUT},
                                      {"workload", required_argument, 0, O_WORKLOAD},
                                      {"size", required_argument, 0, O_SIZE},
                                      {"procs", required_argument, 0, O_PROCS},
                                      {"policy", required_argument, 0, O_POLICY},
                                      {"topology", required_argument, 0, O_TOPO},
                                      {"speeds", required_argument, 0, O_SPEEDS},
                                      {"capacities", required_argument, 0, O_CAPS},
                                      {"init", required_argument, 0, O_INIT},
                                      {"quantum", required_argument, 0, O_QUANTUM},
                                      {"throttle", required_argument, 0, O_THROTTLE},
                                      {"out", required_argument, 0, O_OUT},
                                      {"csv", no_argument, 0, O_CSV},
                                      {"csv-header", no_argument, 0, O_CSVHEAD},
                                      {"trace", required_argument, 0, O_TRACE},
                                      {"order", required_argument, 0, O_ORDER},
                                      {"order-delay", required_argument, 0, O_ORDER_DELAY},
                                      {"inject-junk", no_argument, 0, O_JUNK},
                                      {"inject-damage", required_argument, 0, O_DAMAGE},
                                      {"inject-wrong", required_argument, 0, O_WRONG},
                                      {"inject-silent", required_argument, 0, O_SILENT},
                                      {"journal", required_argument, 0, O_JOURNAL},
                                      {"resume", required_argument, 0, O_RESUME},
                                      {"hosts-csv", required_argument, 0, O_HOSTS_CSV},
                                      {"help", no_argument, 0, 'h'},
                                      {0, 0, 0, 0}};
  *o = (master_cli){.hosts = hosts, .ints = 1000, .seed = 1, .timeout = 300.0};
  master_opts *f = &o->f;
  f->w.kind = APP_PRIMES;
  f->policy = LB_POLICY_NONE;
  f->init_name = "one";
  f->quantum_s = 0.010;
  f->order_delay = 0;
  farm_defaults(&f->par);
  const struct option *opts = cli_param_options(own);
  unsigned char given[CLI_PARAM_MAX] = {0};
  int c;
  while ((c = getopt_long(argc, argv, ":h" CLI_PARAM_SHORT, opts, NULL)) != -1) {
    if (cli_param_take(c, optarg, &f->par, given)) continue;
    switch (c) {
    case 'h': usage(); exit(0);
    case O_SELFTEST: o->selftest = 1; break;
    case O_HOSTS:
      o->hosts = cli_ulong("--hosts", optarg, 1, 256);
      o->have_hosts = 1;
      break;
    case O_INTS: o->ints = cli_ulong("--ints", optarg, 1, 1000000); break;
    case O_TIMEOUT: o->timeout = cli_double("--timeout", optarg, 0.1, 86400); break;
    case O_WORKLOAD:
      if (app_kind_parse(optarg, &f->w.kind)) cli_usage_error("--workload: %s", lb_errmsg());
      break;
    case O_SIZE:
      o->size = cli_ulong("--size", optarg, 1, 4000000000UL);
      o->have_size = 1;
      break;
    case O_PROCS:
      o->procs = cli_ulong("--procs", optarg, 1, 1000000);
      o->have_procs = 1;
      break;
    case O_POLICY:
      if (lb_policy_from_name(optarg, &f->policy)) cli_usage_error("--policy: %s", lb_errmsg());
      break;
    case O_HOSTS_CSV: f->hosts_csv = optarg; break;
    case O_TOPO:
      if (strlen(optarg) >= sizeof o->topo) cli_usage_error("--topology: spec too long");
      strcpy(o->topo, optarg);
      break;
    case O_SPEEDS: o->speeds = optarg; break;
    case O_CAPS: o->capacities = optarg; break;
    case O_INIT:
      f->init = pick("--init", optarg, inits, 5);
      f->init_name = inits[f->init];
      break;
    case O_QUANTUM: f->quantum_s = cli_double("--quantum", optarg, 0.1, 10000) / 1000; break;
    case O_THROTTLE: {
      farm_throttle_mode m;
      if (farm_throttle_parse(optarg, &m)) cli_usage_error("--throttle: unknown mode '%s'", optarg);
      f->throttle = (int)m;
      break;
    }
    case O_OUT: f->out = optarg; break;
    case O_CSV: f->csv = 1; break;
    case O_CSVHEAD:
      if (cli_csv_header(stdout) || fflush(stdout)) cli_die(CLI_EXIT_FAIL, "cannot write the header");
      exit(CLI_EXIT_OK);
    case O_TRACE: f->trace = optarg; break;
    case O_ORDER: f->order = (int)cli_ulong("--order", optarg, 0, 100000); break;
    case O_ORDER_DELAY: f->order_delay = cli_double("--order-delay", optarg, 0, 3600); break;
    case O_JUNK: f->junk = 1; break;
    case O_DAMAGE: f->damage = cli_ulong("--inject-damage", optarg, 0, 1000000); break;
    case O_WRONG: f->wrong = 1 + (int)cli_ulong("--inject-wrong", optarg, 0, FARM_MAX_HOSTS - 1); break;
    case O_SILENT: f->silent = 1 + (int)cli_ulong("--inject-silent", optarg, 0, FARM_MAX_HOSTS - 1); break;
    case O_JOURNAL:
    case O_RESUME:
      if (f->journal) cli_usage_error("--journal and --resume: give one of them, once");
      if (!*optarg) cli_usage_error("%s: no file named", c == O_JOURNAL ? "--journal" : "--resume");
      f->journal = optarg;
      f->resume = c == O_RESUME;
      break;
    default: cli_bad_option(c, argc, argv);
    }
  }
  if (optind < argc) cli_usage_error("unexpected argument '%s'", argv[optind]);
  o->seed = f->par.seed;
  f->capacity_given = given[lb_param_index(lb_param_find("capacity"))];
  f->work_mean_given = given[lb_param_index(lb_param_find("rmtlb.work_mean"))];
  if (o->selftest) return;
  f->hosts = (int)o->hosts;
  f->w.size = o->have_size ? o->size : f->w.kind == APP_MATMUL ? 256 : 2000000;
  f->w.nproc = o->have_procs ? o->procs : 4 * o->hosts;
  if (!o->have_procs && f->w.kind == APP_MATMUL && f->w.nproc > f->w.size) f->w.nproc = f->w.size;
  f->w.seed = o->seed;
  f->seed = o->seed;
  f->timeout = o->timeout;
  if (app_workload_check(&f->w)) cli_usage_error("--size/--procs: %s", lb_errmsg());
  if (!o->topo[0]) snprintf(o->topo, sizeof o->topo, "%s:%lu", o->hosts < 3 ? "complete" : "ring", o->hosts);
  f->topo_spec = o->topo;
  /* Everything that can be wrong with the input is found here, before
   * a pvmd or an MPI job is started, so a usage error never leaves one
   * behind. */
  if (lb_topo_from_spec(f->topo_spec, &f->topo)) cli_usage_error("--topology: %s", lb_errmsg());
  if (f->topo->n != o->hosts)
    cli_usage_error("--topology %s has %zu nodes but --hosts is %lu", f->topo_spec, f->topo->n, o->hosts);
  if (f->wrong > (int)o->hosts) cli_usage_error("--inject-wrong: host %d of %lu", f->wrong - 1, o->hosts);
  if (f->silent > (int)o->hosts) cli_usage_error("--inject-silent: host %d of %lu", f->silent - 1, o->hosts);
  if (lb_lease_params_check(f->par.lease.period, f->par.lease.duration))
    cli_usage_error("--lease-period %g, --lease %g: %s", f->par.lease.period, f->par.lease.duration, lb_errmsg());
  f->speed = per_host("--speeds", o->speeds, o->hosts, 1.0, 1e-3, 1.0);
  /* A worker takes messages between quanta: one hop of a small message
   * can wait a whole quantum, which on a host emulated at speed s lasts
   * quantum / s of wall time, on top of PVM's 1-2 ms.  The slowest host
   * bounds it. */
  if (!(f->par.hop_time > 0)) {
    double smin = 1;
    for (unsigned long i = 0; i < o->hosts; i++)
      if (f->speed[i] < smin) smin = f->speed[i];
    f->par.hop_time = f->quantum_s / smin + 0.002;
  }
  if (lb_policy_prepare(f->policy, f->topo, &f->par))
    cli_usage_error("--policy %s: %s", lb_policy_name(f->policy), lb_errmsg());
  if (o->capacities && f->capacity_given) cli_usage_error("--capacity and --capacities: give one of them");
  f->capacity = per_host("--capacities", o->capacities, o->hosts, f->par.capacity, 0, 1e9);
  if (!o->capacities && !f->capacity_given) default_capacities(f, o->hosts);
  /* RMTLB-drain counts work in the workload's declared mean process. */
  if (f->par.rmtlb.drain > 0 && !f->work_mean_given)
    f->par.rmtlb.work_mean = app_workload_work(&f->w) / (double)f->w.nproc;
  /* Output files are checked, not opened: each is written under a
   * temporary name at the end and renamed into place. */
  check_writable("--out", f->out);
  check_writable("--trace", f->trace);
  check_writable("--hosts-csv", f->hosts_csv);
  /* The journal is checked now, so bad input never starts a pvmd. */
  if (f->journal && master_journal_check(f)) exit(CLI_EXIT_USAGE);
  if (master_out_check(f)) exit(CLI_EXIT_USAGE);
}

int master_selftest(const farm_xport *xp, const master_cli *o, const int *tids)
{
  int n = (int)o->hosts, ok = 0;
  lb_rng *rng;
  if (lb_rng_alloc(o->seed, &rng)) return -1;
  long long *expect = calloc((size_t)n, sizeof *expect);
  double *sent = calloc((size_t)n, sizeof *sent);
  int *got = calloc((size_t)n, sizeof *got);
  if (!expect || !sent || !got) cli_die(CLI_EXIT_FAIL, "out of memory");
  for (int i = 0; i < n; i++) {
    uint32_t k = (uint32_t)o->ints * (uint32_t)(i + 1);
    int32_t *v = malloc((size_t)k * sizeof *v);
    if (!v) cli_die(CLI_EXIT_FAIL, "out of memory");
    for (uint32_t j = 0; j < k; j++) {
      v[j] = (int32_t)lb_rng_below(rng, 2000001) - 1000000;
      expect[i] += v[j];
    }
    unsigned char *buf;
    size_t len;
    if (farm_sum_req_encode(v, k, &buf, &len)) cli_die(CLI_EXIT_FAIL, "%s", lb_errmsg());
    sent[i] = cli_now();
    xp->send(xp->ctx, tids[i], FARM_SUM_REQ, buf, len);
    free(buf);
    free(v);
  }
  printf("%-8s %-10s %9s %16s %16s %10s %s\n", "worker", "tid", "ints", "sum", "expected", "rtt_ms", "ok");
  double deadline = cli_now() + o->timeout;
  for (int left = n; left > 0;) {
    farm_in in;
    double wait = deadline - cli_now();
    int r = wait > 0 && !master_interrupted ? xp->recv(xp->ctx, -1, -1, wait < 0.2 ? wait : 0.2, &in) : -1;
    if (r == 0) continue;
    if (r < 0) {
      fprintf(stderr, "%s: %d worker(s) did not answer within %g s\n", cli_prog(), left, o->timeout);
      break;
    }
    if (in.tag == FARM_EXITED) {
      for (int i = 0; i < n; i++)
        if (tids[i] == in.notice && !got[i]) {
          fprintf(stderr, "%s: worker %d (t%x) exited without answering\n", cli_prog(), i, in.notice);
          got[i] = 1;
          left--;
        }
      xp->clear(xp->ctx, &in);
      continue;
    }
    int i = 0;
    while (i < n && tids[i] != in.src) i++;
    int64_t cnt, sum;
    if (i == n || in.tag != FARM_SUM_REP || got[i] || farm_sum_rep_decode(in.body, in.len, &cnt, &sum)) {
      fprintf(stderr, "%s: unexpected message from t%x dropped\n", cli_prog(), in.src);
      xp->clear(xp->ctx, &in);
      continue;
    }
    xp->clear(xp->ctx, &in);
    got[i] = 1;
    left--;
    int good = cnt == (long long)o->ints * (i + 1) && sum == expect[i];
    ok += good;
    printf("%-8d t%-9x %9lld %16lld %16lld %10.3f %s\n", i, tids[i], (long long)cnt, (long long)sum, expect[i],
           (cli_now() - sent[i]) * 1e3, good ? "yes" : "NO");
  }
  printf("selftest: %d/%d workers returned the right sum\n", ok, n);
  free(expect);
  free(sent);
  free(got);
  lb_rng_free(rng);
  return ok == n ? 0 : -1;
}

/* Ctrl-C or SIGTERM: the run stops at its next wait (each is short),
 * the workers are told to quit, a VM started here is halted. */
static void on_signal(int sig)
{
  (void)sig;
  master_interrupted = 1;
}

void master_catch_signals(void)
{
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
}

void master_cli_free(master_cli *o)
{
  lb_topo_free(o->f.topo);
  free(o->f.speed);
  free(o->f.capacity);
  o->f.topo = NULL;
  o->f.speed = o->f.capacity = NULL;
}
