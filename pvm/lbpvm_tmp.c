/* lbpvm_tmp.c: a virtual machine's files in PVM_TMP (see the header). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <limits.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <netinet/in.h>
#include <fcntl.h>
#include <poll.h>
#include <errno.h>
#include "lbpvm_tmp.h"
#include "cli.h"

const char *lbpvm_tmp_dir(void)
{
  const char *tmp = getenv("PVM_TMP"), *vmid = getenv("PVM_VMID");
  if (!tmp || !*tmp) tmp = "/tmp";
  struct stat st;
  if (stat(tmp, &st) || !S_ISDIR(st.st_mode))
    cli_usage_error("PVM_TMP=%s is not a directory (PVM keeps its files there)", tmp);
  if (vmid && strchr(vmid, '/')) cli_usage_error("PVM_VMID='%s' contains a '/'", vmid);
  return tmp;
}

void lbpvm_tmp_path(char *buf, size_t size, const char *stem)
{
  const char *vmid = getenv("PVM_VMID");
  if (vmid && *vmid) snprintf(buf, size, "%s/%s.%u.%s", lbpvm_tmp_dir(), stem, (unsigned)getuid(), vmid);
  else snprintf(buf, size, "%s/%s.%u", lbpvm_tmp_dir(), stem, (unsigned)getuid());
}

int lbpvm_tmp_address(char *buf, size_t size)
{
  char path[PATH_MAX];
  lbpvm_tmp_path(path, sizeof path, "pvmd");
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  char *got = fgets(buf, (int)size, f);
  fclose(f);
  if (!got) buf[0] = '\0';
  buf[strcspn(buf, "\r\n")] = '\0';
  return 0;
}

pid_t lbpvm_tmp_pvmd_pid(void)
{
  char line[PATH_MAX];
  if (lbpvm_tmp_address(line, sizeof line)) return 0;
  /* The socket file's own name, never a "/pvmtmp" earlier in PVM_TMP. */
  char *base = strrchr(line, '/');
  base = base ? base + 1 : line;
  if (strncmp(base, "pvmtmp", 6)) return -1;
  char *end;
  long pid = strtol(base + 6, &end, 10);
  return pid > 0 && *end == '.' ? (pid_t)pid : -1;
}

/* Connect without waiting: 1 if the attempt reached a listener (or
 * could not tell), 0 if nobody listens there. */
static int try_connect(int fd, const struct sockaddr *sa, socklen_t len)
{
  int fl = fcntl(fd, F_GETFL);
  if (fl >= 0) fcntl(fd, F_SETFL, fl | O_NONBLOCK);
  int r = connect(fd, sa, len);
  if (r && errno == EINPROGRESS) {
    struct pollfd p = {fd, POLLOUT, 0};
    int err = 0;
    socklen_t el = sizeof err;
    if (poll(&p, 1, 1000) == 1 && getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &el) == 0 && err) {
      errno = err;
      r = -1;
    } else {
      r = 0;
    }
  }
  int gone = r && (errno == ECONNREFUSED || errno == ENOENT || errno == ENOTSOCK);
  close(fd);
  return !gone;
}

int lbpvm_tmp_listening(const char *addr)
{
  if (addr[0] == '/') {
    struct sockaddr_un un;
    if (strlen(addr) >= sizeof un.sun_path) return 1;
    memset(&un, 0, sizeof un);
    un.sun_family = AF_UNIX;
    strcpy(un.sun_path, addr);
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    return fd < 0 ? 1 : try_connect(fd, (struct sockaddr *)&un, sizeof un);
  }
  /* Without Unix sockets pvmd writes its TCP address: hex ip:port. */
  unsigned ip, port;
  if (sscanf(addr, "%x:%x", &ip, &port) != 2 || port > 0xffff) return 1;
  struct sockaddr_in in;
  memset(&in, 0, sizeof in);
  in.sin_family = AF_INET;
  in.sin_addr.s_addr = htonl(ip);
  in.sin_port = htons((unsigned short)port);
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  return fd < 0 ? 1 : try_connect(fd, (struct sockaddr *)&in, sizeof in);
}

/* The inode of the listening Unix socket bound to `path`, 0 if none. */
static unsigned long listener_inode(const char *path)
{
  FILE *f = fopen("/proc/net/unix", "r");
  if (!f) return 0;
  char line[PATH_MAX + 128];
  unsigned long found = 0;
  while (!found && fgets(line, sizeof line, f)) {
    unsigned long flags, inode;
    int off = 0;
    if (sscanf(line, "%*s %*s %*s %lx %*s %*s %lu %n", &flags, &inode, &off) < 2 || !off) continue;
    char *p = line + off;
    p[strcspn(p, "\n")] = '\0';
    if ((flags & 0x10000) && !strcmp(p, path)) found = inode; /* __SO_ACCEPTCON: listening */
  }
  fclose(f);
  return found;
}

static int holds_socket(long pid, const char *want)
{
  char dir[64];
  snprintf(dir, sizeof dir, "/proc/%ld/fd", pid);
  DIR *d = opendir(dir);
  if (!d) return 0;
  int yes = 0;
  struct dirent *e;
  while (!yes && (e = readdir(d))) {
    char p[320], l[64];
    snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
    ssize_t n = readlink(p, l, sizeof l - 1);
    if (n > 0) {
      l[n] = '\0';
      yes = !strcmp(l, want);
    }
  }
  closedir(d);
  return yes;
}

