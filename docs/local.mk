# docs/
dist_doc_DATA += docs/RMTLB.md docs/SIMULATOR.md docs/POLICIES.md
EXTRA_DIST += docs/ARCHITECTURE.md docs/BUILD.md docs/FORMATS.md \
	docs/DEPENDENCIES.md docs/PERFORMANCE.md docs/SEEDS.md docs/FARM.md \
	docs/DIFFUSION.md docs/PLANNERS.md docs/FUZZING.md docs/TRACES.md docs/TOURNAMENT.md \
	docs/figures/faults.png docs/figures/faults.svg docs/figures/faults.csv \
	docs/figures/leases.png docs/figures/leases.svg docs/figures/leases.pdf docs/figures/leases.csv \
	docs/figures/simgrid_congestion.png docs/figures/simgrid_congestion.svg docs/figures/simgrid_congestion.pdf \
	docs/figures/simgrid_congestion.csv
