# examples/: programs that use liblb only through its installed headers
# and lbfarm.pc.  Built here too, so that `make` keeps them compiling.
noinst_PROGRAMS = examples/balance examples/policy
examples_balance_SOURCES = examples/balance.c
examples_balance_LDADD = $(LB_LIBS)
examples_policy_SOURCES = examples/policy.c
examples_policy_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/sim
examples_policy_LDADD = $(SIM_LIBS)

# Installs into a staging directory and builds balance and policy from there.
TESTS += examples/install_example.sh
EXTRA_DIST += examples/install_example.sh
