# scripts/: the README's commands, their shared set-up, and the
# six-host cluster on network namespaces.
dist_noinst_SCRIPTS += scripts/setup.sh scripts/main.sh scripts/main.gp scripts/test.sh \
	scripts/cluster-up.sh scripts/cluster-down.sh scripts/cluster-run.sh scripts/bare-root.sh scripts/format.sh
EXTRA_DIST += .ci/run README.md scripts/lib.sh .clang-format
