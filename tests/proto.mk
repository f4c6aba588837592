# tests/proto.mk: the policy nodes and the simulator.
PROTO_TESTS = tests/test_node
check_PROGRAMS += $(PROTO_TESTS)
tests_test_node_SOURCES = tests/test_node.c tests/testutil.h
tests_test_node_CFLAGS = $(TEST_CFLAGS)
tests_test_node_LDADD = $(TEST_LIBS)
TESTS += $(PROTO_TESTS)
SIM_TESTS = tests/test_sim
check_PROGRAMS += $(SIM_TESTS)
tests_test_sim_SOURCES = tests/test_sim.c tests/testutil.h
tests_test_sim_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/sim
tests_test_sim_CFLAGS = $(TEST_CFLAGS)
tests_test_sim_LDADD = $(SIM_LIBS) $(CMOCKA_LIBS)
TESTS += $(SIM_TESTS)
