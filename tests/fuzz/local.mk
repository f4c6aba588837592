# tests/fuzz/: libFuzzer targets (docs/FUZZING.md).  build.sh compiles
# them with clang apart from this (gcc) build; smoke.sh runs each briefly
# in make check and skips (77) without clang.  A target is one line in
# tests/fuzz/targets plus its harness, seed corpus and regression inputs
# under the directories below; nothing here needs changing.
TESTS += tests/fuzz/smoke.sh
dist_noinst_SCRIPTS += tests/fuzz/smoke.sh tests/fuzz/build.sh tests/fuzz/gen_star.sh tests/fuzz/gen_seeds.sh
EXTRA_DIST += tests/fuzz/targets tests/fuzz/src tests/fuzz/corpus tests/fuzz/regress tests/fuzz/gen_seeds.c

clean-local: clean-local-fuzz
clean-local-fuzz:
	-rm -rf tests/fuzz/build
.PHONY: clean-local-fuzz
