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
dist_noinst_SCRIPTS += experiments/bench/farm-bench.sh experiments/bench/planners.sh \
	experiments/bench/arrange_bench.sh experiments/bench/topo_read.sh
EXTRA_DIST += experiments/bench/arrange_bench.py

.PHONY: bench bench-programs
bench-programs: $(BENCH_BINS) $(bin_PROGRAMS) $(pkglibexec_PROGRAMS)
bench: bench-programs
	$(SHELL) $(top_srcdir)/experiments/bench/planners.sh
