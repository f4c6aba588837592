/* lbpvm_vm.h: joining the PVM virtual machine, starting a private pvmd
 * when none is running, and halting it again. */
#ifndef LBPVM_VM_H
#define LBPVM_VM_H

#include <sys/types.h>

typedef struct lbpvm_vm {
  int mytid;
  int started; /* 1 if we started the pvmd and must halt it */
  pid_t pvmd;  /* the pvmd we started */
  int nhosts;
  int status; /* the exit status if leaving a VM we joined outlives its bound */
} lbpvm_vm;

/* Join a virtual machine.  Spawned by a pvmd (pvm_spawn, the console's
 * spawn), on whatever host: that pvmd's VM.  Otherwise the VM of
 * PVM_TMP and PVM_VMID: one whose pvmd listens at its address is
 * joined; a VM that an lbmaster started and left running when it died
 * is stopped first; one that another lbmaster still uses is refused;
 * files at whose address nothing listens are stale and removed; and
 * with no VM, a pvmd is started (named localhost if this host's name
 * does not resolve).  Every wait is bounded (lbpvm_guard.h): a pvmd
 * that does not answer within 5 s is reported with the step to take,
 * and never has a file removed.  0, or a PVM error code with a message
 * on stderr (with pvmd's own log when it could not start). */
int lbpvm_vm_join(lbpvm_vm *vm);
/* Leave: pvm_exit(), or if we started the pvmd, pvm_halt() and remove
 * what the VM kept in PVM_TMP (log, sockets).  Each has a bound: past
 * it, lbpvm_guard ends the process (halting: status 1; pvm_exit, which
 * waits for every worker's output: vm->status).  Safe to call twice;
 * not from a signal handler. */
void lbpvm_vm_leave(lbpvm_vm *vm);

/* Absolute path of the worker executable: $LBFARM_WORKER, then next to
 * this program (build tree or install), then the install location. */
int lbpvm_worker_path(char *buf, unsigned long size);

#endif
