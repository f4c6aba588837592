# tools/ for the planners.
bin_PROGRAMS += tools/lbseed003
tools_lbseed003_SOURCES = tools/lbseed003.c
tools_lbseed003_LDADD = tools/libcli.a $(LB_LIBS)
bin_PROGRAMS += tools/lbshare tools/lbtransport
tools_lbshare_SOURCES = tools/lbshare.c
tools_lbshare_LDADD = tools/libcli.a $(LB_LIBS)
tools_lbtransport_SOURCES = tools/lbtransport.c
tools_lbtransport_LDADD = tools/libcli.a $(LB_LIBS)
