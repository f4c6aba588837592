# experiments/faults/: faults on the farm: killed workers and hosts, result modes (docs/FARM.md).
dist_noinst_SCRIPTS += \
	experiments/faults/run.sh
EXTRA_DIST += \
	experiments/faults/cluster.sh \
	experiments/faults/common.sh \
	experiments/faults/faults.gp \
	experiments/faults/plotdata.awk \
	experiments/faults/summary.awk
