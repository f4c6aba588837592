# worker/: the PVM worker, the message codec it shares with the master,
# and the PVM-free workloads (libfarmapp).
noinst_LIBRARIES += worker/libfarm.a worker/libfarmapp.a
worker_libfarm_a_SOURCES = worker/farm_msg.c worker/farm_msg.h worker/farm_lbmsg.c worker/farm_lbmsg.h \
	worker/farm_payload.c worker/farm_payload.h
worker_libfarmapp_a_SOURCES = worker/farm_app.c worker/farm_app.h worker/farm_app_impl.h \
	worker/farm_mem.c worker/farm_mem.h \
	worker/app_matmul.c worker/app_primes.c

pkglibexec_PROGRAMS += worker/lbworker
worker_lbworker_SOURCES = worker/lbworker.c worker/farm_wire.h worker/farm_throttle.c worker/farm_throttle.h
worker_lbworker_LDADD = worker/libfarm.a worker/libfarmapp.a tools/libcli.a $(OPENBLAS_LIBS) $(LB_LIBS)
