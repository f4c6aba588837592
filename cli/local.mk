# cli/: the command-line library every program uses: option values with
# ranges, usage errors and exit codes, checked output, progress lines,
# the clocks.
noinst_LIBRARIES += cli/libcli.a
cli_libcli_a_SOURCES = cli/cli.c cli/cli_clock.c cli/cli_num.c cli/cli_out.c cli/cli.h
CLI_LIBS = cli/libcli.a
