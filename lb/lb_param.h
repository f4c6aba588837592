/* lb_param.h: the one definition of every setting of a run that a node
 * or a policy uses (the fields of lb_node_params): its name, type,
 * range, default, the policy it belongs to and a line of help.
 *
 * Everything else is derived from this table: the drivers' command-line
 * options (cli/cli_param.h), their --help, the farm's SETUP message
 * (farm/farm_wire.c carries every parameter by name, each decoded
 * through the range check here), the columns of the run CSV
 * (cli/cli_csv.h), and the check a node makes of its parameters.  A new
 * parameter is a field in lb_node_params and a row in lb_param.c.
 *
 * Modelled on GSL's tables: a const table, lookup by name, set from text
 * with a status code and a message that names the option and the range,
 * format to text, iterate for help.  Values pass as doubles: every
 * integer here is below 2^53, an enumeration passes as its index and a
 * flag as 0 or 1.
 *
 * Not here: a node's speed, which is per node (the drivers' --speeds
 * lists) and travels on its own. */
#ifndef LB_PARAM_H
#define LB_PARAM_H

#include <stddef.h>
#include "lb_node.h"

typedef enum {
  LB_PARAM_REAL, /* a finite real in [lo, hi] */
  LB_PARAM_INT,  /* an integer in [lo, hi] */
  LB_PARAM_ENUM, /* one of `names`, by name in text, by index in values */
  LB_PARAM_FLAG  /* 0 or 1; given with no value on a command line */
} lb_param_type;

/* The C type of the field in lb_node_params (lb_param.c reads and writes
 * it through this; a table row names it once). */
typedef enum {
  LB_PARAM_C_DOUBLE,
  LB_PARAM_C_INT,
  LB_PARAM_C_UNSIGNED,
  LB_PARAM_C_ULONG,
  LB_PARAM_C_SIZE
} lb_param_ctype;

#define LB_PARAM_LO_OPEN 1u /* lo itself is outside the range */
#define LB_PARAM_HI_OPEN 2u /* hi itself is outside the range */

typedef struct lb_param {
  const char *name; /* "rmtlb.tmax": the key in SETUP and the CSV */
  lb_param_type type;
  double lo, hi;            /* REAL, INT: the range */
  unsigned open;            /* LB_PARAM_LO_OPEN | LB_PARAM_HI_OPEN */
  double dflt;              /* the engine's default (lb_node_params_default) */
  const char *const *names; /* ENUM: names of 0, 1, ..., NULL-ended */
  int policy;               /* the lb_policy it belongs to; -1: every policy */
  const char *arg;          /* what a value is, for help ("T", "K", "MODE") */
  const char *help;         /* one line: what it does, what 0 means */
  size_t offset;            /* of the field in lb_node_params */
  lb_param_ctype ctype;
} lb_param;

/* Iterate: lb_param_at(k) for k < lb_param_count(), in table order
 * (general settings first, then each policy's, then the rows of the
 * policies a program registered). */
size_t lb_param_count(void);
const lb_param *lb_param_at(size_t k);
/* By name ("rmtlb.tmax"), or NULL.  lb_param_index: its k, or -1. */
const lb_param *lb_param_find(const char *name);
long lb_param_index(const lb_param *p);

/* The field's value in `par`, as a double. */
double lb_param_get(const lb_param *p, const lb_node_params *par);
/* Check v against the row (range, integrality, enum index) and store
 * it: LB_SUCCESS, or LB_ERANGE with a message "WHO: V is outside
 * RANGE", WHO being `who` (e.g. "--rmtlb-tmax") or the name. */
int lb_param_check(const lb_param *p, double v, const char *who);
int lb_param_set(const lb_param *p, lb_node_params *par, double v, const char *who);
/* From text: a decimal real (or a fraction A/B), an integer in digits,
 * an enumeration's name, a flag's 0 or 1.  LB_EINVAL for text that is
 * not a value of this type, LB_ERANGE out of range; the message names
 * `who` (or the name) and what is allowed. */
int lb_param_parse(const lb_param *p, lb_node_params *par, const char *text, const char *who);
/* The value as text, exactly (reals %.17g): what lb_param_parse reads
 * back to the same value.  Returns the length it needed, like snprintf. */
int lb_param_format(const lb_param *p, const lb_node_params *par, char *buf, size_t len);
/* The allowed values as text: "[0,1e+12]", "(0,2)", "1..1000000",
 * "origin, direct", "0 or 1". */
int lb_param_range(const lb_param *p, char *buf, size_t len);
/* "every policy" or the policy's name. */
const char *lb_param_policy_name(const lb_param *p);

/* Every field of `par` that the table names, in range: LB_SUCCESS or the
 * first fault (LB_ERANGE, its message naming the parameter). */
int lb_params_check(const lb_node_params *par);

/* Shorthands, kept for the command lines that used them: a name that
 * sets one parameter ("--probes": lowest.probes) or several at once
 * ("--period": the three exchange periods).  `targets` holds the
 * parameters' names, NULL-ended; `help` is NULL for a plain other name
 * of one parameter. */
typedef struct lb_param_alias {
  const char *name;
  const char *const *targets;
  const char *arg;
  const char *help;
} lb_param_alias;
size_t lb_param_alias_count(void);
const lb_param_alias *lb_param_alias_at(size_t k);

#endif
