# experiments/ for the planners: seed 003 tables and figure, seed 004
# example, benchmarks.
dist_noinst_SCRIPTS += experiments/seed003/run.sh
EXTRA_DIST += experiments/seed003/fig2.gp experiments/seed003/report.awk \
	data/seed003-paper.csv
