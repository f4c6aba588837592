/* lbpvm_guard.h: a bound on every libpvm call that can block.
 *
 * libpvm waits for its pvmd in select() with no timeout: a stopped or
 * hung pvmd holds the caller for ever, and a SIGINT handler that only
 * sets a flag does not end that wait.  So every call that talks to the
 * pvmd runs between lbpvm_guard_begin() and lbpvm_guard_end(), and a
 * one-shot timer (SIGALRM) ends the process if the call outlives its
 * bound.  The expiry does only async-signal-safe work (write, kill,
 * rmdir, unlink, open/read and getdents on /proc and PVM_TMP, _exit):
 * it says what the process was waiting for, kills the workers it knows
 * on this host and the pvmd it started (and that pvmd's tasks), removes
 * their cgroups and the files they and this process made in PVM_TMP,
 * and exits 1.  Jumping out of libpvm instead would leave libpvm, and
 * perhaps malloc, in a state that the clean-up would then depend on.
 *
 * lbpvm_guard_signals() makes SIGINT and SIGTERM set the program's
 * flag, which its own short waits check, and start a grace period of
 * LBPVM_GUARD_GRACE_S: if the process is still there when it ends (in a
 * libpvm call, or a long computation), the same clean-up runs and it
 * exits 130.  A second signal runs it at once. */
#ifndef LBPVM_GUARD_H
#define LBPVM_GUARD_H

#include <signal.h>
#include <sys/types.h>

/* A pvmd answers a task in milliseconds; this is a call's bound unless
 * a caller says otherwise. */
#define LBPVM_GUARD_S       5.0
#define LBPVM_GUARD_GRACE_S 1.5

/* Before any other call (lbpvm_vm_join calls it too; a second call does
 * nothing): the timer, and the PVM_TMP to clean. */
void lbpvm_guard_init(void);
/* SIGINT/SIGTERM set *flag; see above. */
void lbpvm_guard_signals(volatile sig_atomic_t *flag);

/* Bound the libpvm call that follows to `secs` (<= 0: no bound, but an
 * interrupt still ends it).  `what` (a string that outlives the call)
 * ends the sentence "no answer from the pvmd for N s while ...". */
void lbpvm_guard_begin(const char *what, double secs);
void lbpvm_guard_end(void);
/* Instead of that sentence, say this line if the next bound expires
 * (printf format; cleared by lbpvm_guard_end). */
void lbpvm_guard_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Exit with this status, not 1, if the next bound expires (cleared by
 * lbpvm_guard_end): for a wait whose outcome changes nothing the run
 * has decided. */
void lbpvm_guard_status(int status);

/* On expiry, also end the pvmd this process started (pid, and its
 * tasks, found then among its children) and remove its files; -1: one
 * is starting, named by its address file once it has one; 0: none. */
void lbpvm_guard_own_vm(pid_t pvmd);
/* On expiry, also kill these workers (on this host), each only if it
 * is still the process that had that pid now. */
void lbpvm_guard_workers(const pid_t *pids, int n);

#endif
