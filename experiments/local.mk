# experiments/
dist_noinst_SCRIPTS += experiments/seed000/fig34.sh
EXTRA_DIST += experiments/seed000/fig34.gp
