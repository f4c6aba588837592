# lb/: diffusion balancers (seed 001), heterogeneous diffusion and the
# processor-arrangement search (seed 002).
lb_liblb_a_SOURCES += \
	lb/lb_diffusion.c lb/lb_diffusion.h \
	lb/lb_diffuse.c lb/lb_diffuse.h \
	lb/lb_hetero.c lb/lb_hetero.h
lb_liblb_a_SOURCES += \
	lb/lb_symtri.c lb/lb_symtri.h \
	lb/lb_arrange.c lb/lb_arrange_search.c lb/lb_arrange.h lb/lb_arrange_ws.h
