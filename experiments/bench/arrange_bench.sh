#!/bin/sh
# Arrangement-search benchmark (docs/PERFORMANCE.md): lbarrange against
# batched numpy eigvalsh on the same matrices, in the same run.
# Run from the build directory.  Usage: experiments/bench/arrange_bench.sh [REPEATS]
set -eu
case ${1:-3} in
  -h|--help) sed -n '2,4p' "$0"; exit 0 ;;
  *[!0-9]*|0) echo "$0: REPEATS must be a positive count (try --help)" >&2; exit 2 ;;
esac
here=$(cd "$(dirname "$0")" && pwd)
top_srcdir=${LB_TOP_SRCDIR:-$(cd "$here/../.." && pwd)}
lbarrange=${LBARRANGE:-${LB_TOP_BUILDDIR:-.}/tools/lbarrange}
[ -x "$lbarrange" ] || { echo "$0: $lbarrange not found: run from the build directory" >&2; exit 2; }
py=/usr/bin/python3
"$py" -c 'import numpy' 2>/dev/null || { echo "$0: $py has no numpy (Debian: python3-numpy)" >&2; exit 2; }
echo "machine: $(nproc) processors; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
export PYTHONDONTWRITEBYTECODE=1
exec "$py" "$here/arrange_bench.py" "$lbarrange" "$top_srcdir/data/graphs/seed002-g1.graph" "${1:-3}"
