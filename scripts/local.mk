# scripts/: the README's commands and their shared set-up.
dist_noinst_SCRIPTS += scripts/setup.sh scripts/main.sh scripts/test.sh
EXTRA_DIST += .ci/run README.md
