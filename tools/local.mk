# tools/: command-line helpers shared by every program, and the
# PVM-free command-line tools.
noinst_LIBRARIES += tools/libcli.a
tools_libcli_a_SOURCES = tools/cli.c tools/cli.h

bin_PROGRAMS += tools/lbtopo
tools_lbtopo_SOURCES = tools/lbtopo.c
tools_lbtopo_LDADD = tools/libcli.a $(LB_LIBS)
