# experiments/bench/: the benchmarks.  Their programs are built by
# `make bench` only, never by `make` or `make check`, and no test times
# anything.
BENCH_BINS = experiments/bench/bench_planners experiments/bench/farm_kernel \
	experiments/bench/farm_pingpong
EXTRA_PROGRAMS = $(BENCH_BINS)
CLEANFILES += $(BENCH_BINS)
experiments_bench_bench_planners_SOURCES = experiments/bench/bench_planners.c
experiments_bench_bench_planners_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
experiments_bench_bench_planners_LDADD = $(TPREF_LIBS) $(LB_LIBS)
experiments_bench_farm_kernel_SOURCES = experiments/bench/farm_kernel.c
experiments_bench_farm_kernel_LDADD = $(APP_LIBS) $(CLI_LIBS) $(LB_LIBS)
experiments_bench_farm_pingpong_SOURCES = experiments/bench/farm_pingpong.c
experiments_bench_farm_pingpong_LDADD = $(FARM_LIBS) $(APP_LIBS) $(CLI_LIBS) $(LB_LIBS)
# The same ping-pong over the farm's MPI transport, where MPI was found.
if HAVE_MPI
BENCH_BINS += experiments/bench/farm_pingpong_mpi
endif
experiments_bench_farm_pingpong_mpi_SOURCES = experiments/bench/farm_pingpong.c mpi/mpi_xport.c mpi/mpi_xport.h
experiments_bench_farm_pingpong_mpi_CPPFLAGS = $(AM_CPPFLAGS) -DLBFARM_MPI -I$(top_srcdir)/mpi $(MPI_CFLAGS)
experiments_bench_farm_pingpong_mpi_LDADD = $(FARM_LIBS) $(APP_LIBS) $(CLI_LIBS) $(LB_LIBS) $(MPI_LIBS)
dist_noinst_SCRIPTS += experiments/bench/farm-bench.sh experiments/bench/planners.sh experiments/bench/mpi-bench.sh \
	experiments/bench/arrange_bench.sh experiments/bench/topo_read.sh experiments/bench/sim-scale.sh
EXTRA_DIST += experiments/bench/arrange_bench.py

.PHONY: bench bench-programs
bench-programs: $(BENCH_BINS) $(bin_PROGRAMS) $(pkglibexec_PROGRAMS)
# SIM_SCALE_FLAGS: options of sim-scale.sh, e.g. --quick.
bench: bench-programs
	$(SHELL) $(top_srcdir)/experiments/bench/planners.sh
	$(SHELL) $(top_srcdir)/experiments/bench/sim-scale.sh --builddir $(abs_top_builddir) $(SIM_SCALE_FLAGS)
