# tests/: diffusion family and processor arrangement (seeds 001, 002).
DIFFUSION_UNIT_TESTS = tests/test_diffusion_coef
check_PROGRAMS += $(DIFFUSION_UNIT_TESTS)
TESTS += $(DIFFUSION_UNIT_TESTS)
tests_test_diffusion_coef_SOURCES = tests/test_diffusion_coef.c tests/testutil.h
tests_test_diffusion_coef_CFLAGS = $(TEST_CFLAGS)
tests_test_diffusion_coef_LDADD = $(TEST_LIBS)
