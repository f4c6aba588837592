#!/bin/sh
# Six PVM hosts on one machine: cluster-up.sh makes six namespace hosts
# h1..h6 (namespaces of a name of this run's own, so another cluster on
# the machine is no obstacle), `conf` lists six hosts, lbmaster runs one
# worker on each and verifies (with processes migrating between
# namespace hosts), and cluster-down.sh removes everything.  With --ssh
# (tests/farm_cluster6_ssh.sh) the slave pvmds start through the
# cluster's own sshds, as on real machines, and the keys go too.  SKIP
# (77) with the reason where namespaces cannot be created (or, with
# --ssh, OpenSSH is missing).
. "${LB_TOP_SRCDIR:-.}/tests/lib.sh"
mode=${1:-}
farm_lock
cluster_lock
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root to create network namespaces"; exit 77; }
command -v ip >/dev/null || { echo "SKIP: no ip command (iproute2)"; exit 77; }
if [ "$mode" = --ssh ]; then
  for b in /usr/sbin/sshd ssh ssh-keygen; do
    command -v $b >/dev/null || { echo "SKIP: no $b (apt-get install openssh-server openssh-client)"; exit 77; }
  done
fi
scripts="$top_srcdir/scripts"
ns=lbt$$-
state=$(mktemp -d "${TMPDIR:-/tmp}/lbfarm-c6.XXXXXX")
at_exit '"$scripts/cluster-down.sh" --state "$state" >/dev/null 2>&1; rm -rf "$state"'
"$scripts/cluster-up.sh" $mode --ns $ns --builddir "$top_builddir" --state "$state" >"$state.up" 2>&1
rc=$?
cat "$state.up"; rm -f "$state.up"
[ $rc -eq 77 ] && { echo "SKIP: cluster-up.sh could not create namespaces"; exit 77; }
[ $rc -eq 0 ] && ok "cluster up" || fail "cluster-up.sh exited $rc"
if [ "$mode" = --ssh ]; then
  # Each slave pvmd came through its host's sshd with the cluster's key,
  # from the dx= path of the hostfile; each sshd listens on its host's
  # address only.
  n=0
  for i in 2 3 4 5 6; do
    grep -q 'Accepted publickey for root from 10.77.0.1 ' "$state/h$i/sshd.log" 2>/dev/null && n=$((n + 1))
  done
  [ $n = 5 ] && ok "5 slave pvmds started through ssh" || fail "ssh logins on $n of 5 slave hosts"
  n=$(for i in 2 3 4 5 6; do ip netns pids ${ns}h$i; done | while read -r p; do
    tr '\0' ' ' <"/proc/$p/cmdline"; echo; done | grep -c '^/usr/lib/pvm3/lib/pvmd -s ')
  [ "$n" = 5 ] && ok "5 slave pvmds run from dx=" || fail "$n slave pvmds from dx="
  l=$(ip netns exec ${ns}h3 ss -Hltn 2>/dev/null | awk '{ print $4 }' | grep ':2207$')
  [ "$l" = 10.77.0.3:2207 ] && ok "h3's sshd listens on 10.77.0.3:2207 only" || fail "h3's sshd listens on '$l'"
fi
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
sshds=$(for i in 1 2 3 4 5 6; do ip netns pids ${ns}h$i; done | while read -r p; do
  [ "$(cat "/proc/$p/comm" 2>/dev/null)" = sshd ] && echo "$p"; done)
"$scripts/cluster-down.sh" --state "$state" >/dev/null 2>&1
left=$(ip netns list 2>/dev/null | grep -E "^(${ns}br|${ns}h[1-6])( |$)")
[ -z "$left" ] && ok "namespaces removed" || fail "namespaces left: $left"
[ ! -e /etc/netns/${ns}h1 ] && ok "/etc/netns entries removed" || fail "/etc/netns/${ns}h1 left"
live=$(for p in $sshds; do [ -d /proc/$p ] && [ "$(cut -d' ' -f3 /proc/$p/stat)" != Z ] && echo $p; done)
[ -z "$live" ] && ok "no sshd left" || fail "sshds left: $live"
[ ! -e "$state" ] && ok "state directory removed" || fail "$state left"
live=$(for p in $(pgrep -x pvmd); do
  [ "$(cut -d' ' -f3 /proc/$p/stat 2>/dev/null)" = Z ] && continue
  (tr '\0' '\n' <"/proc/$p/environ") 2>/dev/null | grep -q "^PVM_TMP=$state/" && echo "$p"
done)
[ -z "$live" ] && ok "no pvmd left" || fail "pvmds left: $live"
finish
