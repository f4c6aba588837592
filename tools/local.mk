# tools/: the PVM-free command-line tools.

bin_PROGRAMS += tools/lbtopo tools/lbarrange tools/lbdiffuse tools/lbseed003 tools/lbshare tools/lbtransport \
	tools/lbtrace
tools_lbtopo_SOURCES = tools/lbtopo.c
tools_lbtopo_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/simgrid
tools_lbtopo_LDADD = $(LBSG_PLATFORM_LIBS) $(CLI_LIBS) $(LB_LIBS)
tools_lbarrange_SOURCES = tools/lbarrange.c
tools_lbarrange_LDADD = $(CLI_LIBS) $(LB_LIBS)
tools_lbdiffuse_SOURCES = tools/lbdiffuse.c
tools_lbdiffuse_LDADD = $(CLI_LIBS) $(LB_LIBS)
tools_lbseed003_SOURCES = tools/lbseed003.c
tools_lbseed003_LDADD = $(CLI_LIBS) $(LB_LIBS)
tools_lbshare_SOURCES = tools/lbshare.c
tools_lbshare_LDADD = $(CLI_LIBS) $(LB_LIBS)
tools_lbtransport_SOURCES = tools/lbtransport.c
tools_lbtransport_LDADD = $(CLI_LIBS) $(LB_LIBS)
tools_lbtrace_SOURCES = tools/lbtrace.c tools/lbtrace.h tools/lbtrace_out.c tools/lbtrace_json.c tools/lbtrace_paje.c
tools_lbtrace_LDADD = $(CLI_LIBS) $(LB_LIBS)
