# tests/: diffusion family and processor arrangement (seeds 001, 002).
DIFFUSION_UNIT_TESTS = tests/test_diffusion_coef tests/test_diffuse \
	tests/test_hetero tests/test_arrange
check_PROGRAMS += $(DIFFUSION_UNIT_TESTS)
TESTS += $(DIFFUSION_UNIT_TESTS) tests/diffusion_cli.sh
EXTRA_DIST += tests/diffusion_cli.sh
