# master/: lbmaster, the PVM master.
bin_PROGRAMS += master/lbmaster
master_lbmaster_SOURCES = master/lbmaster.c master/farm_run.c master/farm_run.h \
	master/farm_out.c master/farm_out.h master/farm_ctx.h master/farm_recover.c
master_lbmaster_LDADD = $(FARM_LIBS) $(APP_LIBS) tools/libcli.a $(LB_LIBS)
