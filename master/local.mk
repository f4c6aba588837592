# master/: the master's side of a run over any farm transport
# (libmaster.a: options, set-up, results, recovery, reports, output),
# shared by lbmaster and lbmpi; and lbmaster, the PVM master.
noinst_LIBRARIES += master/libmaster.a
master_libmaster_a_SOURCES = master/master_cli.c master/master_cli.h master/master_run.c master/master_run.h \
	master/master_out.c master/master_out.h master/master_ctx.h master/master_recover.c \
	master/master_trace.c master/master_trace.h \
	master/master_lease.c master/master_journal.c master/master_journal.h
MASTER_LIBS = master/libmaster.a
bin_PROGRAMS += master/lbmaster
master_lbmaster_SOURCES = master/lbmaster.c
master_lbmaster_LDADD = $(MASTER_LIBS) $(PVM_FARM_LIBS) $(APP_LIBS) $(CLI_LIBS) $(LB_LIBS)
