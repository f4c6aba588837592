# worker/: lbworker, the PVM worker (one per logical host).
pkglibexec_PROGRAMS += worker/lbworker
worker_lbworker_SOURCES = worker/lbworker.c
worker_lbworker_LDADD = $(FARM_LIBS) $(APP_LIBS) tools/libcli.a $(LB_LIBS)
