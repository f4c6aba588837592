# sim/: the discrete-event simulator (library and the lbsim tool).
# Installed beside liblb as liblbsim.a with lb_sim.h, so that a program
# runs its own policy (lb/lb_policy.h) in the simulator
# (examples/policy.c); its other headers stay here.
lib_LIBRARIES += sim/liblbsim.a
lbfarminclude_HEADERS += sim/lb_sim.h
sim_liblbsim_a_SOURCES = sim/lb_sim.c sim/lb_sim.h sim/sim_impl.h sim/sim_loop.c sim/sim_prefetch.c sim/sim_net.c \
	sim/sim_check.c sim/sim_live.c sim/sim_faults.c sim/sim_silent.c sim/sim_load.c sim/sim_trace.c sim/sim_arena.c sim/sim_arena.h sim/sim_heap.c sim/sim_heap.h sim/sim_queue.c sim/sim_queue.h
sim_liblbsim_a_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/sim
SIM_LIBS = sim/liblbsim.a $(LB_LIBS)

# lbsim's command line, which the SimGrid driver shares (simgrid/).
noinst_LIBRARIES += sim/libsimcli.a
sim_libsimcli_a_SOURCES = sim/sim_cli.c sim/sim_cli.h
sim_libsimcli_a_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/sim
SIM_CLI_LIBS = sim/libsimcli.a $(CLI_LIBS) $(SIM_LIBS)

bin_PROGRAMS += sim/lbsim
sim_lbsim_SOURCES = sim/lbsim.c
sim_lbsim_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/sim
sim_lbsim_LDADD = $(SIM_CLI_LIBS)
