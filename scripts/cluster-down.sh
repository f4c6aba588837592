#!/bin/sh
# cluster-down.sh: remove what cluster-up.sh made: halt the pvmds, then
# delete the namespaces h1..h6 and lbfarm-br, /etc/netns/h1..h6 and the
# state directory.  Safe to run twice.
# Usage: scripts/cluster-down.sh [--state DIR]
set -u
state=/tmp/lbfarm-cluster
[ "${1:-}" = --state ] && state=$2
if [ -x "$state/in-host" ]; then
  printf 'halt\n' | timeout 10 "$state/in-host" h1 /usr/bin/pvm >/dev/null 2>&1 || true
fi
# Whatever still runs in our namespaces (pvmds, tasks): TERM, then KILL.
for sig in TERM KILL; do
  for ns in h1 h2 h3 h4 h5 h6 lbfarm-br; do
    for p in $(ip netns pids "$ns" 2>/dev/null); do kill -s $sig "$p" 2>/dev/null || true; done
  done
  sleep 0.3
done
for ns in h1 h2 h3 h4 h5 h6 lbfarm-br; do
  ip netns del "$ns" 2>/dev/null || true
done
for i in 1 2 3 4 5 6; do
  rm -f /etc/netns/h$i/hosts /etc/netns/h$i/hostname
  rmdir /etc/netns/h$i 2>/dev/null || true
done
rmdir /etc/netns 2>/dev/null || true
# Only a directory that cluster-up.sh marked as its own.
[ -f "$state/.lbfarm-cluster" ] && rm -rf "$state"
echo "cluster-down.sh: removed"
