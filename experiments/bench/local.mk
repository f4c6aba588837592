# experiments/bench/: the benchmarks.  Their programs are built by
# `make bench` only, never by `make` or `make check`, and no test times
# anything.
BENCH_BINS = experiments/bench/bench_planners experiments/bench/farm_kernel \
	experiments/bench/farm_pingpong
EXTRA_PROGRAMS = $(BENCH_BINS)
CLEANFILES += $(BENCH_BINS)
experiments_bench_bench_planners_SOURCES = experiments/bench/bench_planners.c
experiments_bench_bench_planners_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
experiments_bench_bench_planners_LDADD = $(TPREF_LIBS) $(CLI_LIBS) $(LB_LIBS)
experiments_bench_farm_kernel_SOURCES = experiments/bench/farm_kernel.c
experiments_bench_farm_kernel_LDADD = $(APP_LIBS) $(CLI_LIBS) $(LB_LIBS)
experiments_bench_farm_pingpong_SOURCES = experiments/bench/farm_pingpong.c
experiments_bench_farm_pingpong_LDADD = $(PVM_FARM_LIBS) $(APP_LIBS) $(CLI_LIBS) $(LB_LIBS)
# The same ping-pong over the farm's MPI transport, where MPI was found.
if HAVE_MPI
BENCH_BINS += experiments/bench/farm_pingpong_mpi
endif
experiments_bench_farm_pingpong_mpi_SOURCES = experiments/bench/farm_pingpong.c mpi/mpi_xport.c mpi/mpi_xport.h
experiments_bench_farm_pingpong_mpi_CPPFLAGS = $(AM_CPPFLAGS) -DLBFARM_MPI -I$(top_srcdir)/mpi $(MPI_CFLAGS)
experiments_bench_farm_pingpong_mpi_LDADD = $(FARM_LIBS) $(APP_LIBS) $(CLI_LIBS) $(LB_LIBS) $(MPI_LIBS)
dist_noinst_SCRIPTS += experiments/bench/run.sh experiments/bench/arrange.sh \
	experiments/bench/planners.sh experiments/bench/transport.sh experiments/bench/kernel.sh \
	experiments/bench/farm.sh experiments/bench/farm-bench.sh experiments/bench/mpi-bench.sh \
	experiments/bench/topo_read.sh experiments/bench/sim-scale.sh experiments/bench/simgrid.sh \
	experiments/bench/throttle.sh experiments/bench/sim-targets.sh experiments/bench/tourn32.sh
EXTRA_DIST += experiments/bench/lib.sh experiments/bench/arrange_bench.py \
	experiments/bench/tp_highs.py experiments/bench/tp_lemon.cc

# `make bench` runs experiments/bench/run.sh: every script in
# BENCH_LIST appends rows to out/bench/bench.csv, then bench.md is
# written (the row format is in experiments/bench/lib.sh).  A new
# benchmark is a script experiments/bench/NAME.sh added to the list.
# BENCH_FARM=1 adds the PVM farm (farm.sh, about an hour, and throttle.sh,
# host speed emulation, about 10 minutes on a quiet machine).
# `make bench BENCH_LIST=sim-scale` runs the simulator at scale alone
# (sim-scale.sh, about half an hour: docs/PERFORMANCE.md); sim-targets,
# in the default list, only the simulator's two targets (1 024 and 10^6
# nodes, about a minute of CPU).
BENCH_LIST = arrange transport planners kernel simgrid sim-targets
BENCH_FARM = 0
.PHONY: bench bench-programs
bench-programs: $(BENCH_BINS) $(bin_PROGRAMS) $(pkglibexec_PROGRAMS) lb/liblb.a
bench: bench-programs
	BENCH_LIST='$(BENCH_LIST)' BENCH_FARM='$(BENCH_FARM)' LB_TOP_BUILDDIR='$(abs_top_builddir)' \
	  $(SHELL) $(top_srcdir)/experiments/bench/run.sh
