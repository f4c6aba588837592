# tests/: cmocka unit tests and shell integration tests.
# A unit test tests/test_X is built from tests/test_X.c with the default
# LDADD below; list it in UNIT_TESTS and nothing else is needed.
TEST_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
TEST_LIBS = $(LB_LIBS) $(CMOCKA_LIBS)
LDADD = $(TEST_LIBS)
AM_CFLAGS += $(CMOCKA_CFLAGS)
noinst_HEADERS = tests/testutil.h

UNIT_TESTS = tests/test_topo tests/test_topo_io tests/test_paths \
	tests/test_spectrum tests/test_basics
check_PROGRAMS += $(UNIT_TESTS)

SHELL_TESTS = tests/cli_errors.sh tests/pvm_selftest.sh tests/pvm_console.sh
TESTS += $(UNIT_TESTS) $(SHELL_TESTS)
EXTRA_DIST += $(SHELL_TESTS) tests/lib.sh tests/lsan.supp
AM_TESTS_ENVIRONMENT = LB_TOP_SRCDIR='$(abs_top_srcdir)'; LB_TOP_BUILDDIR='$(abs_top_builddir)'; \
	LSAN_OPTIONS='suppressions=$(abs_top_srcdir)/tests/lsan.supp'; \
	export LB_TOP_SRCDIR LB_TOP_BUILDDIR LSAN_OPTIONS;
