# experiments/calibrate/: the farm's costs measured and fed to lbsim.
# Built on demand by calibrate.sh (never by `make` or `make check`).
CALIB_BINS = experiments/calibrate/proc_costs
EXTRA_PROGRAMS += $(CALIB_BINS)
CLEANFILES += $(CALIB_BINS)
experiments_calibrate_proc_costs_SOURCES = experiments/calibrate/proc_costs.c
experiments_calibrate_proc_costs_LDADD = $(APP_LIBS) $(CLI_LIBS) $(LB_LIBS)
dist_noinst_SCRIPTS += experiments/calibrate/calibrate.sh experiments/calibrate/holdout.sh \
	experiments/calibrate/decompose.sh experiments/calibrate/points.sh \
	experiments/calibrate/transfers.sh experiments/calibrate/grids.sh
EXTRA_DIST += experiments/calibrate/hostmsg.awk experiments/calibrate/regress.awk \
	experiments/calibrate/report.awk experiments/calibrate/response.awk \
	experiments/calibrate/response_report.awk experiments/calibrate/calib.gp \
	experiments/calibrate/halves.awk experiments/calibrate/hop.awk \
	experiments/calibrate/holdout_fit.awk experiments/calibrate/holdout_report.awk \
	experiments/calibrate/decompose.awk experiments/calibrate/noise.awk \
	experiments/calibrate/hoststats.awk experiments/calibrate/transfers.awk
