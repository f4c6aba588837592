# tests/farm.mk: tests of the PVM task farm (workloads, master, worker).
check_PROGRAMS += tests/test_apps
TESTS += tests/test_apps
tests_test_apps_SOURCES = tests/test_apps.c tests/testutil.h master/farm_verify.c master/farm_verify.h
tests_test_apps_CFLAGS = $(TEST_CFLAGS)
tests_test_apps_LDADD = worker/libfarmapp.a $(OPENBLAS_LIBS) $(TEST_LIBS)

FARM_SHELL_TESTS = tests/farm_run.sh tests/farm_foreign.sh tests/farm_speed.sh \
	tests/farm_cluster6.sh tests/farm_policies.sh tests/farm_capacity.sh
TESTS += $(FARM_SHELL_TESTS)
EXTRA_DIST += $(FARM_SHELL_TESTS)
CLEANFILES += tests/farm-cpu.lock
