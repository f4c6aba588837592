# master/: the master's side of a run over any farm transport
# (libmaster.a: options, set-up, results, recovery, reports, output),
# shared by lbmaster and lbmpi; and lbmaster, the PVM master.
noinst_LIBRARIES += master/libmaster.a
master_libmaster_a_SOURCES = master/farm_cli.c master/farm_cli.h master/farm_run.c master/farm_run.h \
	master/farm_out.c master/farm_out.h master/farm_ctx.h master/farm_recover.c
MASTER_LIBS = master/libmaster.a
bin_PROGRAMS += master/lbmaster
master_lbmaster_SOURCES = master/lbmaster.c
master_lbmaster_LDADD = $(MASTER_LIBS) $(FARM_LIBS) $(APP_LIBS) tools/libcli.a $(LB_LIBS)
