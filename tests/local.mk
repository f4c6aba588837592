# tests/: cmocka unit tests and shell integration tests.
# A unit test tests/test_X is built from tests/test_X.c with the default
# LDADD below; list it in UNIT_TESTS (or SIM_TESTS) and nothing else is
# needed.
TEST_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
TEST_LIBS = $(LB_LIBS) $(CMOCKA_LIBS)
LDADD = $(TEST_LIBS)
AM_CFLAGS += $(CMOCKA_CFLAGS)
noinst_HEADERS = tests/testutil.h

# GLPK is the transport solver's independent reference (tests, bench).
noinst_LIBRARIES += tests/libtpref.a
tests_libtpref_a_SOURCES = tests/tp_glpk.c tests/tp_glpk.h
TPREF_LIBS = tests/libtpref.a $(GLPK_LIBS)

UNIT_TESTS = tests/test_topo tests/test_topo_io tests/test_paths \
	tests/test_spectrum tests/test_basics \
	tests/test_diffusion_coef tests/test_diffuse tests/test_hetero tests/test_arrange \
	tests/test_transport tests/test_hublake tests/test_share tests/test_taskgraph \
	tests/test_node tests/test_runq tests/test_rmtlb tests/test_codec tests/test_sink tests/test_lease tests/test_apps tests/test_verify \
	tests/test_cli tests/test_optimum tests/test_param tests/test_farm_wire tests/test_auth tests/test_trace tests/test_cgroup \
	tests/test_duty tests/test_journal tests/test_lbpvm_cut
tests_test_lbpvm_cut_LDADD = pvm/liblbpvm.a $(TEST_LIBS)
tests_test_transport_LDADD = $(TPREF_LIBS) $(TEST_LIBS)
tests_test_optimum_LDADD = $(TPREF_LIBS) $(TEST_LIBS)
tests_test_cli_LDADD = $(CLI_LIBS) $(TEST_LIBS)
tests_test_cgroup_LDADD = $(FARM_LIBS) $(TEST_LIBS)
tests_test_duty_LDADD = $(FARM_LIBS) $(TEST_LIBS)
tests_test_apps_LDADD = $(APP_LIBS) $(TEST_LIBS)
tests_test_verify_LDADD = $(APP_LIBS) $(TEST_LIBS)
tests_test_farm_wire_LDADD = $(FARM_LIBS) $(APP_LIBS) $(TEST_LIBS)
tests_test_auth_LDADD = $(FARM_LIBS) $(APP_LIBS) $(TEST_LIBS)
tests_test_journal_LDADD = $(FARM_LIBS) $(TEST_LIBS)

# These drive nodes through the simulator library.
SIM_TESTS = tests/test_sim tests/test_invariants tests/test_policies tests/test_baselines tests/test_sim_queue \
	tests/test_sim_arena tests/test_sim_mem tests/test_alloc_fail
SIM_TEST_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/sim
SIM_TEST_LIBS = $(SIM_LIBS) $(CMOCKA_LIBS)
tests_test_sim_CPPFLAGS = $(SIM_TEST_CPPFLAGS)
tests_test_sim_LDADD = $(SIM_TEST_LIBS)
tests_test_invariants_CPPFLAGS = $(SIM_TEST_CPPFLAGS)
tests_test_invariants_LDADD = $(SIM_TEST_LIBS)
tests_test_policies_CPPFLAGS = $(SIM_TEST_CPPFLAGS)
tests_test_policies_LDADD = $(SIM_TEST_LIBS)
tests_test_baselines_CPPFLAGS = $(SIM_TEST_CPPFLAGS)
tests_test_baselines_LDADD = $(SIM_TEST_LIBS)
tests_test_sim_queue_CPPFLAGS = $(SIM_TEST_CPPFLAGS)
tests_test_sim_queue_LDADD = $(SIM_TEST_LIBS)
tests_test_sim_arena_CPPFLAGS = $(SIM_TEST_CPPFLAGS)
tests_test_sim_arena_LDADD = $(SIM_TEST_LIBS)
tests_test_sim_mem_CPPFLAGS = $(SIM_TEST_CPPFLAGS)
tests_test_sim_mem_LDADD = $(SIM_TEST_LIBS)
tests_test_alloc_fail_CPPFLAGS = $(SIM_TEST_CPPFLAGS)
tests_test_alloc_fail_LDADD = $(SIM_TEST_LIBS)

