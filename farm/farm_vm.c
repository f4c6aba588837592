/* farm_vm.c: start, join and halt the PVM virtual machine. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <unistd.h>
#include <dirent.h>
#include <limits.h>
#include <pvm3.h>
#include "farm_vm.h"
#include "cli.h"

/* A pvmd killed with SIGKILL leaves $PVM_TMP/pvmd.<uid>* behind, and the
 * next start then waits ~44 s and fails with PvmDupHost.  Only called
 * after pvm_mytid() found no daemon, so the files are stale. */
static void remove_stale(void)
{
  const char *tmp = getenv("PVM_TMP");
  if (!tmp || !*tmp) tmp = "/tmp";
  char prefix[64];
  snprintf(prefix, sizeof prefix, "pvmd.%u", (unsigned)getuid());
  const char *vmid = getenv("PVM_VMID");
  DIR *d = opendir(tmp);
  if (!d) return;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (strncmp(e->d_name, prefix, strlen(prefix))) continue;
    const char *rest = e->d_name + strlen(prefix);
    /* Only this VM's file: pvmd.<uid> or pvmd.<uid>.<vmid>. */
    if (vmid && *vmid ? (rest[0] != '.' || strcmp(rest + 1, vmid)) : rest[0] != '\0')
      continue;
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", tmp, e->d_name);
    unlink(path);
  }
  closedir(d);
}

/* libpvm prints "No such file" three times when it probes for a daemon
 * whose address file does not exist; skip the probe in that case. */
static int address_file_exists(void)
{
  const char *tmp = getenv("PVM_TMP"), *vmid = getenv("PVM_VMID");
  char path[PATH_MAX];
  if (vmid && *vmid)
    snprintf(path, sizeof path, "%s/pvmd.%u.%s", tmp && *tmp ? tmp : "/tmp", (unsigned)getuid(), vmid);
  else
    snprintf(path, sizeof path, "%s/pvmd.%u", tmp && *tmp ? tmp : "/tmp", (unsigned)getuid());
  return access(path, F_OK) == 0;
}

int farm_vm_join(farm_vm *vm)
{
  vm->started = 0;
  pvm_setopt(PvmAutoErr, 0);
  int tid = address_file_exists() ? pvm_mytid() : -1;
  if (tid < 0) {
    remove_stale();
    /* pvmd refuses root unless told; we start a private daemon here. */
    if (geteuid() == 0) setenv("PVM_ALLOW_ROOT", "yes", 0);
    int s = pvm_start_pvmd(0, NULL, 1);
    if (s < 0 && s != PvmDupHost) {
      fprintf(stderr, "%s: cannot start a pvmd (PVM error %d)\n", cli_prog(), s);
      return s;
    }
    vm->started = s >= 0;
    tid = pvm_mytid();
    if (tid < 0) {
      fprintf(stderr, "%s: cannot join the PVM virtual machine (PVM error %d)\n",
              cli_prog(), tid);
      return tid;
    }
  }
  vm->mytid = tid;
  int nhost, narch;
  struct pvmhostinfo *hosts;
  vm->nhosts = pvm_config(&nhost, &narch, &hosts) < 0 ? 1 : nhost;
  return 0;
}

void farm_vm_leave(farm_vm *vm)
{
  if (vm->started) {
    /* pvm_halt() also SIGTERMs its caller. */
    signal(SIGTERM, SIG_IGN);
    pvm_halt();
  } else {
    pvm_exit();
  }
}

static int usable(const char *p)
{
  return access(p, X_OK) == 0;
}

int farm_worker_path(char *buf, unsigned long size)
{
  const char *env = getenv("LBFARM_WORKER");
  if (env && *env) {
    if (env[0] != '/' || !usable(env)) {
      fprintf(stderr, "%s: LBFARM_WORKER='%s' is not an absolute path to an executable\n",
              cli_prog(), env);
      return -1;
    }
    snprintf(buf, size, "%s", env);
    return 0;
  }
  char self[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n > 0) {
    self[n] = '\0';
    char *slash = strrchr(self, '/');
    if (slash) *slash = '\0';
    const char *rel[] = { "/lbworker", "/../worker/lbworker", "/../libexec/lbfarm/lbworker" };
    for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
      char cand[PATH_MAX];
      snprintf(cand, sizeof cand, "%s%s", self, rel[i]);
      char real[PATH_MAX];
      if (usable(cand) && realpath(cand, real)) {
        snprintf(buf, size, "%s", real);
        return 0;
      }
    }
  }
  if (usable(LBFARM_PKGLIBEXECDIR "/lbworker")) {
    snprintf(buf, size, "%s", LBFARM_PKGLIBEXECDIR "/lbworker");
    return 0;
  }
  fprintf(stderr, "%s: cannot find the worker executable 'lbworker'; set LBFARM_WORKER\n",
          cli_prog());
  return -1;
}
