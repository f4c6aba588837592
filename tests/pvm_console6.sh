#!/bin/sh
# The console path on a real multi-host VM: on the six-namespace cluster
# (scripts/cluster-up.sh), `spawn -h3 -> lbmaster` from the PVM console
# lands lbmaster on a slave host, where it joins the running 6-host VM
# (a slave pvmd's socket is named after the pid it had before it forked,
# so nothing may be judged by that name), runs verified, and leaves the
# VM with all six hosts, the same pvmds and every host's PVM_TMP files as
# they were.  Then a spawn with PVM's own placement does the same.  SKIP
# (77) with the reason where namespaces cannot be created.  Run it under
# `flock /tmp/lbfarm-cluster6.lock` beside other users of the cluster.
. "${LB_TOP_SRCDIR:-.}/tests/lib.sh"
farm_lock
cluster_lock
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root to create network namespaces"; exit 77; }
command -v ip >/dev/null || { echo "SKIP: no ip command (iproute2)"; exit 77; }
command -v pvm >/dev/null || { echo "SKIP: no pvm console"; exit 77; }
scripts="$top_srcdir/scripts"
ns=lbt$$c-
state=$(mktemp -d "${TMPDIR:-/tmp}/lbfarm-c6c.XXXXXX")
at_exit '"$scripts/cluster-down.sh" --state "$state" >/dev/null 2>&1; rm -rf "$state"'
"$scripts/cluster-up.sh" --ns $ns --builddir "$top_builddir" --state "$state" >"$state.up" 2>&1
rc=$?
cat "$state.up"; rm -f "$state.up"
[ $rc -eq 77 ] && { echo "SKIP: cluster-up.sh could not create namespaces"; exit 77; }
[ $rc -eq 0 ] && ok "cluster up" || { fail "cluster-up.sh exited $rc"; finish; }

# What the VM is: each host's PVM_TMP files and the pvmds in its namespace.
snapshot() {
  for i in 1 2 3 4 5 6; do
    echo "h$i files: $(ls -A "$state/h$i/tmp" | sort | tr '\n' ' ')"
    for p in $(ip netns pids ${ns}h$i); do
      [ "$(cat "/proc/$p/comm" 2>/dev/null)" = pvmd ] && [ "$(cut -d' ' -f3 "/proc/$p/stat")" != Z ] && echo "h$i pvmd $p"
    done | sort
  done
}
tasks() {
  for i in 1 2 3 4 5 6; do
    for p in $(ip netns pids ${ns}h$i); do
      case $(cat "/proc/$p/comm" 2>/dev/null) in lbmaster|lbworker) echo "h$i $p" ;; esac
    done
  done
}
before=$(snapshot)
printf '%s\n' "$before"
[ "$(printf '%s\n' "$before" | grep -c ' pvmd ')" -ge 6 ] && ok "a pvmd on each of the 6 hosts" \
  || fail "pvmds: $before"

# console SPAWN-OPTIONS: one lbmaster from the console on h1; the
# console stays open until lbmaster has come and gone (its output
# reaches the log only when the console exits), then lists the hosts
# and quits, leaving the VM up.
console() {
  log=$state/console.out
  (echo "spawn $1 -> lbmaster --policy rmtlb --workload primes --size 2000000 --seed 3 --timeout 60"
   i=0 seen=0
   while [ $i -lt 450 ]; do
     if tasks | grep -q .; then seen=1; elif [ $seen = 1 ] || [ $i -ge 25 ]; then break; fi
     sleep 0.2; i=$((i + 1))
   done
   echo conf; sleep 0.5; echo quit) |
    timeout 120 "$scripts/cluster-run.sh" --state "$state" pvm >"$log" 2>&1
  out=$(cat "$log")
}

# check WHAT WANT-HOST: lbmaster ran on WANT-HOST (any slave if empty),
# verified, and the VM is as it was.
check() {
  printf '%s\n' "$out" | grep -v '\[1:t[0-9a-f]*\] \(policy,\|rmtlb,\|[0-9] \)'
  tid=$(printf '%s\n' "$out" | sed -n 's/^.*\[1:t\([0-9a-f]*\)\] lbmaster: t.* on a \([0-9]*\)-host virtual machine (already running).*/\1 \2/p')
  set -- "$1" "$2" $tid
  [ "${4:-}" = 6 ] && ok "$1: lbmaster joined the running 6-host VM" || fail "$1: lbmaster did not join the 6-host VM"
  # The tid's host part (PVM's TIDHOST, tid >> 18) is the index of the
  # host in conf's DTID column.
  host=
  if [ -n "${3:-}" ]; then
    host=$(printf '%s\n' "$out" | awk '$1 ~ /^h[1-6]$/ && $2 ~ /^[0-9a-f]+$/ { print $1, $2 }' |
      while read -r h d; do [ $((0x$d)) = $(( (0x$3 >> 18) << 18 )) ] && echo "$h"; done)
  fi
  if [ -n "$2" ]; then
    [ "$host" = "$2" ] && ok "$1: lbmaster ran on $2" || fail "$1: lbmaster ran on '$host', not $2"
  else
    echo "$1: lbmaster ran on $host"
  fi
  printf '%s\n' "$out" | grep -q '\[1:t[0-9a-f]*\] rmtlb primes .* results verified: yes' \
    && ok "$1: run verified" || fail "$1: run not verified"
  printf '%s\n' "$out" | grep -q '^\[1\] finished' && ok "$1: lbmaster finished" || fail "$1: lbmaster did not finish"
  n=$(printf '%s\n' "$out" | grep -cE '^ +h[1-6] ')
  [ "$n" = 6 ] && ok "$1: conf still lists 6 hosts" || fail "$1: conf lists $n hosts"
  sleep 0.5
  after=$(snapshot)
  [ "$after" = "$before" ] && ok "$1: same pvmds and PVM_TMP files on every host" \
    || fail "$1: the VM changed: before
$before
after
$after"
  t=$(tasks)
  [ -z "$t" ] && ok "$1: no lbmaster or worker left" || fail "$1: tasks left: $t"
}

console -h3
check "spawn -h3" h3
console ""
check "spawn (PVM's placement)" ""
finish
