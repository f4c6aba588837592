#!/bin/sh
# A slave pvmd killed with SIGKILL mid-run on the six-namespace cluster:
# h3's lease runs out, it is fenced, and lbmaster deletes its machine
# from the virtual machine, so that every other pvmd drops what it
# queued for h3 at once.  PVM 3.4's pvmd sends each new packet, to any
# host, only when its next retry to a host that stopped answering is
# due (retries 9-18 s apart, for the 3 minutes before it gives that host
# up): the survivors' messages to each other waited behind them
# (docs/FARM.md, "Leases").  Checks: the fence and deletion lines; the
# pvmds of h2 and h4 (h3's neighbours) drop h3 within 10 s of the
# deletion (their logs' host-table lines, PVMDDEBUG=0x10), where PVM
# alone keeps it for about 3 minutes; the run is verified; the cluster
# goes whole.  SKIP (77) where namespaces cannot
# be created.
. "${LB_TOP_SRCDIR:-.}/tests/lib.sh"
farm_lock
cluster_lock
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root to create network namespaces"; exit 77; }
command -v ip >/dev/null || { echo "SKIP: no ip command (iproute2)"; exit 77; }
scripts="$top_srcdir/scripts"
ns=lbk$$-
state=$(mktemp -d "${TMPDIR:-/tmp}/lbfarm-c6k.XXXXXX")
mpid=
at_exit '[ -n "$mpid" ] && kill -9 $mpid 2>/dev/null; "$scripts/cluster-down.sh" --state "$state" >/dev/null 2>&1; rm -rf "$state"'
# The pvmds log their host-table changes (inherited by the slaves).
PVMDDEBUG=0x10 "$scripts/cluster-up.sh" --ns $ns --builddir "$top_builddir" --state "$state" >"$state.up" 2>&1
rc=$?
[ $rc -eq 77 ] && { cat "$state.up"; rm -f "$state.up"; echo "SKIP: cluster-up.sh could not create namespaces"; exit 77; }
[ $rc -eq 0 ] && ok "cluster up" || { cat "$state.up"; fail "cluster-up.sh exited $rc"; }
rm -f "$state.up"

# in_ns HOST NAME: pids of the live processes NAME in HOST's namespace.
in_ns() {
  for p in $(ip netns pids "${ns}$1" 2>/dev/null); do
    [ "$(cat "/proc/$p/comm" 2>/dev/null)" = "$2" ] && [ "$(cut -d' ' -f3 "/proc/$p/stat" 2>/dev/null)" != Z ] && echo "$p"
  done
}
# dropped HOST: HOST's pvmd has taken h3 out of its host table.
dropped() { grep -q 'dm_htdel() host h3' "$state/$1/tmp/pvml.$(id -u)" 2>/dev/null; }

out=$state/out err=$state/err
"$scripts/cluster-run.sh" --state "$state" lbmaster --workload primes --size 30000000 --procs 48 --policy rmtlb \
  --speeds 0.30 --timeout 120 >"$out" 2>"$err" &
mpid=$!
t=0
while [ $t -lt 200 ] && [ -z "$(in_ns h3 lbworker)" ]; do sleep 0.1; t=$((t + 1)); done
[ -n "$(in_ns h3 lbworker)" ] && ok "a worker runs on h3" || fail "no worker on h3"
sleep 2
victim=$(in_ns h3 pvmd)
[ -n "$victim" ] && kill -9 $victim && ok "h3's pvmd killed" || fail "no pvmd on h3"
t=0
while [ $t -lt 300 ] && ! grep -q "machine h3 deleted from the virtual machine" "$err"; do sleep 0.1; t=$((t + 1)); done
grep -q 'lbmaster: host 2 (t[0-9a-f]*) renewed no lease' "$err" && ok "host 2 fenced" || fail "host 2 not fenced"
if grep -q "host 2's machine h3 deleted from the virtual machine" "$err"; then
  ok "h3 deleted from the virtual machine"
  for h in h2 h4; do
    t=0
    while [ $t -lt 100 ] && ! dropped $h; do sleep 0.1; t=$((t + 1)); done
    dropped $h && ok "$h's pvmd dropped h3 within 10 s of the deletion" || fail "$h's pvmd still has h3 10 s after the deletion"
  done
else
  fail "h3 not deleted"
fi
t=0
while [ $t -lt 1500 ] && kill -0 $mpid 2>/dev/null; do sleep 0.1; t=$((t + 1)); done
wait $mpid
rc=$?
mpid=
grep -q 'results verified: yes' "$out" && [ $rc -eq 0 ] && ok "verified: $(grep -o 'makespan [0-9.]* s' "$out")" ||
  { cat "$err" >&2; fail "lbmaster exited $rc"; }
"$scripts/cluster-down.sh" --state "$state" >/dev/null 2>&1
left=$(ip netns list 2>/dev/null | grep -E "^(${ns}br|${ns}h[1-6])( |$)")
[ -z "$left" ] && ok "namespaces removed" || fail "namespaces left: $left"
finish
