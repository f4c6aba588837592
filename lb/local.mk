# lb/: the algorithm library, with no PVM in it.
noinst_LIBRARIES += lb/liblb.a
lb_liblb_a_SOURCES = \
	lb/lb_errno.c lb/lb_errno.h \
	lb/lb_rng.c lb/lb_rng.h \
	lb/lb_topo.c lb/lb_topo_gen.c lb/lb_topo_io.c lb/lb_topo.h \
	lb/lb_paths.c lb/lb_paths.h \
	lb/lb_spectrum.c lb/lb_spectrum.h \
	lb/lb_load.c lb/lb_load.h \
	lb/lb_metrics.c lb/lb_metrics.h
LB_LIBS = lb/liblb.a $(GSL_LIBS)
