# lb/: the engine, with no PVM in it: graphs, spectra, planners, the
# sans-I/O policy nodes, their byte codec and the driver runtime.
lib_LIBRARIES = lb/liblb.a
lb_liblb_a_SOURCES = \
	lb/lb_errno.c lb/lb_errno.h lb/lb_mem.c lb/lb_mem.h \
	lb/lb_rng.c lb/lb_rng.h \
	lb/lb_topo.c lb/lb_topo_gen.c lb/lb_topo_io.c lb/lb_topo_dist.c lb/lb_topo_route.c lb/lb_topo_repair.c \
	lb/lb_topo.h lb/lb_topo_impl.h lb/lb_topo_matrix.c lb/lb_topo_matrix.h \
	lb/lb_paths.c lb/lb_paths.h \
	lb/lb_spectrum.c lb/lb_spectrum.h \
	lb/lb_load.c lb/lb_load.h \
	lb/lb_metrics.c lb/lb_metrics.h \
	lb/lb_diffusion.c lb/lb_diffusion.h \
	lb/lb_diffuse.c lb/lb_diffuse.h \
	lb/lb_hetero.c lb/lb_hetero.h \
	lb/lb_symtri.c lb/lb_symtri.h \
	lb/lb_arrange.c lb/lb_arrange_search.c lb/lb_arrange_lanes.c lb/lb_arrange.h lb/lb_arrange_ws.h \
	lb/lb_tp.c lb/lb_transport.c lb/lb_transport.h \
	lb/lb_optimum.c lb/lb_optimum.h \
	lb/lb_transport_simplex.c lb/lb_transport_simplex.h \
	lb/lb_hublake.c lb/lb_hublake.h \
	lb/lb_taskgraph.c lb/lb_taskgraph.h \
	lb/lb_share.c lb/lb_share.h \
	lb/lb_proc.c lb/lb_proc.h lb/lb_wire.h lb/lb_codec.c lb/lb_codec.h \
	lb/lb_node.c lb/lb_node.h lb/lb_node_impl.h lb/lb_qindex.c lb/lb_qindex.h lb/lb_param.c lb/lb_param.h lb/lb_policy_prepare.c lb/lb_rmtlb.h \
	lb/lb_policy.h lb/lb_policy_reg.c \
	lb/lb_rt.c lb/lb_rt.h lb/lb_trace.c lb/lb_trace.h lb/lb_sink.c lb/lb_sink.h lb/lb_lease.c lb/lb_lease.h \
	lb/lb_pol_none.c lb/lb_pol_rmtlb.c lb/lb_pol_lowest.c \
	lb/lb_pol_diffusion.c lb/lb_pol_dasud.c lb/lb_pol_cchspmd.c lb/lb_pol_exchange.c \
	lb/lb_pol_steal.c lb/lb_pol_pool.c lb/lb_pol_ring.c
LB_LIBS = lb/liblb.a $(GSL_LIBS)

# Installed: the static archive (no libtool: docs/BUILD.md), the public
# headers in $(includedir)/lbfarm, which lbfarm.pc's Cflags names, and
# lbfarm.pc.  The private ones (*_impl.h, lb_arrange_ws.h, lb_wire.h,
# lb_symtri.h) stay in the source tree.
lbfarmincludedir = $(includedir)/lbfarm
lbfarminclude_HEADERS = lb/lb_errno.h lb/lb_mem.h lb/lb_rng.h lb/lb_topo.h lb/lb_topo_matrix.h lb/lb_paths.h \
	lb/lb_spectrum.h lb/lb_load.h lb/lb_metrics.h lb/lb_diffusion.h \
	lb/lb_diffuse.h lb/lb_hetero.h lb/lb_arrange.h lb/lb_transport.h \
	lb/lb_hublake.h lb/lb_taskgraph.h lb/lb_share.h lb/lb_proc.h lb/lb_optimum.h \
	lb/lb_codec.h lb/lb_node.h lb/lb_param.h lb/lb_policy.h lb/lb_rmtlb.h lb/lb_rt.h lb/lb_trace.h lb/lb_sink.h lb/lb_lease.h
pkgconfig_DATA = lb/lbfarm.pc
