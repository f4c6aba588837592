/* lbmaster: the lbfarm PVM master. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <getopt.h>
#include <limits.h>
#include <time.h>
#include <pvm3.h>
#include "farm_vm.h"
#include "farm_msg.h"
#include "cli.h"
#include "lb_rng.h"

typedef struct options {
  unsigned long hosts;
  unsigned long ints;
  unsigned long seed;
  double timeout;
} options;

static void usage(void)
{
  printf("Usage: lbmaster [OPTION]...\n"
         "Run the lbfarm task farm on the PVM virtual machine.  If no pvmd is\n"
         "running, lbmaster starts a private one and halts it at the end.\n\n"
         "  --selftest       spawn the workers, send each a packed int array,\n"
         "                   check the sums they return (the default)\n"
         "  --hosts N        logical hosts, one worker each (default 6)\n"
         "  --ints K         ints sent to the first worker; worker i gets K*(i+1)\n"
         "                   (default 1000)\n"
         "  --seed S         random seed for the data (default 1)\n"
         "  --timeout SEC    give up on a silent worker after SEC seconds (default 30)\n"
         "  -h, --help       show this help and exit\n\n"
         "Environment: LBFARM_WORKER overrides the worker executable's path;\n"
         "PVM_TMP and PVM_VMID select a private virtual machine.\n"
         "Exit status: 0 verified, 1 a run that failed, 2 bad input.\n");
}

static void parse(int argc, char **argv, options *o)
{
  enum { O_SELFTEST = 256, O_HOSTS, O_INTS, O_SEED, O_TIMEOUT };
  static const struct option opts[] = {
    { "selftest", no_argument, 0, O_SELFTEST },
    { "hosts", required_argument, 0, O_HOSTS },
    { "ints", required_argument, 0, O_INTS },
    { "seed", required_argument, 0, O_SEED },
    { "timeout", required_argument, 0, O_TIMEOUT },
    { "help", no_argument, 0, 'h' },
    { 0, 0, 0, 0 } };
  *o = (options){ .hosts = 6, .ints = 1000, .seed = 1, .timeout = 30.0 };
  int c;
  while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
    switch (c) {
    case 'h': usage(); exit(0);
    case O_SELFTEST: break;
    case O_HOSTS: o->hosts = cli_ulong("--hosts", optarg, 1, 256); break;
    case O_INTS: o->ints = cli_ulong("--ints", optarg, 1, 1000000); break;
    case O_SEED: o->seed = cli_ulong("--seed", optarg, 0, ULONG_MAX); break;
    case O_TIMEOUT: o->timeout = cli_double("--timeout", optarg, 0.1, 86400); break;
    default: cli_bad_option(c, argc, argv);
    }
  }
  if (optind < argc) cli_usage_error("unexpected argument '%s'", argv[optind]);
}

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Spawn one worker per logical host, each on its own PVM host while the
 * VM has enough of them. */
static int spawn_workers(const farm_vm *vm, int run, int n, int *tids)
{
  char path[PATH_MAX], runarg[16];
  if (farm_worker_path(path, sizeof path)) return -1;
  snprintf(runarg, sizeof runarg, "%d", run);
  char *wargv[] = { runarg, NULL };
  int nhost, narch;
  struct pvmhostinfo *hi;
  if (pvm_config(&nhost, &narch, &hi) < 0) nhost = 0;
  for (int i = 0; i < n; i++) {
    int one = vm->nhosts >= n && nhost >= n;
    int got = pvm_spawn(path, wargv, one ? PvmTaskHost : PvmTaskDefault,
                        one ? hi[i].hi_name : NULL, 1, &tids[i]);
    if (got != 1) {
      fprintf(stderr, "%s: cannot spawn worker %d from %s (PVM error %d)\n", cli_prog(),
              i, path, tids[i]);
      return -1;
    }
  }
  pvm_notify(PvmTaskExit, FARM_EXITED, n, tids);
  return 0;
}

