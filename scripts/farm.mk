# scripts/farm.mk: six PVM hosts on one machine (network namespaces).
dist_noinst_SCRIPTS += scripts/cluster-up.sh scripts/cluster-down.sh scripts/cluster-run.sh
EXTRA_DIST += docs/FARM.md
