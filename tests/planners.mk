# tests/ for the planners (transport, Hu-Blake, divisible load).
PLANNER_TESTS = tests/test_transport tests/test_hublake tests/test_share tests/test_taskgraph
check_PROGRAMS += $(PLANNER_TESTS)
TESTS += $(PLANNER_TESTS) tests/planners_cli.sh
EXTRA_DIST += tests/planners_cli.sh
tests_test_transport_SOURCES = tests/test_transport.c tests/tp_glpk.c tests/tp_glpk.h tests/testutil.h
tests_test_transport_CFLAGS = $(TEST_CFLAGS)
tests_test_transport_LDADD = $(TEST_LIBS) $(GLPK_LIBS)
tests_test_hublake_SOURCES = tests/test_hublake.c tests/testutil.h
tests_test_hublake_CFLAGS = $(TEST_CFLAGS)
tests_test_hublake_LDADD = $(TEST_LIBS)
tests_test_share_SOURCES = tests/test_share.c tests/testutil.h
tests_test_share_CFLAGS = $(TEST_CFLAGS)
tests_test_share_LDADD = $(TEST_LIBS)
tests_test_taskgraph_SOURCES = tests/test_taskgraph.c tests/testutil.h
tests_test_taskgraph_CFLAGS = $(TEST_CFLAGS)
tests_test_taskgraph_LDADD = $(TEST_LIBS)
