# lb/: diffusion balancers (seed 001), heterogeneous diffusion and the
# processor-arrangement search (seed 002).
lb_liblb_a_SOURCES += \
	lb/lb_diffusion.c lb/lb_diffusion.h
