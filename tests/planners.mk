# tests/ for the planners (transport, Hu-Blake, divisible load).
PLANNER_TESTS = tests/test_transport tests/test_hublake tests/test_share tests/test_taskgraph
check_PROGRAMS += $(PLANNER_TESTS)
TESTS += $(PLANNER_TESTS) tests/planners_cli.sh
EXTRA_DIST += tests/planners_cli.sh
# GLPK is the transport solver's independent reference.
tests_test_transport_SOURCES = tests/test_transport.c tests/tp_glpk.c tests/tp_glpk.h
tests_test_transport_LDADD = $(TEST_LIBS) $(GLPK_LIBS)
