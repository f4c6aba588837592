# experiments/: seed 002 tables and figures, diffusion convergence, and
# the arrangement-search benchmark.
dist_noinst_SCRIPTS += \
	experiments/seed002/table1.sh experiments/seed002/table3.sh \
	experiments/seed002/fig2.sh experiments/seed002/convergence.sh \
	experiments/seed002/report.sh experiments/seed002/crosscheck.sh \
	experiments/bench/arrange_bench.sh
EXTRA_DIST += \
	experiments/seed002/common.sh experiments/seed002/fig2.gp \
	experiments/seed002/convergence.gp experiments/seed002/paper_table1.csv \
	experiments/seed002/paper_table2.csv experiments/seed002/paper_table3.csv \
	experiments/seed002/crosscheck.py experiments/bench/arrange_bench.py
