# tests/: diffusion family and processor arrangement (seeds 001, 002).
DIFFUSION_UNIT_TESTS = tests/test_diffusion_coef tests/test_diffuse \
	tests/test_hetero tests/test_arrange
check_PROGRAMS += $(DIFFUSION_UNIT_TESTS)
TESTS += $(DIFFUSION_UNIT_TESTS)
tests_test_diffusion_coef_SOURCES = tests/test_diffusion_coef.c tests/testutil.h
tests_test_diffusion_coef_CFLAGS = $(TEST_CFLAGS)
tests_test_diffusion_coef_LDADD = $(TEST_LIBS)
tests_test_diffuse_SOURCES = tests/test_diffuse.c tests/testutil.h
tests_test_diffuse_CFLAGS = $(TEST_CFLAGS)
tests_test_diffuse_LDADD = $(TEST_LIBS)
tests_test_hetero_SOURCES = tests/test_hetero.c tests/testutil.h
tests_test_hetero_CFLAGS = $(TEST_CFLAGS)
tests_test_hetero_LDADD = $(TEST_LIBS)
tests_test_arrange_SOURCES = tests/test_arrange.c tests/testutil.h
tests_test_arrange_CFLAGS = $(TEST_CFLAGS)
tests_test_arrange_LDADD = $(TEST_LIBS)
TESTS += tests/diffusion_cli.sh
EXTRA_DIST += tests/diffusion_cli.sh
