/* lbpvm_tmp.c: a virtual machine's files in PVM_TMP (see the header). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <limits.h>
#include <unistd.h>
#include <sys/stat.h>
#include "lbpvm_tmp.h"
#include "cli.h"

const char *lbpvm_tmp_dir(void)
{
  const char *tmp = getenv("PVM_TMP"), *vmid = getenv("PVM_VMID");
  if (!tmp || !*tmp) tmp = "/tmp";
  struct stat st;
  if (stat(tmp, &st) || !S_ISDIR(st.st_mode))
    cli_usage_error("PVM_TMP=%s is not a directory (PVM keeps its files there)", tmp);
  if (vmid && strchr(vmid, '/'))
    cli_usage_error("PVM_VMID='%s' contains a '/'", vmid);
  return tmp;
}

void lbpvm_tmp_path(char *buf, size_t size, const char *stem)
{
  const char *vmid = getenv("PVM_VMID");
  if (vmid && *vmid)
    snprintf(buf, size, "%s/%s.%u.%s", lbpvm_tmp_dir(), stem, (unsigned)getuid(), vmid);
  else
    snprintf(buf, size, "%s/%s.%u", lbpvm_tmp_dir(), stem, (unsigned)getuid());
}

pid_t lbpvm_tmp_pvmd_pid(void)
{
  char path[PATH_MAX], line[PATH_MAX];
  lbpvm_tmp_path(path, sizeof path, "pvmd");
  FILE *f = fopen(path, "r");
  if (!f) return 0;
  char *got = fgets(line, sizeof line, f);
  fclose(f);
  char *s = got ? strstr(line, "/pvmtmp") : NULL;
  long pid = s ? strtol(s + 7, NULL, 10) : 0;
  return pid > 0 ? (pid_t)pid : -1;
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
  char *p = strrchr(buf, ')');   /* the name may hold spaces */
  if (!p || sscanf(p + 2, "%c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %*d %*d %llu",
                   state, start) != 2)
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
  fprintf(f, "%d %d %llu\n", (int)pvmd, (int)getpid(), lbpvm_tmp_start_time(getpid()));
  return fclose(f);
}

int lbpvm_tmp_mark_read(lbpvm_tmp_mark *m)
{
  char path[PATH_MAX];
  lbpvm_tmp_path(path, sizeof path, "lbfarm");
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  int pvmd, owner;
  int got = fscanf(f, "%d %d %llu", &pvmd, &owner, &m->owner_start);
  fclose(f);
  m->pvmd = pvmd;
  m->owner = owner;
  return got == 3 ? 0 : -1;
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
  const char *stems[] = { "pvmd", "pvml", "lbfarm" };
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
