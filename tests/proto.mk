# tests/proto.mk: the policy nodes and the simulator.
PROTO_TESTS = tests/test_node
check_PROGRAMS += $(PROTO_TESTS)
tests_test_node_SOURCES = tests/test_node.c tests/testutil.h
tests_test_node_CFLAGS = $(TEST_CFLAGS)
tests_test_node_LDADD = $(TEST_LIBS)
TESTS += $(PROTO_TESTS)
