#!/bin/sh
# cluster-down.sh: remove what cluster-up.sh made: halt the pvmds, stop
# whatever still runs in the cluster's namespaces (the sshds of --ssh
# too), then delete the namespaces, their /etc/netns entries and the
# state directory (the hostfile, wrappers and, with --ssh, every key and
# config).  The namespaces are those the state directory names; without
# one, those of --ns PREFIX (default h1..h6 and lbfarm-br).  Safe to run
# twice.
# Usage: scripts/cluster-down.sh [--state DIR] [--ns PREFIX]
set -u
lb_top=$(cd "$(dirname "$0")/.." && pwd)
. "$lb_top/scripts/lib.sh"
lb_init
state=/tmp/lbfarm-cluster
prefix=
while [ $# -gt 0 ]; do
  case $1 in
  --state) state=$2; shift 2 ;;
  --ns) prefix=$2; shift 2 ;;
  -h|--help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
  *) echo "cluster-down.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
if [ -f "$state/namespaces" ]; then
  nss=$(cat "$state/namespaces")
elif [ -n "$prefix" ]; then
  nss="${prefix}br ${prefix}h1 ${prefix}h2 ${prefix}h3 ${prefix}h4 ${prefix}h5 ${prefix}h6"
else
  nss="lbfarm-br h1 h2 h3 h4 h5 h6"
fi
if [ -x "$state/in-host" ]; then
  printf 'halt\n' | timeout 10 "$state/in-host" h1 /usr/bin/pvm >/dev/null 2>&1 || true
fi
# Whatever still runs in our namespaces (pvmds, tasks, sshds): TERM, then KILL.
for sig in TERM KILL; do
  for ns in $nss; do
    for p in $(ip netns pids "$ns" 2>/dev/null); do kill -s $sig "$p" 2>/dev/null || true; done
  done
  sleep 0.3
done
for ns in $nss; do
  ip netns del "$ns" 2>/dev/null || true
  rm -f /etc/netns/$ns/hosts /etc/netns/$ns/hostname
  rmdir /etc/netns/$ns 2>/dev/null || true
done
rmdir /etc/netns 2>/dev/null || true
# Only a directory that cluster-up.sh marked as its own.
[ -f "$state/.lbfarm-cluster" ] && rm -rf "$state"
echo "cluster-down.sh: removed"
