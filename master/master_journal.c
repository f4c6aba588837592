/* master_journal.c: the journal file of verified results (--journal,
 * --resume); its bytes are farm/farm_journal.h's.  Every record is
 * written whole with one append and reaches the disk (fdatasync) before
 * its result counts, so a master killed at any moment leaves every
 * counted result in the journal, and at most its last record torn. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "master_journal.h"
#include "farm_journal.h"
#include "lb_errno.h"
#include "cli.h"

struct master_journal {
  char *path;
  int fd;
};

int master_journal_describe(const master_opts *o, char *buf, size_t len)
{
  int n = snprintf(buf, len, "workload %s, size %lu, %lu processes, seed %lu", app_kind_name(o->w.kind), o->w.size,
                   o->w.nproc, o->w.seed);
  return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* The longest result a process of the run can have. */
static uint64_t max_result(const master_opts *o)
{
  uint64_t m = 0;
  for (unsigned long p = 0; p < o->w.nproc; p++) {
    app_task *t;
    if (app_task_alloc(&o->w, p, &t)) continue;
    uint64_t n = app_task_result_size(t);
    if (n > m) m = n;
    app_task_free(t);
  }
  return m;
}

/* The whole file, mapped (NULL for an empty one: *len 0); -1 with errno. */
static int map_file(int fd, unsigned char **buf, size_t *len)
{
  struct stat st;
  *buf = NULL;
  *len = 0;
  if (fstat(fd, &st)) return -1;
  if (!S_ISREG(st.st_mode)) {
    errno = EINVAL;
    return -1;
  }
  if (!st.st_size) return 0;
  void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  if (p == MAP_FAILED) return -1;
  *buf = p;
  *len = (size_t)st.st_size;
  return 0;
}

/* Walk a journal's records: each to `take` (may be NULL); *good the
 * end of the last whole record, *torn_at where a torn last record
 * begins (or len).  -1 with a message on a journal of another run or
 * one damaged before its end. */
static int walk(const master_opts *o, const unsigned char *buf, size_t len, master_journal_take take, void *arg,
                size_t *good, size_t *nrec, char *why, size_t whylen)
{
  char want[FARM_JOURNAL_DESC_MAX + 1], *desc;
  size_t off;
  *nrec = 0;
  if (master_journal_describe(o, want, sizeof want)) {
    snprintf(why, whylen, "run description too long");
    return -1;
  }
  if (farm_journal_header_decode(buf, len, &desc, &off)) {
    snprintf(why, whylen, "%s", lb_errmsg());
    return -1;
  }
  if (strcmp(desc, want)) {
    snprintf(why, whylen, "a journal of another run (%s), not of this one (%s)", desc, want);
    free(desc);
    return -1;
  }
  free(desc);
  uint64_t max = max_result(o);
  *good = off;
  for (;;) {
    farm_journal_rec r;
    int have, torn;
    if (farm_journal_next(buf, len, &off, o->w.nproc, max, &r, &have, &torn)) {
      if (!torn) {
        snprintf(why, whylen, "damaged before its end: %s", lb_errmsg());
        return -1;
      }
      snprintf(why, whylen, "%s", lb_errmsg());
      return 1;
    }
    if (!have) return 0;
    if (take && take(arg, r.pid, r.bytes, (size_t)r.len)) {
      snprintf(why, whylen, "stopped");
      return -2;
    }
    *good = off;
    (*nrec)++;
  }
}

int master_journal_check(const master_opts *o)
{
  const char *opt = o->resume ? "--resume" : "--journal";
  if (!o->resume) {
    if (access(o->journal, F_OK) == 0) {
      fprintf(stderr, "%s: %s %s: the file exists (--resume %s continues the run it journals)\n", cli_prog(), opt,
              o->journal, o->journal);
      return -1;
    }
    char *copy = strdup(o->journal);
    if (!copy) cli_die(CLI_EXIT_FAIL, "out of memory");
    int ok = access(dirname(copy), W_OK | X_OK) == 0;
    free(copy);
    if (!ok) fprintf(stderr, "%s: %s: cannot create '%s'\n", cli_prog(), opt, o->journal);
    return ok ? 0 : -1;
  }
  int fd = open(o->journal, O_RDWR | O_CLOEXEC);
  unsigned char *buf;
  size_t len, good, n;
  if (fd < 0 || map_file(fd, &buf, &len)) {
    fprintf(stderr, "%s: %s: cannot open '%s': %s\n", cli_prog(), opt, o->journal, strerror(errno));
    if (fd >= 0) close(fd);
    return -1;
  }
  char why[FARM_JOURNAL_DESC_MAX * 2 + 256];
  int rc = walk(o, buf, len, NULL, NULL, &good, &n, why, sizeof why);
  if (buf) munmap(buf, len);
  close(fd);
  if (rc < 0) fprintf(stderr, "%s: %s %s: %s\n", cli_prog(), opt, o->journal, why);
  return rc < 0 ? -1 : 0;
}

