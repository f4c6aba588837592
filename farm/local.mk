# farm/: the PVM layer that lbmaster and lbworker share: message
# transport, result payloads, the virtual machine; and, PVM-free, the
# farm message bodies, the transport interface and its counters, and
# host speed emulation, which the MPI driver uses too.
noinst_LIBRARIES += farm/libfarm.a
farm_libfarm_a_SOURCES = farm/farm_msg.c farm/farm_msg.h farm/farm_payload.c farm/farm_payload.h \
	farm/farm_count.c farm/farm_count.h farm/farm_store.c farm/farm_store.h farm/farm_xport.h farm/farm_xpvm.c farm/farm_xpvm.h \
	farm/farm_wire.c farm/farm_wire.h \
	farm/farm_vm.c farm/farm_vm.h farm/farm_vmtmp.c farm/farm_vmtmp.h \
	farm/farm_catchout.c farm/farm_catchout.h \
	farm/farm_throttle.c farm/farm_throttle.h
FARM_LIBS = farm/libfarm.a
