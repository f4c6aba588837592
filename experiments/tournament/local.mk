# experiments/tournament/: the policies' tournament in the simulator and on the farm, and its paired statistics (docs/TOURNAMENT.md).
dist_noinst_SCRIPTS += \
	experiments/tournament/episodes.sh \
	experiments/tournament/farm.sh \
	experiments/tournament/farm_verdict.sh \
	experiments/tournament/figures.sh \
	experiments/tournament/job.sh \
	experiments/tournament/mechanisms.sh \
	experiments/tournament/paired.sh \
	experiments/tournament/run.sh \
	experiments/tournament/sensitivity.sh \
	experiments/tournament/verdict.sh
EXTRA_DIST += \
	experiments/tournament/common.sh \
	experiments/tournament/episodes.gp \
	experiments/tournament/mechanisms.awk \
	experiments/tournament/paired.awk \
	experiments/tournament/paired_table.awk \
	experiments/tournament/plot.gp \
	experiments/tournament/signrank.awk \
	experiments/tournament/stats.awk \
	experiments/tournament/table.awk \
	experiments/tournament/trace.awk \
	experiments/tournament/wins.awk
