# pvm/: the farm over PVM, beside mpi/: the transport (messages and
# result payloads as PVM buffers), joining or starting the virtual
# machine and cleaning up after it, and the workers' output.
noinst_LIBRARIES += pvm/liblbpvm.a
pvm_liblbpvm_a_SOURCES = pvm/lbpvm_msg.c pvm/lbpvm_msg.h pvm/lbpvm_payload.c pvm/lbpvm_payload.h \
	pvm/lbpvm_xport.c pvm/lbpvm_xport.h pvm/lbpvm_vm.c pvm/lbpvm_vm.h pvm/lbpvm_tmp.c pvm/lbpvm_tmp.h \
	pvm/lbpvm_catchout.c pvm/lbpvm_catchout.h pvm/lbpvm_guard.c pvm/lbpvm_guard.h \
	pvm/lbpvm_cut.c pvm/lbpvm_cut.h
PVM_FARM_LIBS = pvm/liblbpvm.a $(FARM_LIBS)
