#!/bin/sh
# Six PVM hosts on one machine: cluster-up.sh makes namespaces h1..h6,
# `conf` lists six hosts, lbmaster runs one worker on each and verifies
# (with processes migrating between namespace hosts), and
# cluster-down.sh removes everything.  SKIP (77) with the reason where
# namespaces cannot be created or h1..h6 are taken.
. "${LB_TOP_SRCDIR:-.}/tests/lib.sh"
farm_lock
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root to create network namespaces"; exit 77; }
command -v ip >/dev/null || { echo "SKIP: no ip command (iproute2)"; exit 77; }
if ip netns list 2>/dev/null | grep -qE '^(lbfarm-br|h[1-6])( |$)'; then
  echo "SKIP: namespaces h1..h6 are in use by another cluster"
  exit 77
fi
scripts="$top_srcdir/scripts"
state=$(mktemp -d "${TMPDIR:-/tmp}/lbfarm-c6.XXXXXX")
trap '"$scripts/cluster-down.sh" --state "$state" >/dev/null 2>&1; rm -rf "$state"' EXIT
"$scripts/cluster-up.sh" --builddir "$top_builddir" --state "$state" >"$state.up" 2>&1
rc=$?
cat "$state.up"; rm -f "$state.up"
[ $rc -eq 77 ] && { echo "SKIP: cluster-up.sh could not create namespaces"; exit 77; }
[ $rc -eq 0 ] && ok "cluster up" || fail "cluster-up.sh exited $rc"
n=$(printf 'conf\nquit\n' | "$scripts/cluster-run.sh" --state "$state" pvm 2>/dev/null | grep -cE '^ +h[1-6] ')
[ "$n" = 6 ] && ok "conf lists 6 hosts" || fail "conf lists $n hosts"
out=$("$scripts/cluster-run.sh" --state "$state" lbmaster --workload primes --size 10000000 --procs 24 \
  --order 2 --timeout 60 2>/dev/null)
rc=$?
printf '%s\n' "$out" | sed -n '2,8p'
[ $rc -eq 0 ] && printf '%s\n' "$out" | grep -q 'results verified: yes' && ok "verified on 6 hosts" \
  || fail "lbmaster exited $rc"
# A tid's host part is tid >> 18 (PVM's TIDHOST field): six distinct.
hosts=$(for t in $(printf '%s\n' "$out" | awk '$1 ~ /^[0-5]$/ && $2 ~ /^t/ { print substr($2, 2) }'); do
  echo $(( 0x$t >> 18 )); done | sort -u | wc -l)
[ "$hosts" = 6 ] && ok "one worker on each of 6 PVM hosts" || fail "workers on $hosts hosts"
printf '%s\n' "$out" | grep -q ' 4 migrations' && ok "processes migrated between namespace hosts" \
  || fail "no migration across hosts"
"$scripts/cluster-down.sh" --state "$state" >/dev/null 2>&1
left=$(ip netns list 2>/dev/null | grep -E '^(lbfarm-br|h[1-6])( |$)')
[ -z "$left" ] && ok "namespaces removed" || fail "namespaces left: $left"
[ ! -e /etc/netns/h1 ] && ok "/etc/netns entries removed" || fail "/etc/netns/h1 left"
[ ! -e "$state" ] && ok "state directory removed" || fail "$state left"
live=$(for p in $(pgrep -x pvmd); do
  [ "$(cut -d' ' -f3 /proc/$p/stat 2>/dev/null)" = Z ] && continue
  (tr '\0' '\n' <"/proc/$p/environ") 2>/dev/null | grep -q "^PVM_TMP=$state/" && echo "$p"
done)
[ -z "$live" ] && ok "no pvmd left" || fail "pvmds left: $live"
finish
