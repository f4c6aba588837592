/* cli.h: what every lbfarm program shares on its command line.
 *
 * Exit statuses: 0 success, 1 a run that failed (e.g. verification),
 * 2 bad input (arguments, files, messages), as the docs promise. */
#ifndef LB_CLI_H
#define LB_CLI_H

#include <stddef.h>
#include <stdio.h>

#define CLI_EXIT_OK    0
#define CLI_EXIT_FAIL  1
#define CLI_EXIT_USAGE 2

/* Room for a message from the cli_parse_* functions. */
#define CLI_ERR_MAX 256

/* Set once from main: the program name used in every message (the
 * last part of argv0, never its path).  It also makes standard output
 * checked at exit (cli_check_stdout). */
void cli_init(const char *argv0);
const char *cli_prog(void);

/* Print "prog: message" and exit with status 2. */
void cli_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
/* Print "prog: message" and exit with `status`. */
void cli_die(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));
/* Report what getopt_long returned for a bad option (exit 2): an
 * unknown or incomplete option by its name, and an argument that looks
 * like a negative number ("-1,2") as a bad value, since no option is a
 * digit.  Use an optstring that starts with ':' so a missing argument
 * gives ':'. */
void cli_bad_option(int c, int argc, char **argv) __attribute__((noreturn));

/* Numbers.  A real is a decimal number (strtod's forms, finite) or a
 * fraction A/B of two such numbers (B != 0): 1501/21 is taken as the
 * double nearest to it.  An integer is plain decimal digits.  The
 * cli_parse_* functions return 0, or CLI_EXIT_USAGE with a message
 * naming `opt` and the value in err (errlen bytes); they never exit.
 * The others print that message and exit with status 2. */
int cli_parse_ulong(const char *opt, const char *s, unsigned long lo, unsigned long hi, unsigned long *v, char *err,
                    size_t errlen);
int cli_parse_double(const char *opt, const char *s, double lo, double hi, double *v, char *err, size_t errlen);
/* A comma-separated list of reals; *count gets how many (<= max). */
int cli_parse_doubles(const char *opt, const char *s, double *v, size_t max, double lo, double hi, size_t *count,
                      char *err, size_t errlen);

unsigned long cli_ulong(const char *opt, const char *s, unsigned long lo, unsigned long hi);
double cli_double(const char *opt, const char *s, double lo, double hi);
size_t cli_doubles(const char *opt, const char *s, double *v, size_t max, double lo, double hi);

/* Output files that a failed run never truncates or leaves empty.
 * cli_out_open checks and opens `path` (exit 2 naming `opt` if it
 * cannot be written) and returns a stream on a temporary file in the
 * same directory; call it after the arguments are checked and before
 * the long work.  cli_out_commit closes the stream and renames the
 * file over `path` (exit 1 if writing failed); cli_out_abort closes
 * and removes it.  An exit or a fatal signal before the commit removes
 * the temporary file and leaves `path` as it was.  Paths that are not
 * regular files (/dev/null, a pipe) are written directly; through a
 * symbolic link, the file it names is replaced and the link kept. */
FILE *cli_out_open(const char *opt, const char *path);
void cli_out_commit(FILE *f);
void cli_out_abort(FILE *f);
/* Remove every temporary file not yet committed; async-signal-safe,
 * for a program's own fatal path (one that ends with _exit). */
void cli_out_remove_pending(void);

/* Clocks, in seconds.  cli_now: wall time for intervals, timeouts and
 * deadlines (monotonic: a clock step moves none of them).  cli_cpu: CPU
 * time this process has used.  cli_thread_cpu: CPU time the calling
 * thread has used, to time a stretch of work: while a process-wide CPU
 * timer is armed (the duty throttle's), the kernel serves the process
 * clock from a sample that can be a tick old, and a worker's quanta
 * measured with it missed 15 % of their CPU.  cli_epoch: the calendar
 * clock (seconds since 1970), the one clock separate hosts share; only
 * to agree with another host on an instant (the farm's time origin),
 * never to measure. */
double cli_now(void);
double cli_cpu(void);
double cli_thread_cpu(void);
double cli_epoch(void);
/* The running kernel's boot id (/proc/sys/kernel/random/boot_id, 36
 * characters): two processes that read the same one read the same
 * CLOCK_MONOTONIC.  0, or -1 and "" when it cannot be read. */
int cli_boot_id(char out[37]);

/* As cli_out_open, but a path that cannot be written gives NULL after
 * the message instead of an exit; for callers that must clean up first
 * (lbmaster halts its virtual machine). */
FILE *cli_out_try(const char *opt, const char *path);
/* As cli_out_commit, but a failed write or rename gives -1 after the
 * message ("OPT: writing 'PATH' failed: REASON"), the temporary file
 * removed and `path` left as it was, instead of an exit. */
int cli_out_close(FILE *f);
/* Standard output is flushed and closed at exit; if that fails (a full
 * disk), the message names it and the exit status becomes 1. */
void cli_check_stdout(void);

/* --version anywhere before "--": print the program, the package
 * version and the commit it was built from, and exit 0.  Every program
 * calls it from main, before parsing its options. */
void cli_version_opt(int argc, char **argv);
const char *cli_version(void);

/* Progress on stderr, only when stderr is a terminal; at most ~10 Hz. */
void cli_progress(const char *what, size_t done, size_t total);
void cli_progress_end(void);

#endif
