# lb/proto.mk: processes, messages and the sans-I/O policy nodes.
lb_liblb_a_SOURCES += \
	lb/lb_proc.c lb/lb_proc.h \
	lb/lb_node.c lb/lb_node.h lb/lb_node_impl.h \
	lb/lb_pol_none.c lb/lb_pol_rmtlb.c lb/lb_pol_lowest.c \
	lb/lb_pol_diffusion.c lb/lb_pol_dasud.c lb/lb_pol_cchspmd.c
