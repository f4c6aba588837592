#!/bin/sh
# scripts/format.sh: lay out the C sources by .clang-format (clang-format 14,
# Debian 12's), in place.
#
# Usage: scripts/format.sh [--list]
#   --list      print the files it formats, and nothing else
#   -h, --help  show this help
set -eu
cd "$(dirname "$0")/.."
dirs="apps cli examples experiments farm lb master mpi pvm sim simgrid tests tools worker"
files() {
  # In a git checkout, what git tracks (never a build's generated file);
  # in a release tree, the sources less what make writes.
  if command -v git >/dev/null && git rev-parse --git-dir >/dev/null 2>&1; then
    git ls-files -- $dirs | grep -E '\.(c|h|cc)$' | grep -v '^tests/fuzz/corpus/'
  else
    find $dirs -type f \( -name '*.c' -o -name '*.h' -o -name '*.cc' \) ! -path 'tests/fuzz/corpus/*' \
      ! -path '*/build/*' ! -path '*/build-*' ! -name cli_commit.h | sort
  fi
}
case ${1:-} in
--list) files; exit 0 ;;
-h|--help) sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
'') ;;
*) echo "format.sh: unknown option '$1' (--help)" >&2; exit 2 ;;
esac
cf=$(command -v clang-format-14 || command -v clang-format) || { echo "format.sh: clang-format is not installed" >&2; exit 2; }
files | xargs "$cf" -i --style=file
