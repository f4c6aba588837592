/* cli_version.c: --version for every program.  The commit comes from
 * cli_commit.h, which the build regenerates when `git describe` of the
 * source tree changes ("unknown" outside a git checkout). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "config.h"
#include "cli_commit.h"
#include "cli.h"

const char *cli_version(void) { return PACKAGE_VERSION " (commit " CLI_COMMIT ")"; }

void cli_version_opt(int argc, char **argv)
{
  for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
    if (!strcmp(argv[i], "--version")) {
      printf("%s (%s) %s\n", cli_prog(), PACKAGE_NAME, cli_version());
      exit(CLI_EXIT_OK);
    }
}
