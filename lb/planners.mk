# lb/ planners: transport balancing (seed 003), Hu-Blake diffusion,
# divisible-load sharing (seed 004).
lb_liblb_a_SOURCES += \
	lb/lb_tp.c lb/lb_transport.c lb/lb_transport.h \
	lb/lb_hublake.c lb/lb_hublake.h \
	lb/lb_taskgraph.c lb/lb_taskgraph.h \
	lb/lb_share.c lb/lb_share.h
