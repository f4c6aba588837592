#!/bin/sh
# Faults on the farm: a worker killed with SIGKILL in the middle of a run
# (under RMTLB, results at their origins) loses nothing: the master learns
# of it, the survivors say what they hold, what nobody holds runs again,
# and every result is verified once.  The killed worker leaves no cgroup
# or socket behind.  Then Ctrl-C (SIGINT) on lbmaster: exit 130 with a
# message, and no pvmd, worker or PVM file left.
. "${LB_TOP_SRCDIR:-.}/tests/lib.sh"
farm_lock
pvm_private
m="$top_builddir/master/lbmaster"
csv="$PVM_TMP/out.csv"
hosts="$PVM_TMP/hosts.csv"

for mode in origin direct; do
  rm -f "$csv" "$hosts"
  "$m" --workload primes --size 30000000 --hosts 6 --procs 48 --init one --policy rmtlb --results $mode \
    --speeds 0.30 --seed 2 --timeout 120 --out "$csv" --hosts-csv "$hosts" >"$PVM_TMP/run.out" 2>&1 &
  master=$!
  pids=$(wait_workers 6) || fail "$mode: the workers did not start"
  sleep 1.5
  victim=$(printf '%s\n' $pids | sed -n 3p)
  kill -9 "$victim" 2>/dev/null && ok "$mode: worker $victim killed mid-run" || fail "$mode: no worker to kill"
  wait $master
  rc=$?
  [ $rc -eq 0 ] && ok "$mode: lbmaster exit 0" || { tail -20 "$PVM_TMP/run.out"; fail "$mode: lbmaster exit $rc"; }
  [ "$(col verified)" = yes ] && ok "$mode: all 48 results verified" || fail "$mode: not verified"
  [ "$(col crashed)" = 1 ] && ok "$mode: one host down" || fail "$mode: crashed $(col crashed)"
  [ "$(col reruns)" -ge 1 ] && ok "$mode: $(col reruns) process(es) ran again" || fail "$mode: nothing ran again"
  grep -q 'asking the 5 others what they hold' "$PVM_TMP/run.out" && ok "$mode: failure detected and reported" \
    || fail "$mode: no report of the failure"
  cg=$(worker_cgroups "$victim")
  [ -z "$cg" ] && ok "$mode: no cgroup of the killed worker" || fail "$mode: cgroup left:" $cg
  left=$(ls "$PVM_TMP" | grep "pvmtmp0*$victim\.")
  [ -z "$left" ] && ok "$mode: no socket of the killed worker" || fail "$mode: sockets left: $left"
done

# Ctrl-C: lbmaster halts the VM it started and says so; nothing is left.
"$m" --workload primes --size 30000000 --hosts 6 --procs 48 --init one --policy rmtlb --speeds 0.30 \
  --seed 2 --timeout 120 >"$PVM_TMP/int.out" 2>&1 &
master=$!
wait_workers 6 >/dev/null || fail "interrupt: the workers did not start"
sleep 1
kill -INT $master
i=0; while kill -0 $master 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
wait $master
rc=$?
[ $rc -eq 130 ] && ok "interrupted run exits 130" || { tail -5 "$PVM_TMP/int.out"; fail "interrupted run exited $rc"; }
grep -q 'interrupted' "$PVM_TMP/int.out" && ok "it says it was interrupted" || fail "no message on interrupt"
nothing_left
finish
