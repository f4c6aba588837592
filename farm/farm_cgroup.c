/* farm_cgroup.c: see farm_cgroup.h.  Kernel rules followed here are
 * those of Documentation/admin-guide/cgroup-v2.rst (cpu.max,
 * cgroup.subtree_control, cgroup.procs, no internal processes) and of
 * cgroup-v1/cgroups.rst with sched-bwc.rst (cfs_period_us, cfs_quota_us). */
#define _GNU_SOURCE /* struct dirent64 */
#include <stdio.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>
#include <dirent.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include "farm_cgroup.h"

#define PATHLEN 4096

static char fs_root[PATHLEN] = "/sys/fs/cgroup";
static char self_file[PATHLEN] = "/proc/self/cgroup";

void farm_cgroup_set_paths(const char *fs, const char *self)
{
  snprintf(fs_root, sizeof fs_root, "%s", fs ? fs : "/sys/fs/cgroup");
  snprintf(self_file, sizeof self_file, "%s", self ? self : "/proc/self/cgroup");
}

static double mono(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void nap_ms(long ms)
{
  struct timespec t = {0, ms * 1000000L};
  nanosleep(&t, NULL);
}

/* snprintf that fails (-1) rather than truncate a path. */
static int pathf(char *buf, size_t n, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  int k = vsnprintf(buf, n, fmt, ap);
  va_end(ap);
  return k < 0 || (size_t)k >= n ? -1 : 0;
}

static int say(char *why, size_t n, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  if (n) vsnprintf(why, n, fmt, ap);
  va_end(ap);
  return -1;
}

/* One write() of `s` to dir/file: the kernel takes a cgroup file's
 * value per write. */
static int put(const char *dir, const char *file, const char *s)
{
  char p[PATHLEN];
  if (pathf(p, sizeof p, "%s/%s", dir, file)) {
    errno = ENAMETOOLONG;
    return -1;
  }
  int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return -1;
  size_t len = strlen(s);
  ssize_t w = write(fd, s, len);
  int e = errno;
  int bad = close(fd) != 0 || w != (ssize_t)len;
  if (w < 0) errno = e;
  return bad ? -1 : 0;
}

static int put_long(const char *dir, const char *file, long v)
{
  char s[32];
  snprintf(s, sizeof s, "%ld\n", v);
  return put(dir, file, s);
}

/* dir/file into buf (NUL-terminated); -1 if it cannot be read. */
static int get(const char *dir, const char *file, char *buf, size_t n)
{
  char p[PATHLEN];
  if (pathf(p, sizeof p, "%s/%s", dir, file)) return -1;
  int fd = open(p, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  size_t k = 0;
  ssize_t r;
  while (k + 1 < n && (r = read(fd, buf + k, n - 1 - k)) > 0) k += (size_t)r;
  close(fd);
  buf[k] = '\0';
  return 0;
}

/* Is `word` one of the items of `list`, separated by any of `seps`? */
static int has_word(const char *list, const char *word, const char *seps)
{
  size_t w = strlen(word);
  for (const char *p = list; *p;) {
    size_t k = strcspn(p, seps);
    if (k == w && !strncmp(p, word, w)) return 1;
    p += k;
    p += strspn(p, seps);
  }
  return 0;
}

/* Our own cgroup, from the self file: in the v1 hierarchy whose
 * controllers include `ctrl`, or in v2 ("0::/path") when ctrl is NULL. */
static int self_cgroup(const char *ctrl, char *out, size_t n)
{
  FILE *f = fopen(self_file, "r");
  if (!f) return -1;
  char line[PATHLEN + 64];
  int rc = -1;
  while (rc && fgets(line, sizeof line, f)) {
    line[strcspn(line, "\n")] = '\0';
    char *a = strchr(line, ':'), *b = a ? strchr(a + 1, ':') : NULL;
    if (!b || b[1] != '/') continue;
    *b = '\0';
    int match = ctrl ? has_word(a + 1, ctrl, ",") : (!strcmp(line, "0:") && a[1] == '\0');
    if (match) rc = pathf(out, n, "%s", b + 1);
  }
  fclose(f);
  return rc;
}

/* root + path, where path is "/" or starts with one. */
static int join(char *buf, size_t n, const char *root, const char *path)
{
  return strcmp(path, "/") ? pathf(buf, n, "%s%s", root, path) : pathf(buf, n, "%s", root);
}

/* The v2 hierarchy: FS itself, or FS/unified beside v1 (hybrid). */
static int unified_root(char *u, size_t n)
{
  char p[PATHLEN];
  if (!pathf(p, sizeof p, "%s/cgroup.controllers", fs_root) && !access(p, F_OK)) return pathf(u, n, "%s", fs_root);
  if (!pathf(p, sizeof p, "%s/unified/cgroup.controllers", fs_root) && !access(p, F_OK))
    return pathf(u, n, "%s/unified", fs_root);
  return -1;
}

/* The cgroup a delegated NAME goes in: our own cgroup, or its
 * parent when a sibling already moved us to the leaf. */
static int delegated_parent(const char *u, char *d, size_t n)
{
  char self[PATHLEN];
  if (self_cgroup(NULL, self, sizeof self) || !strcmp(self, "/")) return -1;
  char *slash = strrchr(self, '/');
  if (!strcmp(slash + 1, FARM_CGROUP_LEAF)) {
    if (slash == self) return -1;
    *slash = '\0';
  }
  return join(d, n, u, self);
}

/* Remove cgroup `dir` once no task is left in it: an exiting task
 * can still hold it for a moment after its cgroup.procs line went.
 * 0 if it is gone (or never was), -1 if it is still there at `end`. */
static int remove_when_empty(const char *dir, double end)
{
  for (;;) {
    char procs[64];
    /* A listed task, or an unreadable file that still exists: wait. */
    int members = get(dir, "cgroup.procs", procs, sizeof procs) ? errno != ENOENT : procs[strspn(procs, " \n")] != '\0';
    if (!members) {
      if (!rmdir(dir) || errno == ENOENT) return 0;
      if (errno != EBUSY) return -1;
    }
    if (mono() >= end) return -1;
    nap_ms(5);
  }
}

/* The quota and period for `share`: the kernel takes no quota under
 * 1 ms, so a small share gets a longer period (at most 1 s). */
static void quota_of(double share, long *quota, long *period)
{
  *period = FARM_CGROUP_PERIOD_US;
  if (share * (double)*period < 1000) *period = share > 0.001 ? (long)(1000 / share + 0.5) : 1000000;
  if (*period > 1000000) *period = 1000000;
  *quota = (long)(share * (double)*period + 0.5);
  if (*quota < 1000) *quota = 1000;
}

int farm_cgroup_name(char *buf, size_t n, long pid, uint32_t run, unsigned host)
{
  return pathf(buf, n, "lbfarm-%ld-%lu-%u", pid, (unsigned long)run, host);
}

/* mkdir that refuses a name already there: it is another's (a pid of
 * another namespace, or a run that left it), not ours to use or remove. */
static int make(const char *dir, char *why, size_t n)
{
  if (!mkdir(dir, 0755)) return 0;
  if (errno == EEXIST) return say(why, n, "%s exists already (not this run's: left as it is)", dir);
  return say(why, n, "cannot create %s: %s", dir, strerror(errno));
}

static int start_v1(farm_cgroup *cg, const char *name, long pid, long quota, long period, char *why, size_t n)
{
  char base[PATHLEN], p[PATHLEN], self[PATHLEN];
  if (pathf(base, sizeof base, "%s/cpu", fs_root) || pathf(p, sizeof p, "%s/cpu.cfs_quota_us", base) || access(p, F_OK))
    return say(why, n, "no cpu controller at %s/cpu", fs_root);
  if (pathf(cg->dir, sizeof cg->dir, "%s/%s", base, name)) return say(why, n, "path too long under %s", base);
  if (self_cgroup("cpu", self, sizeof self) || join(cg->home, sizeof cg->home, base, self))
    snprintf(cg->home, sizeof cg->home, "%s", base);
  if (make(cg->dir, why, n)) return -1;
  if (put_long(cg->dir, "cpu.cfs_period_us", period) || put_long(cg->dir, "cpu.cfs_quota_us", quota) ||
      put_long(cg->dir, "cgroup.procs", pid)) {
    say(why, n, "cannot configure %s: %s", cg->dir, strerror(errno));
    rmdir(cg->dir);
    return -1;
  }
  return 1;
}

/* parent/NAME with cpu.max, and `pid` in it. */
static int enter_v2(farm_cgroup *cg, const char *parent, const char *name, long pid, long quota, long period, char *why,
                    size_t n)
{
  char max[64];
  if (pathf(cg->dir, sizeof cg->dir, "%s/%s", parent, name)) return say(why, n, "path too long under %s", parent);
  if (make(cg->dir, why, n)) return -1;
  snprintf(max, sizeof max, "%ld %ld\n", quota, period);
  if (put(cg->dir, "cpu.max", max) || put_long(cg->dir, "cgroup.procs", pid)) {
    say(why, n, "cannot configure %s: %s", cg->dir, strerror(errno));
    rmdir(cg->dir);
    return -1;
  }
  return 0;
}

/* Hand the cpu controller to d's children: its processes (ours: the
 * run's lbmaster, pvmd and workers, as it was delegated for the run)
 * move to d/lbfarm-leaf first.  New ones may fork meanwhile: a few
 * rounds, then the kernel says (EBUSY) if any is left. */
static int delegate_cpu(const char *d, char *why, size_t n)
{
  char leaf[PATHLEN], procs[8192];
  if (pathf(leaf, sizeof leaf, "%s/" FARM_CGROUP_LEAF, d)) return say(why, n, "path too long under %s", d);
  if (mkdir(leaf, 0755) && errno != EEXIST) return say(why, n, "cannot create %s: %s", leaf, strerror(errno));
  for (int round = 0; round < 10; round++) {
    if (get(d, "cgroup.procs", procs, sizeof procs)) return say(why, n, "cannot read %s/cgroup.procs", d);
    int moved = 0;
    for (char *s = procs, *e; *s; s = e) {
      long p = strtol(s, &e, 10);
      if (e == s) break;
      if (p > 0 && !put_long(leaf, "cgroup.procs", p)) moved++;
    }
    if (!moved) break;
  }
  if (put(d, "cgroup.subtree_control", "+cpu\n"))
    return say(why, n, "cannot enable cpu in %s/cgroup.subtree_control: %s", d, strerror(errno));
  return 0;
}

static int start_v2(farm_cgroup *cg, const char *name, long pid, long quota, long period, char *why, size_t n)
{
  char u[PATHLEN], d[PATHLEN], buf[1024], self[PATHLEN], top[PATHLEN + 128] = "";
  if (unified_root(u, sizeof u)) return say(why, n, "no hierarchy at %s", fs_root);
  if (get(u, "cgroup.controllers", buf, sizeof buf) || !has_word(buf, "cpu", " \n"))
    return say(why, n, "%s has no cpu controller (it is bound to cgroup v1, or disabled)", u);
  /* 1: at the top, which only root may write (its processes are exempt
   * from the no-internal-process rule). */
  int on = !get(u, "cgroup.subtree_control", buf, sizeof buf) && has_word(buf, "cpu", " \n");
  if (!on && put(u, "cgroup.subtree_control", "+cpu\n"))
    snprintf(top, sizeof top, "cannot enable cpu in %s/cgroup.subtree_control: %s", u, strerror(errno));
  else if (!enter_v2(cg, u, name, pid, quota, period, top, sizeof top)) {
    if (self_cgroup(NULL, self, sizeof self) || join(cg->home, sizeof cg->home, u, self))
      snprintf(cg->home, sizeof cg->home, "%s", u);
    return 2;
  }
  /* 2: our own cgroup, if it was delegated to us. */
  if (delegated_parent(u, d, sizeof d))
    return say(why, n, "%s; and this process's own cgroup is the root or unknown", top);
  if (get(d, "cgroup.controllers", buf, sizeof buf) || !has_word(buf, "cpu", " \n"))
    return say(why, n, "%s; and %s has no cpu controller (not delegated)", top, d);
  if (get(d, "cgroup.subtree_control", buf, sizeof buf) || !has_word(buf, "cpu", " \n")) {
    char p[PATHLEN], q[PATHLEN];
    if (pathf(p, sizeof p, "%s/cgroup.subtree_control", d) || pathf(q, sizeof q, "%s/cgroup.procs", d) ||
        access(p, W_OK) || access(q, W_OK))
      return say(why, n, "%s; and %s is not delegated to this user", top, d);
    char err[PATHLEN + 128];
    if (delegate_cpu(d, err, sizeof err)) return say(why, n, "%s; and %s", top, err);
  }
  char err[PATHLEN + 128];
  if (enter_v2(cg, d, name, pid, quota, period, err, sizeof err)) return say(why, n, "%s; and %s", top, err);
  if (pathf(cg->home, sizeof cg->home, "%s/" FARM_CGROUP_LEAF, d)) snprintf(cg->home, sizeof cg->home, "%s", d);
  return 2;
}

int farm_cgroup_start(farm_cgroup *cg, long pid, uint32_t run, unsigned host, double share, int want, char *why,
                      size_t whylen)
{
  long quota, period;
  char w1[PATHLEN + 128] = "", w2[3 * PATHLEN] = "", name[96];
  memset(cg, 0, sizeof *cg);
  if (!(share > 0 && share < 1) || pid <= 0 || want < 0 || want > 2 || run == FARM_CGROUP_ANY_RUN ||
      farm_cgroup_name(name, sizeof name, pid, run, host))
    return say(why, whylen, "no cgroup for share %g of process %ld", share, pid);
  quota_of(share, &quota, &period);
  int v = -1;
  if (want != 2) v = start_v1(cg, name, pid, quota, period, w1, sizeof w1);
  if (v < 0 && want != 1) v = start_v2(cg, name, pid, quota, period, w2, sizeof w2);
  if (v < 0) {
    if (want == 1) return say(why, whylen, "cgroup v1: %s", w1);
    if (want == 2) return say(why, whylen, "cgroup v2: %s", w2);
    return say(why, whylen, "cgroup v1: %s; cgroup v2: %s", w1, w2);
  }
  if (pathf(cg->home_procs, sizeof cg->home_procs, "%s/cgroup.procs", cg->home)) cg->home_procs[0] = '\0';
  cg->version = v;
  return v;
}

int farm_cgroup_stop(farm_cgroup *cg, long pid, double wait_s)
{
  if (!cg->version) return 0;
  /* A cgroup with members cannot be removed: go home first. */
  put_long(cg->home, "cgroup.procs", pid);
  int rc = remove_when_empty(cg->dir, mono() + wait_s);
  cg->version = 0;
  return rc;
}

/* ---- async-signal-safe: no stdio, no malloc, no opendir ---- */

/* Where a worker's cgroup can be: FS/cpu, U, and D (the caller's
 * delegated cgroup; the master shares its workers' scope). */
static char places[3][PATHLEN];
static volatile int nplaces;

void farm_cgroup_places(void)
{
  char u[PATHLEN], d[PATHLEN];
  int k = 0;
  nplaces = 0;
  if (!pathf(places[k], PATHLEN, "%s/cpu", fs_root)) k++;
  if (!unified_root(u, sizeof u)) {
    if (!pathf(places[k], PATHLEN, "%s", u)) k++;
    if (!delegated_parent(u, d, sizeof d) && strcmp(d, u) && !pathf(places[k], PATHLEN, "%s", d)) k++;
  }
  nplaces = k;
}

/* Decimal digits of v at *p (at most 20). */
static char *put_ul(char *p, unsigned long v)
{
  char t[24];
  int k = 0;
  do {
    t[k++] = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  while (k) *p++ = t[--k];
  return p;
}

/* Past one "DIGITS-" field of a cgroup name, or NULL. */
static const char *any_field(const char *q)
{
  const char *d = q;
  while (*d >= '0' && *d <= '9') d++;
  return d > q && *d == '-' ? d + 1 : NULL;
}

/* Past "V-" at q, or NULL. */
static const char *this_field(const char *q, const char *v, size_t vlen)
{
  return strncmp(q, v, vlen) ? NULL : q + vlen;
}

int farm_cgroup_forget_now(long pid, uint32_t run)
{
  /* lbfarm-PID-RUN-HOST: pid 0 or FARM_CGROUP_ANY_RUN matches any,
   * never both (every run's cgroups is nobody's request). */
  if (pid <= 0 && run == FARM_CGROUP_ANY_RUN) return 0;
  char ps[24], rs[24], *pe = ps, *re = rs;
  if (pid > 0) {
    pe = put_ul(ps, (unsigned long)pid);
    *pe++ = '-';
  }
  if (run != FARM_CGROUP_ANY_RUN) {
    re = put_ul(rs, (unsigned long)run);
    *re++ = '-';
  }
  int busy = 0, n = nplaces;
  for (int i = 0; i < n; i++) {
    int fd = open(places[i], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) continue;
    char buf[8192] __attribute__((aligned(8)));
    for (;;) {
      long got = syscall(SYS_getdents64, fd, buf, sizeof buf);
      if (got <= 0) break;
      for (long off = 0; off < got;) {
        struct dirent64 *d = (struct dirent64 *)(buf + off);
        off += d->d_reclen;
        const char *name = d->d_name, *q = strncmp(name, "lbfarm-", 7) ? NULL : name + 7;
        if (q) q = pe > ps ? this_field(q, ps, (size_t)(pe - ps)) : any_field(q);
        if (q) q = re > rs ? this_field(q, rs, (size_t)(re - rs)) : any_field(q);
        if (!q) continue;
        /* A task still in it: EBUSY (a fake tree: ENOTEMPTY). */
        if (unlinkat(fd, name, AT_REMOVEDIR) && errno != ENOENT) busy++;
      }
    }
    close(fd);
  }
  return busy;
}

int farm_cgroup_leave_now(const farm_cgroup *cg, long pid)
{
  if (!cg->version) return 0;
  if (cg->home_procs[0]) {
    char s[24], *e = put_ul(s, (unsigned long)pid);
    *e++ = '\n';
    int fd = open(cg->home_procs, O_WRONLY | O_CLOEXEC);
    if (fd >= 0) {
      ssize_t w = write(fd, s, (size_t)(e - s));
      (void)w; /* if it failed, so does the rmdir: nothing else to do */
      close(fd);
    }
  }
  return rmdir(cg->dir) && errno != ENOENT ? -1 : 0;
}

int farm_cgroup_forget(long pid, uint32_t run, double wait_s)
{
  if (pid < 0 || (pid == 0 && run == FARM_CGROUP_ANY_RUN)) return 0;
  double end = mono() + wait_s;
  farm_cgroup_places();
  while (farm_cgroup_forget_now(pid, run)) {
    if (mono() >= end) return -1;
    nap_ms(5);
  }
  return 0;
}
