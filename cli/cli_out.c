/* cli_out.c: output files written to a temporary name beside the
 * target and renamed over it only when complete, so a run that fails
 * (or is interrupted) never truncates the old file or leaves an empty
 * or partial one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <signal.h>
#include <unistd.h>
#include <sys/stat.h>
#include "cli.h"

#define MAX_OUT 16

typedef struct {
  FILE *f;
  const char *opt;
  char *path; /* the target */
  char *tmp;  /* NULL when writing the target directly */
} out;

static out outs[MAX_OUT];
/* Temporary names for the signal handler: written before the file is
 * created, cleared before it is renamed or removed. */
static char *volatile pending[MAX_OUT];

static void remove_pending(void)
{
  for (int k = 0; k < MAX_OUT; k++) {
    char *t = pending[k];
    if (t) unlink(t);
  }
}

void cli_out_remove_pending(void) { remove_pending(); }

static void on_signal(int sig)
{
  remove_pending();
  signal(sig, SIG_DFL);
  raise(sig);
}

static void install(void)
{
  static int done;
  if (done) return;
  done = 1;
  atexit(remove_pending);
  const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
  for (size_t k = 0; k < sizeof sigs / sizeof *sigs; k++) {
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    /* Leave a signal that the caller ignores ignored. */
    if (sigaction(sigs[k], NULL, &old) == 0 && old.sa_handler == SIG_IGN) continue;
    sigaction(sigs[k], &sa, NULL);
  }
}

static void release(out *o)
{
  free(o->path);
  free(o->tmp);
  memset(o, 0, sizeof *o);
}

static out *slot_of(FILE *f)
{
  for (int k = 0; k < MAX_OUT; k++)
    if (outs[k].f && outs[k].f == f) return &outs[k];
  cli_die(CLI_EXIT_FAIL, "internal error: stream not from cli_out_open");
}

/* Open `path` for writing through a temporary file; NULL after a
 * message when it cannot be written.  `usage` says whether that is the
 * caller's fault (a bad path: exit 2) for cli_out_open. */
static FILE *open_out(const char *opt, const char *path, int *usage)
{
  int k = 0;
  *usage = 0;
  while (k < MAX_OUT && outs[k].f) k++;
  if (k == MAX_OUT) cli_die(CLI_EXIT_FAIL, "internal error: more than %d output files", MAX_OUT);
  out *o = &outs[k];
  struct stat st;
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  *usage = 1;
  if (!*base || (stat(path, &st) == 0 && S_ISDIR(st.st_mode))) {
    fprintf(stderr, "%s: %s: '%s' is a directory, not a file\n", cli_prog(), opt, path);
    return NULL;
  }
  install();
  o->opt = opt;
  o->path = strdup(path);
  if (!o->path) cli_die(CLI_EXIT_FAIL, "out of memory");
  if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
    /* A device or a pipe: nothing to truncate, nowhere to rename. */
    if (!(o->f = fopen(path, "w"))) {
      fprintf(stderr, "%s: %s: cannot write '%s': %s\n", cli_prog(), opt, path, strerror(errno));
      release(o);
    }
    return o->f;
  }
  /* Through a symbolic link: replace the file it names, keep the link. */
  char *real;
  if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode) && (real = realpath(path, NULL))) {
    free(o->path);
    o->path = real;
    path = real;
    base = strrchr(path, '/') + 1;
  }
  size_t dl = (size_t)(base - path);
  o->tmp = malloc(dl + strlen(base) + 16);
  if (!o->tmp) cli_die(CLI_EXIT_FAIL, "out of memory");
  sprintf(o->tmp, "%.*s.%s.XXXXXX", (int)dl, path, base);
  pending[k] = o->tmp;
  int fd = mkstemp(o->tmp);
  if (fd < 0) {
    int e = errno;
    pending[k] = NULL;
    /* A full disk or a read-only one is the machine's state, not a bad argument. */
    *usage = e != ENOSPC && e != EDQUOT && e != EROFS && e != EIO;
    fprintf(stderr, "%s: %s: cannot write '%s': %s\n", cli_prog(), opt, path, strerror(e));
    release(o);
    return NULL;
  }
  /* mkstemp makes the file 0600; give it what a new file would get. */
  mode_t um = umask(0);
  umask(um);
  fchmod(fd, 0666 & ~um);
  if (!(o->f = fdopen(fd, "w"))) {
    int e = errno;
    close(fd);
    unlink(o->tmp);
    pending[k] = NULL;
    *usage = 0;
    fprintf(stderr, "%s: %s: cannot write '%s': %s\n", cli_prog(), opt, path, strerror(e));
    release(o);
    return NULL;
  }
  return o->f;
}

