# experiments/ for the planners: seed 003 tables and figure, seed 004
# example, benchmarks.
dist_noinst_SCRIPTS += experiments/seed003/run.sh experiments/seed004/tables.sh
EXTRA_DIST += experiments/seed003/fig2.gp experiments/seed003/report.awk \
	data/seed003-paper.csv experiments/seed004/figs.gp experiments/seed004/report.awk \
	experiments/seed004/paper_table1.csv experiments/seed004/paper_table2.csv
# The benchmark program is built by `make check` but is not a test.
check_PROGRAMS += experiments/bench/bench_planners
experiments_bench_bench_planners_SOURCES = experiments/bench/bench_planners.c \
	tests/tp_glpk.c tests/tp_glpk.h
experiments_bench_bench_planners_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
experiments_bench_bench_planners_LDADD = $(LB_LIBS) $(GLPK_LIBS)
dist_noinst_SCRIPTS += experiments/bench/planners.sh
EXTRA_DIST += docs/PLANNERS.md
