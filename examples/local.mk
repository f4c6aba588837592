# examples/: programs that use liblb only through its installed headers
# and lbfarm.pc.  Built here too, so that `make` keeps them compiling.
noinst_PROGRAMS = examples/balance
examples_balance_SOURCES = examples/balance.c
examples_balance_LDADD = $(LB_LIBS)

# Installs into a staging directory and builds balance from there.
TESTS += examples/install_example.sh
EXTRA_DIST += examples/install_example.sh