FILE *cli_out_try(const char *opt, const char *path)
{
  int usage;
  return open_out(opt, path, &usage);
}

FILE *cli_out_open(const char *opt, const char *path)
{
  int usage;
  FILE *f = open_out(opt, path, &usage);
  if (f) return f;
  if (usage) {
    fprintf(stderr, "Try '%s --help' for more information.\n", cli_prog());
    exit(CLI_EXIT_USAGE);
  }
  exit(CLI_EXIT_FAIL);
}

int cli_out_close(FILE *f)
{
  out *o = slot_of(f);
  int k = (int)(o - outs);
  /* fflush first: its errno (ENOSPC, EIO) is the reason to report. */
  int e = 0;
  if (fflush(f) != 0) e = errno;
  int bad = ferror(f) || e;
  if (fclose(f) != 0 && !bad) {
    bad = 1;
    e = errno;
  }
  if (bad) {
    if (o->tmp) unlink(o->tmp);
    pending[k] = NULL;
    fprintf(stderr, "%s: %s: writing '%s' failed: %s\n", cli_prog(), o->opt, o->path, e ? strerror(e) : "write error");
    release(o);
    return -1;
  }
  if (o->tmp && rename(o->tmp, o->path) != 0) {
    e = errno;
    unlink(o->tmp);
    pending[k] = NULL;
    fprintf(stderr, "%s: %s: cannot replace '%s': %s\n", cli_prog(), o->opt, o->path, strerror(e));
    release(o);
    return -1;
  }
  pending[k] = NULL;
  release(o);
  return 0;
}

void cli_out_commit(FILE *f)
{
  if (cli_out_close(f)) exit(CLI_EXIT_FAIL);
}

void cli_out_abort(FILE *f)
{
  out *o = slot_of(f);
  int k = (int)(o - outs);
  fclose(f);
  if (o->tmp) unlink(o->tmp);
  pending[k] = NULL;
  release(o);
}

/* Standard output, checked once at exit: buffered text that cannot be
 * written (a full disk, a closed pipe's EPIPE ignored) makes the exit
 * status 1, whatever main returned.  atexit handlers cannot call exit. */
static void close_stdout(void)
{
  /* Name the file behind it where the system says (Linux's /proc). */
  char name[512] = "";
  ssize_t n = readlink("/proc/self/fd/1", name + 2, sizeof name - 4);
  if (n > 0 && name[2] == '/') {
    name[0] = ' ';
    name[1] = '\'';
    name[n + 2] = '\'';
    name[n + 3] = '\0';
  } else name[0] = '\0';
  int e = 0;
  if (fflush(stdout) != 0) e = errno;
  int bad = ferror(stdout) || e;
  if (fclose(stdout) != 0 && !bad) {
    bad = 1;
    e = errno;
  }
  if (bad) {
    fprintf(stderr, "%s: writing standard output%s failed: %s\n", cli_prog(), name, e ? strerror(e) : "write error");
    fflush(stderr);
    _exit(CLI_EXIT_FAIL);
  }
}

void cli_check_stdout(void)
{
  static int done;
  if (done) return;
  done = 1;
  atexit(close_stdout);
}
