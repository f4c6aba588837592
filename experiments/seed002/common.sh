# experiments/seed002/common.sh: shared set-up for the diffusion drivers
# of seeds 001 and 002 (sourced).  Run the drivers from the build
# directory, or set LB_TOP_BUILDDIR; the first argument is the output
# directory (default out/ and the driver's directory name: out/seed002),
# also given as -o DIR like the other experiments.  The tools are this
# build's (LB_TOP_BUILDDIR, the current directory, or this tree).  Each
# driver writes its CSV whole (a temporary name, renamed at the end) and
# provenance-DRIVER.txt beside it; Ctrl-C stops it (scripts/lib.sh).
# -h or --help prints the driver's header comment and exits.
set -eu
case ${1:-} in
  -o|--out) [ $# -ge 2 ] || { echo "$0: $1 wants a directory" >&2; exit 2; }; shift ;;
esac
case ${1:-} in
  -h|--help) sed -n '2,/^[^#]/p' "$0" | sed '/^[^#]/d; s/^# \{0,1\}//'; exit 0 ;;
  -*) echo "$0: unknown option '$1' (try --help)" >&2; exit 2 ;;
esac
here=$(cd "$(dirname "$0")" && pwd)
top_srcdir=${LB_TOP_SRCDIR:-$(cd "$here/../.." && pwd)}
lb_top=$(cd "$here/../.." && pwd)
. "$lb_top/scripts/lib.sh"
LBARRANGE=${LBARRANGE:-$(lb_built tools/lbarrange)} || true
LBDIFFUSE=${LBDIFFUSE:-$(lb_built tools/lbdiffuse)} || true
GRAPHS=$top_srcdir/data/graphs
out=${1:-out/$(basename "$here")}
for p in "$LBARRANGE" "$LBDIFFUSE"; do
  [ -x "$p" ] || { echo "$0: $p: not built (run scripts/setup.sh, or make)" >&2; exit 2; }
done
lb_init
mkdir -p "$out"