check_PROGRAMS += $(UNIT_TESTS) $(SIM_TESTS)

# A task of the test's VM that is not the farm's (tests/farm_intruder.sh).
check_PROGRAMS += tests/pvm_intruder
tests_pvm_intruder_LDADD = $(PVM_FARM_LIBS) $(APP_LIBS) $(CLI_LIBS) $(LB_LIBS)

SHELL_TESTS = tests/cli_errors.sh tests/diffusion_cli.sh tests/planners_cli.sh tests/lbsim_cli.sh tests/sweep_leaving.sh \
	tests/trace_cli.sh tests/experiments_help.sh tests/csv_schema.sh \
	tests/pvm_selftest.sh tests/pvm_console.sh tests/pvm_stopped.sh \
	tests/farm_run.sh tests/farm_foreign.sh tests/farm_intruder.sh tests/farm_speed.sh tests/lbpvm_vm.sh \
	tests/farm_cluster6.sh tests/pvm_console6.sh tests/farm_policies.sh tests/farm_capacity.sh tests/farm_faults.sh tests/farm_origin.sh tests/farm_wrong.sh tests/farm_trace.sh tests/farm_lease.sh tests/main_job.sh \
	tests/farm_cluster6_ssh.sh tests/farm_cluster6_fence.sh tests/mpi_farm.sh tests/slurm_farm.sh tests/report_quick.sh tests/interrupt.sh tests/farm_interrupt.sh \
	tests/full_disk.sh tests/paired_stats.sh tests/dist_files.sh tests/script_lib.sh tests/format.sh \
	tests/lbtopo_platform.sh tests/simgrid_cli.sh tests/simgrid_agree.sh
TESTS += $(UNIT_TESTS) $(SIM_TESTS) $(SHELL_TESTS)
EXTRA_DIST += $(SHELL_TESTS) tests/lib.sh tests/lsan.supp tests/trace_small.csv tests/trace_small2.csv tests/trace_check.py
# report_quick.sh's cached results (subsets of real runs).
EXTRA_DIST += tests/report_data/seed000/runs.csv tests/report_data/proto/claim.csv \
	tests/report_data/seed000-four/four.csv tests/report_data/seed002/table1.csv \
	tests/report_data/seed002/table3.csv tests/report_data/seed002/crosscheck.csv \
	tests/report_data/seed002/fig2.csv tests/report_data/seed002/fig2_hist.csv \
	tests/report_data/seed004/table1.csv tests/report_data/seed004/table2.csv \
	tests/report_data/seed000/provenance-fig34.txt tests/report_data/proto/provenance-claim.txt \
	tests/report_data/seed000-four/provenance-four.txt tests/report_data/seed002/provenance-table1.txt \
	tests/report_data/seed002/provenance-table3.txt tests/report_data/seed002/provenance-fig2.txt \
	tests/report_data/seed002/provenance-crosscheck.txt tests/report_data/seed004/provenance-tables.txt
CLEANFILES += tests/farm-cpu.lock
AM_TESTS_ENVIRONMENT = LB_TOP_SRCDIR='$(abs_top_srcdir)'; LB_TOP_BUILDDIR='$(abs_top_builddir)'; \
	LSAN_OPTIONS='suppressions=$(abs_top_srcdir)/tests/lsan.supp:print_suppressions=0'; \
	export LB_TOP_SRCDIR LB_TOP_BUILDDIR LSAN_OPTIONS;
