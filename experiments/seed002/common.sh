# experiments/seed002/common.sh: shared set-up for the diffusion drivers
# of seeds 001 and 002 (sourced).  Run the drivers from the build
# directory, or set LB_TOP_BUILDDIR; the first argument is the output
# directory (default out/ and the driver's directory name: out/seed002).
# -h or --help prints the driver's header comment and exits.
set -eu
case ${1:-} in
  -h|--help) sed -n '2,/^[^#]/p' "$0" | sed '/^[^#]/d; s/^# \{0,1\}//'; exit 0 ;;
  -*) echo "$0: unknown option '$1' (try --help)" >&2; exit 2 ;;
esac
here=$(cd "$(dirname "$0")" && pwd)
top_srcdir=${LB_TOP_SRCDIR:-$(cd "$here/../.." && pwd)}
top_builddir=${LB_TOP_BUILDDIR:-.}
LBARRANGE=${LBARRANGE:-$top_builddir/tools/lbarrange}
LBDIFFUSE=${LBDIFFUSE:-$top_builddir/tools/lbdiffuse}
GRAPHS=$top_srcdir/data/graphs
out=${1:-out/$(basename "$here")}
for p in "$LBARRANGE" "$LBDIFFUSE"; do
  [ -x "$p" ] || { echo "$0: $p not found: run from the build directory after make" >&2; exit 2; }
done
mkdir -p "$out"