static int selftest(const options *o, int run, const int *tids)
{
  int n = (int)o->hosts, ok = 0;
  lb_rng *rng;
  if (lb_rng_alloc(o->seed, &rng)) return -1;
  long long *expect = calloc((size_t)n, sizeof *expect);
  double *sent = calloc((size_t)n, sizeof *sent);
  int *got = calloc((size_t)n, sizeof *got);
  if (!expect || !sent || !got) cli_die(CLI_EXIT_FAIL, "out of memory");
  for (int i = 0; i < n; i++) {
    int k = (int)o->ints * (i + 1);
    int *v = malloc((size_t)k * sizeof *v);
    if (!v) cli_die(CLI_EXIT_FAIL, "out of memory");
    for (int j = 0; j < k; j++) {
      v[j] = (int)lb_rng_below(rng, 2000001) - 1000000;
      expect[i] += v[j];
    }
    farm_msg_begin(run, k + 1);
    farm_msg_pk_int(&k, 1);
    farm_msg_pk_int(v, k);
    sent[i] = now();
    farm_msg_send(tids[i], FARM_SUM_REQ);
    free(v);
  }
  printf("%-8s %-10s %9s %16s %16s %10s %s\n", "worker", "tid", "ints", "sum", "expected",
         "rtt_ms", "ok");
  for (int left = n; left > 0;) {
    farm_in in;
    int r = farm_msg_recv(run, -1, -1, o->timeout, &in);
    if (r <= 0) {
      fprintf(stderr, "%s: %d worker(s) did not answer within %g s\n", cli_prog(), left,
              o->timeout);
      break;
    }
    if (in.tag == FARM_EXITED) {
      int dead = -1;
      pvm_upkint(&dead, 1, 1);
      for (int i = 0; i < n; i++)
        if (tids[i] == dead && !got[i]) {
          fprintf(stderr, "%s: worker %d (t%x) exited without answering\n", cli_prog(), i, dead);
          got[i] = 1;
          left--;
        }
      continue;
    }
    int i = 0;
    while (i < n && tids[i] != in.src) i++;
    long long rep[2];
    if (i == n || in.tag != FARM_SUM_REP || got[i] || in.items != 4 || farm_msg_upk_i64(rep, 2)) {
      fprintf(stderr, "%s: unexpected message from t%x dropped\n", cli_prog(), in.src);
      continue;
    }
    got[i] = 1;
    left--;
    int good = rep[0] == (long long)o->ints * (i + 1) && rep[1] == expect[i];
    ok += good;
    printf("%-8d t%-9x %9lld %16lld %16lld %10.3f %s\n", i, tids[i], rep[0], rep[1], expect[i],
           (now() - sent[i]) * 1e3, good ? "yes" : "NO");
  }
  printf("selftest: %d/%d workers returned the right sum\n", ok, n);
  free(expect);
  free(sent);
  free(got);
  lb_rng_free(rng);
  return ok == n ? 0 : -1;
}

int main(int argc, char **argv)
{
  cli_init(argv[0]);
  options o;
  parse(argc, argv, &o);
  farm_vm vm;
  if (farm_vm_join(&vm)) return CLI_EXIT_FAIL;
  int run = (int)((unsigned)vm.mytid ^ (unsigned)time(NULL)) & 0x7fffffff;
  printf("lbmaster: t%x on a %d-host virtual machine (%s), run %d, %lu workers\n",
         vm.mytid, vm.nhosts, vm.started ? "started here" : "already running", run, o.hosts);
  int *tids = calloc(o.hosts, sizeof *tids);
  int rc = CLI_EXIT_FAIL;
  if (tids && spawn_workers(&vm, run, (int)o.hosts, tids) == 0)
    rc = selftest(&o, run, tids) == 0 ? CLI_EXIT_OK : CLI_EXIT_FAIL;
  for (unsigned long i = 0; tids && i < o.hosts; i++)
    if (tids[i] > 0) {  /* also after a partial spawn: leave no orphans */
      farm_msg_begin(run, 0);
      farm_msg_send(tids[i], FARM_QUIT);
    }
  free(tids);
  fflush(stdout);
  farm_vm_leave(&vm);
  return rc;
}
