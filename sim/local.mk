# sim/: the discrete-event simulator (library and the lbsim tool).
noinst_LIBRARIES += sim/libsim.a
sim_libsim_a_SOURCES = sim/lb_sim.c sim/lb_sim.h sim/sim_impl.h sim/sim_loop.c sim/sim_prefetch.c sim/sim_net.c \
	sim/sim_check.c sim/sim_live.c sim/sim_faults.c sim/sim_load.c sim/sim_arena.c sim/sim_arena.h sim/sim_heap.c sim/sim_heap.h sim/sim_queue.c sim/sim_queue.h
sim_libsim_a_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/sim
SIM_LIBS = sim/libsim.a $(LB_LIBS)

bin_PROGRAMS += sim/lbsim
sim_lbsim_SOURCES = sim/lbsim.c
sim_lbsim_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/sim
sim_lbsim_LDADD = $(CLI_LIBS) $(SIM_LIBS)
