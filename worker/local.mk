# worker/: the host core (libhost.a: one logical host over any farm
# transport) and lbworker, which runs it over PVM, one per logical host.
noinst_LIBRARIES += worker/libhost.a
worker_libhost_a_SOURCES = worker/worker_host.c worker/worker_host.h worker/worker_trace.c worker/worker_trace.h
HOST_LIBS = worker/libhost.a
pkglibexec_PROGRAMS += worker/lbworker
worker_lbworker_SOURCES = worker/lbworker.c
worker_lbworker_LDADD = $(HOST_LIBS) $(PVM_FARM_LIBS) $(APP_LIBS) $(CLI_LIBS) $(LB_LIBS)
