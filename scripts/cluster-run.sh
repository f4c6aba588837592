#!/bin/sh
# cluster-run.sh: run a command on host h1 of the six-host cluster that
# cluster-up.sh made, with that host's PVM_TMP and name, e.g.
#   scripts/cluster-run.sh pvm
#   scripts/cluster-run.sh lbmaster --workload primes --size 5000000
# A bare lbmaster/lbworker means the one in the cluster's hostfile ep=.
# Usage: scripts/cluster-run.sh [--state DIR] COMMAND [ARG]...
set -eu
lb_top=$(cd "$(dirname "$0")/.." && pwd)
. "$lb_top/scripts/lib.sh"
lb_init
case ${1:-} in -h|--help) sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;; esac
state=/tmp/lbfarm-cluster
[ "${1:-}" = --state ] && { state=$2; shift 2; }
[ $# -ge 1 ] || { echo "usage: cluster-run.sh [--state DIR] COMMAND [ARG]..." >&2; exit 2; }
[ -x "$state/in-host" ] || { echo "cluster-run.sh: no cluster in $state (run cluster-up.sh)" >&2; exit 2; }
cmd=$1
shift
case $cmd in
lbmaster|lbworker)
  ep=$(sed -n 's/^\*.*[ 	]ep=\([^ 	]*\).*/\1/p' "$state/hostfile")
  for d in $(echo "$ep" | tr ':' ' '); do [ -x "$d/$cmd" ] && { cmd=$d/$cmd; break; }; done ;;
esac
exec "$state/in-host" h1 "$cmd" "$@"
