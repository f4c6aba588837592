# tests/proto.mk: the policy nodes and the simulator.
PROTO_TESTS = tests/test_node tests/test_rmtlb
# These drive nodes through the simulator library.
SIM_TESTS = tests/test_sim tests/test_invariants tests/test_policies
check_PROGRAMS += $(PROTO_TESTS) $(SIM_TESTS)
TESTS += $(PROTO_TESTS) $(SIM_TESTS) tests/lbsim_cli.sh
EXTRA_DIST += tests/lbsim_cli.sh
SIM_TEST_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/sim
SIM_TEST_LIBS = $(SIM_LIBS) $(CMOCKA_LIBS)
tests_test_sim_CPPFLAGS = $(SIM_TEST_CPPFLAGS)
tests_test_sim_LDADD = $(SIM_TEST_LIBS)
tests_test_invariants_CPPFLAGS = $(SIM_TEST_CPPFLAGS)
tests_test_invariants_LDADD = $(SIM_TEST_LIBS)
tests_test_policies_CPPFLAGS = $(SIM_TEST_CPPFLAGS)
tests_test_policies_LDADD = $(SIM_TEST_LIBS)
