# simgrid/: the SimGrid driver's platform writer, plain C, which lbtopo
# uses on any machine.
noinst_LIBRARIES += simgrid/liblbsgplat.a
simgrid_liblbsgplat_a_SOURCES = simgrid/lbsg_platform.c simgrid/lbsg_platform.h
LBSG_PLATFORM_LIBS = simgrid/liblbsgplat.a
