#!/bin/sh
# Graph file reading is linear (docs/PERFORMANCE.md): lbtopo check on
# star graphs of N nodes, the hub's whole list on one line (the worst
# case for a reader quadratic in a node's degree), N from 10^5 to 2^22.
# Prints N, bytes, seconds and seconds per MB; the last column stays flat
# when reading is linear.  Run from the build directory.
# Usage: experiments/bench/topo_read.sh [LBTOPO]   (default tools/lbtopo)
set -eu
lb_top=$(cd "$(dirname "$0")/../.." && pwd)
. "$lb_top/scripts/lib.sh"
lb_init
case ${1:-} in -h|--help) sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
here=$(cd "$(dirname "$0")" && pwd)
lbtopo=${1:-${LB_TOP_BUILDDIR:-.}/tools/lbtopo}
[ -x "$lbtopo" ] || { echo "$0: $lbtopo not found: run from the build directory" >&2; exit 2; }
tmp=$(mktemp -d); lb_on_exit 'rm -rf "$tmp"'
echo "nodes,bytes,seconds,seconds_per_mb"
for n in 100000 200000 390000 1000000 2000000 4194304; do
  "$here/../../tests/fuzz/gen_star.sh" "$n" >"$tmp/star.graph"
  t0=$(date +%s.%N)
  "$lbtopo" check "$tmp/star.graph" >/dev/null
  t1=$(date +%s.%N)
  awk -v n="$n" -v b="$(wc -c <"$tmp/star.graph")" -v a="$t0" -v z="$t1" \
    'BEGIN { printf "%d,%d,%.3f,%.4f\n", n, b, z - a, (z - a) / (b / 1048576) }'
done
