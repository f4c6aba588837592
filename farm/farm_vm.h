/* farm_vm.h: joining the PVM virtual machine, starting a private pvmd
 * when none is running, and halting it again. */
#ifndef FARM_VM_H
#define FARM_VM_H

typedef struct farm_vm {
  int mytid;
  int started;   /* 1 if we started the pvmd and must halt it */
  int nhosts;
} farm_vm;

/* Join the VM, starting a pvmd if none answers.  0 or a PVM error code
 * with a message on stderr. */
int farm_vm_join(farm_vm *vm);
/* Leave: pvm_halt() if we started the pvmd, else pvm_exit(). */
void farm_vm_leave(farm_vm *vm);

/* Absolute path of the worker executable: $LBFARM_WORKER, then next to
 * this program (build tree or install), then the install location. */
int farm_worker_path(char *buf, unsigned long size);

#endif
