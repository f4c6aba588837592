# experiments/proto.mk: the simulator's sweeps and measurements.
dist_noinst_SCRIPTS += experiments/sweep_invariants.sh experiments/proto/scale.sh \
	experiments/proto/claim.sh
EXTRA_DIST += experiments/proto/scale.gp
