# master/: the PVM master.
bin_PROGRAMS += master/lbmaster
master_lbmaster_SOURCES = master/lbmaster.c master/farm_vm.c master/farm_vm.h
master_lbmaster_LDADD = worker/libfarm.a tools/libcli.a $(LB_LIBS)
