/* lbworker: the lbfarm PVM worker, one per logical host.  Spawned by
 * lbmaster; not meant to be run by hand. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pvm3.h>
#include "farm_msg.h"
#include "cli.h"

static void usage(void)
{
  printf("Usage: lbworker RUN-ID\n"
         "The lbfarm PVM worker.  lbmaster spawns one per logical host and\n"
         "talks to it through PVM messages; running it by hand does nothing\n"
         "useful.\n\n"
         "  -h, --help   show this help and exit\n");
}

/* FARM_SUM_REQ: int n, then n ints; reply with their sum as a long. */
static int do_sum(int run, const farm_in *in)
{
  int n;
  if (farm_msg_upk_int(&n, 1) || n < 0 || n + 1 != in->items) return -1;
  int *v = malloc((size_t)(n ? n : 1) * sizeof *v);
  if (!v || farm_msg_upk_int(v, n)) { free(v); return -1; }
  long long sum = 0;
  for (int i = 0; i < n; i++) sum += v[i];
  free(v);
  farm_msg_begin(run, 4);
  long long reply[2] = { n, sum };
  farm_msg_pk_i64(reply, 2);
  return farm_msg_send(in->src, FARM_SUM_REP);
}

int main(int argc, char **argv)
{
  cli_init(argv[0]);
  if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
    usage();
    return 0;
  }
  if (argc != 2) cli_usage_error("expected exactly one argument, the run id");
  int run = (int)cli_ulong("RUN-ID", argv[1], 0, 0x7fffffff);
  pvm_setopt(PvmAutoErr, 0);
  if (pvm_mytid() < 0) cli_die(CLI_EXIT_USAGE, "not running under PVM");
  int parent = pvm_parent();
  for (;;) {
    farm_in in;
    int r = farm_msg_recv(run, -1, -1, -1.0, &in);
    if (r < 0) break;
    if (in.tag == FARM_QUIT && in.src == parent) break;
    if (in.tag == FARM_SUM_REQ) {
      if (do_sum(run, &in) < 0)
        fprintf(stderr, "%s: malformed SUM_REQ from t%x dropped\n", cli_prog(), in.src);
    } else {
      fprintf(stderr, "%s: unexpected %s from t%x dropped\n", cli_prog(),
              farm_tag_name(in.tag) ? farm_tag_name(in.tag) : "message", in.src);
    }
  }
  pvm_exit();
  return 0;
}
