/* cli_param.h: the parameters of a run (lb/lb_param.h) as command-line
 * options, the same in every driver (lbsim, lbmaster, lbmpi): one loop
 * over the table, no code per option.
 *
 * A parameter's option is its name with '.' and '_' as '-'
 * (rmtlb.backoff_max: --rmtlb-backoff-max); a flag takes no value.
 * capacity, threshold and seed also answer to -C, -A and -s.  The
 * shorthands of lb_param_alias_at (--period, --tmax, --probes, ...) set
 * their parameters at once.  A bad value exits with status 2 and a
 * message naming the option and what it allows. */
#ifndef CLI_PARAM_H
#define CLI_PARAM_H

#include <getopt.h>
#include <stdio.h>
#include "lb_param.h"

/* getopt_long values from here on are the parameters' and shorthands'. */
#define CLI_PARAM_VAL   0x4000
/* Room for one flag per parameter (the table has fewer). */
#define CLI_PARAM_MAX   128
/* The short options, for a getopt optstring. */
#define CLI_PARAM_SHORT "C:A:s:"

/* A getopt_long table: the driver's own options (`own`, ended by a
 * zero entry) and then every parameter and shorthand.  Allocated once;
 * the program keeps it. */
const struct option *cli_param_options(const struct option *own);
/* The option that sets p, "--rmtlb-tmax", in buf. */
void cli_param_option(const lb_param *p, char *buf, size_t len);
/* If getopt_long's value `c` is a parameter's or shorthand's option (or
 * -C, -A, -s), set it in par from `arg` (or 1 for a flag) and return 1;
 * else 0.  given[k] becomes 1 for each parameter k it set (given may be
 * NULL).  A bad value exits with status 2. */
int cli_param_take(int c, const char *arg, lb_node_params *par, unsigned char *given);
/* The options' block of --help: every registered policy with its line;
 * for each parameter its option, the
 * policy it belongs to, its help line, what it allows and its default,
 * read from `dflt` (the driver's own defaults); then the shorthands. */
void cli_param_help(FILE *f, const lb_node_params *dflt);

#endif
