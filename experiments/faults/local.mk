# experiments/faults/: faults on the farm: killed workers and hosts, result modes,
# silent faults found by leases (docs/FARM.md).
dist_noinst_SCRIPTS += \
	experiments/faults/run.sh \
	experiments/faults/lease.sh
EXTRA_DIST += \
	experiments/faults/cluster.sh \
	experiments/faults/common.sh \
	experiments/faults/faults.gp \
	experiments/faults/groups.awk \
	experiments/faults/plotdata.awk \
	experiments/faults/summary.awk \
	experiments/faults/lease.gp \
	experiments/faults/lease_summary.awk \
	experiments/faults/lease_plotdata.awk
