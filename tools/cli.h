/* cli.h: what every lbfarm program shares on its command line.
 *
 * Exit statuses: 0 success, 1 a run that failed (e.g. verification),
 * 2 bad input (arguments, files, messages), as the docs promise. */
#ifndef LB_CLI_H
#define LB_CLI_H

#include <stddef.h>

#define CLI_EXIT_OK 0
#define CLI_EXIT_FAIL 1
#define CLI_EXIT_USAGE 2

/* Set once from main: the program name used in every message. */
void cli_init(const char *argv0);
const char *cli_prog(void);

/* Print "prog: message" and exit with status 2. */
void cli_usage_error(const char *fmt, ...)
  __attribute__((format(printf, 1, 2), noreturn));
/* Print "prog: message" and exit with `status`. */
void cli_die(int status, const char *fmt, ...)
  __attribute__((format(printf, 2, 3), noreturn));
/* Report what getopt_long returned for a bad option (exit 2).  Use an
 * optstring that starts with ':' so a missing argument gives ':'. */
void cli_bad_option(int c, int argc, char **argv)
  __attribute__((noreturn));

/* Strict number parsing: the whole string must be a number in range,
 * otherwise a usage error naming the option. */
unsigned long cli_ulong(const char *opt, const char *s, unsigned long lo, unsigned long hi);
double cli_double(const char *opt, const char *s, double lo, double hi);
/* A comma-separated list of doubles; returns the count (<= max). */
size_t cli_doubles(const char *opt, const char *s, double *v, size_t max, double lo, double hi);

/* Progress on stderr, only when stderr is a terminal; at most ~10 Hz. */
void cli_progress(const char *what, size_t done, size_t total);
void cli_progress_end(void);

#endif
