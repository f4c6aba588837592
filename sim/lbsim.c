/* lbsim: run one balancing policy in the discrete-event simulator. */
#include "sim_cli.h"

static int run(const lb_sim_config *c, lb_sim_result *r, void *ctx)
{
  (void)ctx;
  return lb_sim_run(c, r);
}

int main(int argc, char **argv)
{
  const sim_cli_driver lbsim = {.name = "lbsim", .run = run};
  return sim_cli_main(argc, argv, &lbsim);
}