pid_t lbpvm_tmp_socket_owner(const char *path)
{
  unsigned long inode = listener_inode(path);
  if (!inode) return 0;
  char want[64];
  snprintf(want, sizeof want, "socket:[%lu]", inode);
  DIR *d = opendir("/proc");
  if (!d) return 0;
  pid_t owner = 0;
  struct dirent *e;
  while (!owner && (e = readdir(d))) {
    long pid = strtol(e->d_name, NULL, 10);
    if (pid > 0 && holds_socket(pid, want)) owner = (pid_t)pid;
  }
  closedir(d);
  return owner;
}

/* Fields 3 (state) and 22 (start time) of /proc/PID/stat. */
static int proc_stat(pid_t pid, char *state, unsigned long long *start)
{
  char path[64], buf[1024];
  snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = '\0';
  char *p = strrchr(buf, ')'); /* the name may hold spaces */
  if (!p || sscanf(p + 2, "%c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %*d %*d %llu", state,
                   start) != 2)
    return -1;
  return 0;
}

char lbpvm_tmp_state(pid_t pid)
{
  char s;
  unsigned long long t;
  return pid > 0 && proc_stat(pid, &s, &t) == 0 ? s : 0;
}

unsigned long long lbpvm_tmp_start_time(pid_t pid)
{
  char s;
  unsigned long long t;
  return proc_stat(pid, &s, &t) == 0 ? t : 0;
}

int lbpvm_tmp_alive(pid_t pid, unsigned long long start)
{
  char s;
  unsigned long long t;
  if (pid <= 0 || proc_stat(pid, &s, &t)) return 0;
  return s != 'Z' && s != 'X' && (!start || t == start);
}

int lbpvm_tmp_children(pid_t parent, pid_t *pids, int max)
{
  DIR *d = opendir("/proc");
  if (!d) return 0;
  int n = 0;
  struct dirent *e;
  while (n < max && (e = readdir(d))) {
    long pid = strtol(e->d_name, NULL, 10);
    if (pid <= 0) continue;
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f) continue;
    size_t len = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[len] = '\0';
    char *p = strrchr(buf, ')');
    int ppid;
    if (p && sscanf(p + 2, "%*c %d", &ppid) == 1 && ppid == parent) pids[n++] = (pid_t)pid;
  }
  closedir(d);
  return n;
}

int lbpvm_tmp_mark_write(pid_t pvmd)
{
  char path[PATH_MAX];
  lbpvm_tmp_path(path, sizeof path, "lbfarm");
  FILE *f = fopen(path, "w");
  if (!f) return -1;
  fprintf(f, "%d %llu %d %llu\n", (int)pvmd, lbpvm_tmp_start_time(pvmd), (int)getpid(), lbpvm_tmp_start_time(getpid()));
  return fclose(f);
}

int lbpvm_tmp_run_write(uint32_t run)
{
  char path[PATH_MAX];
  lbpvm_tmp_path(path, sizeof path, LBPVM_TMP_RUN);
  FILE *f = fopen(path, "w");
  if (!f) return -1;
  fprintf(f, "%lu\n", (unsigned long)run);
  return fclose(f);
}

int lbpvm_tmp_mark_read(lbpvm_tmp_mark *m)
{
  char path[PATH_MAX];
  lbpvm_tmp_path(path, sizeof path, "lbfarm");
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  int pvmd, owner;
  int got = fscanf(f, "%d %llu %d %llu", &pvmd, &m->pvmd_start, &owner, &m->owner_start);
  fclose(f);
  m->pvmd = pvmd;
  m->owner = owner;
  return got == 4 && pvmd > 0 && owner > 0 ? 0 : -1;
}

void lbpvm_tmp_remove_sockets(pid_t pid)
{
  const char *dir = lbpvm_tmp_dir();
  char prefix[32];
  snprintf(prefix, sizeof prefix, "pvmtmp%06d.", (int)pid);
  DIR *d = opendir(dir);
  if (!d) return;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (strncmp(e->d_name, prefix, strlen(prefix))) continue;
    char path[PATH_MAX];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    if (lstat(path, &st) == 0 && S_ISSOCK(st.st_mode) && st.st_uid == getuid()) unlink(path);
  }
  closedir(d);
}

void lbpvm_tmp_remove_vm(pid_t pvmd)
{
  const char *stems[] = {"pvmd", "pvml", "lbfarm", LBPVM_TMP_RUN};
  for (size_t i = 0; i < sizeof stems / sizeof stems[0]; i++) {
    char path[PATH_MAX];
    lbpvm_tmp_path(path, sizeof path, stems[i]);
    unlink(path);
  }
  if (pvmd > 0) lbpvm_tmp_remove_sockets(pvmd);
}

int lbpvm_tmp_log_tail(const char *indent)
{
  char path[PATH_MAX], lines[6][512];
  lbpvm_tmp_path(path, sizeof path, "pvml");
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  int n = 0;
  while (fgets(lines[n % 6], sizeof lines[0], f)) n++;
  fclose(f);
  for (int i = n > 6 ? n - 6 : 0; i < n; i++) {
    char *l = lines[i % 6];
    l[strcspn(l, "\n")] = '\0';
    fprintf(stderr, "%s%s\n", indent, l);
  }
  return n > 0 ? 0 : -1;
}
