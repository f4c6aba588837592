# cli/: the command-line library every program uses: option values with
# ranges, usage errors and exit codes, checked output, progress lines,
# the parameters of a run as options (cli_param) and the run CSV's one
# schema (cli_csv), the clocks (cli_clock), --version (cli_version).
noinst_LIBRARIES += cli/libcli.a
cli_libcli_a_SOURCES = cli/cli.c cli/cli_clock.c cli/cli_num.c cli/cli_out.c cli/cli.h cli/cli_param.c cli/cli_param.h \
	cli/cli_csv.c cli/cli_csv.h cli/cli_version.c
nodist_cli_libcli_a_SOURCES = cli/cli_commit.h
CLI_LIBS = cli/libcli.a

# The commit the programs are built from, for the run CSV's provenance:
# `git describe` of the source tree at every build, the header rewritten
# only when it changes (so nothing rebuilds without a new commit);
# "unknown" outside a git tree, e.g. built from a tarball.
BUILT_SOURCES = cli/cli_commit.h
CLEANFILES += cli/cli_commit.h
cli/cli_commit.h: cli-commit-check
	@:
cli-commit-check:
	@v=unknown; \
	if [ -e "$(top_srcdir)/.git" ]; then \
	  v=$$(git -C "$(top_srcdir)" describe --always --dirty 2>/dev/null) || v=unknown; fi; \
	line="#define CLI_COMMIT \"$$v\""; \
	[ -f cli/cli_commit.h ] && [ "$$(cat cli/cli_commit.h)" = "$$line" ] || echo "$$line" > cli/cli_commit.h
.PHONY: cli-commit-check
