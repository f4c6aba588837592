# simgrid/: the SimGrid driver, lbsimgrid (built only where configure
# found SimGrid), and the platform writer, plain C, which lbtopo uses on
# any machine.
noinst_LIBRARIES += simgrid/liblbsgplat.a
simgrid_liblbsgplat_a_SOURCES = simgrid/lbsg_platform.c simgrid/lbsg_platform.h
LBSG_PLATFORM_LIBS = simgrid/liblbsgplat.a

if HAVE_SIMGRID
bin_PROGRAMS += simgrid/lbsimgrid
endif
simgrid_lbsimgrid_SOURCES = simgrid/lbsimgrid.cpp simgrid/lbsg_actor.cpp simgrid/lbsg_actor.h \
	simgrid/lbsg_run.c simgrid/lbsg_run.h
simgrid_lbsimgrid_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/sim -I$(top_srcdir)/simgrid $(SIMGRID_CFLAGS)
simgrid_lbsimgrid_LDADD = $(LBSG_PLATFORM_LIBS) $(SIM_CLI_LIBS) $(SIMGRID_LIBS)
