/* lbpvm_vm.h: joining the PVM virtual machine, starting a private pvmd
 * when none is running, and halting it again. */
#ifndef LBPVM_VM_H
#define LBPVM_VM_H

typedef struct lbpvm_vm {
  int mytid;
  int started;   /* 1 if we started the pvmd and must halt it */
  int nhosts;
} lbpvm_vm;

/* Join the VM of PVM_TMP and PVM_VMID, starting a pvmd if there is none
 * (named localhost if this host's name does not resolve).  A VM that an
 * lbmaster started and left running when it died is stopped first; one
 * that another lbmaster still uses is refused; a pvmd that lbmaster did
 * not start and that does not answer within 5 s is reported with the
 * step to take.  0, or a PVM error code with a message on stderr (with
 * pvmd's own log when it could not start). */
int lbpvm_vm_join(lbpvm_vm *vm);
/* Leave: pvm_exit(), or if we started the pvmd, pvm_halt() and remove
 * what the VM kept in PVM_TMP (log, sockets).  Safe to call twice; not
 * from a signal handler. */
void lbpvm_vm_leave(lbpvm_vm *vm);

/* Absolute path of the worker executable: $LBFARM_WORKER, then next to
 * this program (build tree or install), then the install location. */
int lbpvm_worker_path(char *buf, unsigned long size);

#endif
