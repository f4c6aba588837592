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
# pvmd_hol: plain libpvm, for hol.sh, which builds it (make
# experiments/faults/pvmd_hol) when it is not there.
EXTRA_PROGRAMS += experiments/faults/pvmd_hol
CLEANFILES += experiments/faults/pvmd_hol
experiments_faults_pvmd_hol_SOURCES = experiments/faults/pvmd_hol.c
dist_noinst_SCRIPTS += experiments/faults/hol.sh
