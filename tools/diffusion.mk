# tools/: command-line programs for diffusion and processor arrangement.
bin_PROGRAMS += tools/lbarrange
tools_lbarrange_SOURCES = tools/lbarrange.c
tools_lbarrange_LDADD = tools/libcli.a $(LB_LIBS)
bin_PROGRAMS += tools/lbdiffuse
tools_lbdiffuse_SOURCES = tools/lbdiffuse.c
tools_lbdiffuse_LDADD = tools/libcli.a $(LB_LIBS)
