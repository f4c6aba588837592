# tests/: cmocka unit tests and shell integration tests.
TEST_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
TEST_LIBS = $(LB_LIBS) $(CMOCKA_LIBS)

UNIT_TESTS = tests/test_topo tests/test_topo_io tests/test_paths \
	tests/test_spectrum tests/test_basics
check_PROGRAMS += $(UNIT_TESTS)
tests_test_topo_SOURCES = tests/test_topo.c tests/testutil.h
tests_test_topo_CFLAGS = $(TEST_CFLAGS)
tests_test_topo_LDADD = $(TEST_LIBS)
tests_test_topo_io_SOURCES = tests/test_topo_io.c tests/testutil.h
tests_test_topo_io_CFLAGS = $(TEST_CFLAGS)
tests_test_topo_io_LDADD = $(TEST_LIBS)
tests_test_paths_SOURCES = tests/test_paths.c tests/testutil.h
tests_test_paths_CFLAGS = $(TEST_CFLAGS)
tests_test_paths_LDADD = $(TEST_LIBS)
tests_test_spectrum_SOURCES = tests/test_spectrum.c tests/testutil.h
tests_test_spectrum_CFLAGS = $(TEST_CFLAGS)
tests_test_spectrum_LDADD = $(TEST_LIBS)
tests_test_basics_SOURCES = tests/test_basics.c tests/testutil.h
tests_test_basics_CFLAGS = $(TEST_CFLAGS)
tests_test_basics_LDADD = $(TEST_LIBS)

SHELL_TESTS = tests/cli_errors.sh tests/pvm_selftest.sh
TESTS += $(UNIT_TESTS) $(SHELL_TESTS)
EXTRA_DIST += $(SHELL_TESTS) tests/lib.sh
AM_TESTS_ENVIRONMENT = LB_TOP_SRCDIR='$(abs_top_srcdir)'; LB_TOP_BUILDDIR='$(abs_top_builddir)'; \
	export LB_TOP_SRCDIR LB_TOP_BUILDDIR;
