# experiments/bench/farm.mk: task-farm benchmarks (built by make check,
# run by experiments/bench/farm-bench.sh; not timed tests).
check_PROGRAMS += experiments/bench/farm_kernel experiments/bench/farm_pingpong
experiments_bench_farm_kernel_SOURCES = experiments/bench/farm_kernel.c
experiments_bench_farm_kernel_LDADD = worker/libfarmapp.a tools/libcli.a $(OPENBLAS_LIBS) $(LB_LIBS)
experiments_bench_farm_pingpong_SOURCES = experiments/bench/farm_pingpong.c
experiments_bench_farm_pingpong_LDADD = worker/libfarm.a tools/libcli.a $(LB_LIBS)
dist_noinst_SCRIPTS += experiments/bench/farm-bench.sh
