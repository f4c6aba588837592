# tools/ for the planners.
bin_PROGRAMS += tools/lbseed003
tools_lbseed003_SOURCES = tools/lbseed003.c
tools_lbseed003_LDADD = tools/libcli.a $(LB_LIBS)
