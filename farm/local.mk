# farm/: what every farm transport shares, with no PVM or MPI in it: the
# farm message bodies (farm_wire) and their authentication (farm_auth,
# libsodium), the transport interface (farm_xport.h) and its counters,
# the payload store, and host speed emulation.
noinst_LIBRARIES += farm/libfarm.a
farm_libfarm_a_SOURCES = farm/farm_wire.c farm/farm_wire.h farm/farm_xport.h \
	farm/farm_auth.c farm/farm_auth.h farm/farm_journal.c farm/farm_journal.h \
	farm/farm_count.c farm/farm_count.h farm/farm_store.c farm/farm_store.h \
	farm/farm_throttle.c farm/farm_throttle.h farm/farm_cgroup.c farm/farm_cgroup.h
farm_libfarm_a_CFLAGS = $(AM_CFLAGS) $(SODIUM_CFLAGS)
FARM_LIBS = farm/libfarm.a $(SODIUM_LIBS)