/* fsync the directory that holds path, so a new name stays. */
static int sync_dir(const char *path)
{
  char *copy = strdup(path);
  if (!copy) return -1;
  int fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  free(copy);
  if (fd < 0) return -1;
  int rc = fsync(fd);
  close(fd);
  return rc;
}

static int write_all(int fd, const unsigned char *b, size_t n)
{
  while (n) {
    ssize_t w = write(fd, b, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return -1;
    b += w;
    n -= (size_t)w;
  }
  return 0;
}

/* A new journal: its header written whole under a temporary name, on
 * the disk, then renamed into place. */
static int create(master_journal *j, const master_opts *o)
{
  char desc[FARM_JOURNAL_DESC_MAX + 1], tmp[4096];
  unsigned char *hb;
  size_t hl;
  if (master_journal_describe(o, desc, sizeof desc) || farm_journal_header_encode(desc, &hb, &hl)) return -1;
  snprintf(tmp, sizeof tmp, "%s.tmp.%ld", j->path, (long)getpid());
  int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  int bad = fd < 0 || write_all(fd, hb, hl) || fsync(fd);
  free(hb);
  if (fd >= 0 && close(fd)) bad = 1;
  /* link, not rename: a journal that appeared meanwhile is never replaced */
  if (!bad && link(tmp, j->path)) bad = 1;
  if (fd >= 0) unlink(tmp);
  if (bad || sync_dir(j->path)) return -1;
  j->fd = open(j->path, O_WRONLY | O_APPEND | O_CLOEXEC);
  return j->fd < 0 ? -1 : 0;
}

/* An existing journal: its records to `take`, a torn last record cut
 * off (the file truncated to its last whole record, on the disk), then
 * open for appending. */
static int load(master_journal *j, const master_opts *o, master_journal_take take, void *arg, size_t *n)
{
  int fd = open(j->path, O_RDWR | O_CLOEXEC);
  unsigned char *buf;
  size_t len, good;
  if (fd < 0 || map_file(fd, &buf, &len)) {
    if (fd >= 0) close(fd);
    return -1;
  }
  char why[FARM_JOURNAL_DESC_MAX * 2 + 256];
  int rc = walk(o, buf, len, take, arg, &good, n, why, sizeof why);
  if (buf) munmap(buf, len);
  if (rc == 1) {
    fprintf(stderr,
            "%s: journal %s: a torn last record skipped (%zu byte(s) after its last whole record, "
            "cut off): %s\n",
            cli_prog(), j->path, len - good, why);
    if (ftruncate(fd, (off_t)good) || fsync(fd)) {
      close(fd);
      return -1;
    }
    rc = 0;
  } else if (rc < 0) {
    if (rc == -1) fprintf(stderr, "%s: journal %s: %s\n", cli_prog(), j->path, why);
    close(fd);
    errno = 0;
    return -2;
  }
  if (lseek(fd, 0, SEEK_END) < 0) {
    close(fd);
    return -1;
  }
  j->fd = fd;
  return 0;
}

int master_journal_open(const master_opts *o, master_journal_take take, void *arg, master_journal **out, size_t *taken)
{
  *out = NULL;
  *taken = 0;
  master_journal *j = calloc(1, sizeof *j);
  if (!j || !(j->path = strdup(o->journal))) cli_die(CLI_EXIT_FAIL, "out of memory");
  j->fd = -1;
  int rc = o->resume ? load(j, o, take, arg, taken) : create(j, o);
  if (rc) {
    if (rc == -1)
      fprintf(stderr, "%s: cannot %s the journal %s: %s\n", cli_prog(), o->resume ? "read" : "create", j->path,
              errno ? strerror(errno) : lb_errmsg());
    master_journal_close(j);
    return -1;
  }
  *out = j;
  return 0;
}

int master_journal_append(master_journal *j, uint64_t pid, const void *bytes, size_t n)
{
  unsigned char *b;
  size_t len;
  if (farm_journal_record_encode(pid, bytes, n, &b, &len)) {
    fprintf(stderr, "%s: journal %s: %s\n", cli_prog(), j->path, lb_errmsg());
    return -1;
  }
  /* One append of the whole record, then on the disk before it counts. */
  int bad = write_all(j->fd, b, len) || fdatasync(j->fd);
  free(b);
  if (bad) fprintf(stderr, "%s: cannot write the journal %s: %s\n", cli_prog(), j->path, strerror(errno));
  return bad ? -1 : 0;
}

void master_journal_close(master_journal *j)
{
  if (!j) return;
  if (j->fd >= 0 && close(j->fd))
    fprintf(stderr, "%s: closing the journal %s: %s\n", cli_prog(), j->path, strerror(errno));
  free(j->path);
  free(j);
}
