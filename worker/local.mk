# worker/: the PVM worker and the message codec it shares with the master.
noinst_LIBRARIES += worker/libfarm.a
worker_libfarm_a_SOURCES = worker/farm_msg.c worker/farm_msg.h

pkglibexec_PROGRAMS += worker/lbworker
worker_lbworker_SOURCES = worker/lbworker.c
worker_lbworker_LDADD = worker/libfarm.a tools/libcli.a $(LB_LIBS)
