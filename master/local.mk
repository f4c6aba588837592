# master/: the PVM master.
bin_PROGRAMS += master/lbmaster
master_lbmaster_SOURCES = master/lbmaster.c master/farm_vm.c master/farm_vm.h \
	master/farm_catchout.c master/farm_catchout.h \
	master/farm_run.c master/farm_run.h master/farm_verify.c master/farm_verify.h \
	worker/farm_throttle.c worker/farm_throttle.h
master_lbmaster_LDADD = worker/libfarm.a worker/libfarmapp.a tools/libcli.a $(OPENBLAS_LIBS) $(LB_LIBS)
