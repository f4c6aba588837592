#!/bin/sh
# gen_star.sh N: a star graph file of N nodes (hub 1), the hub's whole
# list on one line.  N = 390000 gives 6.4 MB, which a reader quadratic
# in a node's degree needs minutes for; lb_topo_read is linear.
# Usage: tests/fuzz/gen_star.sh N > star.graph
set -eu
case ${1:-} in
  -h|--help) sed -n '2,5p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  ''|*[!0-9]*) echo "gen_star.sh: N must be a count >= 2 (try --help)" >&2; exit 2 ;;
esac
awk -v n="$1" 'BEGIN {
  if (n < 2) { print "gen_star.sh: N must be >= 2" > "/dev/stderr"; exit 2 }
  printf "# star:%d, hub 1\nnodes %d\n1:", n, n
  for (i = 2; i <= n; i++) printf " %d", i
  printf "\n"
  for (i = 2; i <= n; i++) printf "%d: 1\n", i
}'
