/* lbpvm_tmp.h: the files a virtual machine keeps in PVM_TMP, and the
 * processes behind them.
 *
 * A pvmd names its files after the user and PVM_VMID: the address file
 * pvmd.<uid>[.<vmid>] (which holds the path of its socket,
 * pvmtmp<pid>.0), and its log pvml.<uid>[.<vmid>].  The pid in the
 * socket's name is that of the process that made it, which is not the
 * live pvmd's on a slave host (it forks after): whether a VM lives is
 * asked of its socket, and who holds it of the kernel.  Every task adds
 * sockets pvmtmp<pid>.<n>, which PVM does not always remove.  lbmaster
 * adds lbfarm.<uid>[.<vmid>] to a VM it starts: "<pvmd pid> <pvmd start
 * time> <lbmaster pid> <lbmaster start time>", so a later run can tell
 * a VM left by a crashed lbmaster from one somebody else started. */
#ifndef LBPVM_TMP_H
#define LBPVM_TMP_H

#include <stddef.h>
#include <sys/types.h>
#include <stdint.h>

typedef struct lbpvm_tmp_mark {
  pid_t pvmd, owner;
  unsigned long long pvmd_start, owner_start;
} lbpvm_tmp_mark;

/* PVM_TMP (default /tmp); exits with status 2 when PVM_TMP is not a
 * directory or PVM_VMID contains a '/'. */
const char *lbpvm_tmp_dir(void);
/* "<dir>/<stem>.<uid>[.<vmid>]" for stem "pvmd", "pvml" or "lbfarm". */
void lbpvm_tmp_path(char *buf, size_t size, const char *stem);
/* The address file's line (a socket path, or hex ip:port without Unix
 * sockets) into buf; -1 without an address file. */
int lbpvm_tmp_address(char *buf, size_t size);
/* The pid in the name of the socket file the address file names (its
 * own name, not PVM_TMP's path): 0 without an address file, -1 if it
 * names none.  Only a hint: see above. */
pid_t lbpvm_tmp_pvmd_pid(void);
/* 1 if something listens at an address file's address (also a stopped
 * process, and when it cannot tell), 0 if nobody does: a stale file. */
int lbpvm_tmp_listening(const char *addr);
/* The process holding the listening Unix socket at `path` (the kernel's
 * /proc/net/unix and /proc/PID/fd), 0 if none or unknown. */
pid_t lbpvm_tmp_socket_owner(const char *path);

/* A running (not zombie) process; with start != 0 it must also have
 * started at that time (clock ticks after boot), so a reused pid fails. */
int lbpvm_tmp_alive(pid_t pid, unsigned long long start);
unsigned long long lbpvm_tmp_start_time(pid_t pid);
/* 'T' for a stopped process, etc.; 0 if there is none. */
char lbpvm_tmp_state(pid_t pid);
/* The pids of the children of `parent` (a pvmd's tasks), up to max. */
int lbpvm_tmp_children(pid_t parent, pid_t *pids, int max);

int lbpvm_tmp_mark_write(pid_t pvmd);
/* The run of the lbmaster that started the VM, in PVM_TMP/LBPVM_TMP_RUN.*
 * until the VM goes: whoever cleans up after an lbmaster that was killed
 * (scripts/lib.sh's lb_vm_cleanup) removes that run's cgroups with it. */
#define LBPVM_TMP_RUN "lbfarmrun"
int lbpvm_tmp_run_write(uint32_t run);
int lbpvm_tmp_mark_read(lbpvm_tmp_mark *m);
/* Remove pvmtmp<pid>.* files of ours. */
void lbpvm_tmp_remove_sockets(pid_t pid);
/* Remove the address file, log and mark, and the sockets of `pvmd`. */
void lbpvm_tmp_remove_vm(pid_t pvmd);
/* Print the last lines of the pvmd log, each after `indent`; 0 if it
 * had any. */
int lbpvm_tmp_log_tail(const char *indent);

#endif
