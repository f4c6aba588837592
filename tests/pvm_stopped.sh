#!/bin/sh
# Every wait has a bound, calls into libpvm included.  With the private
# pvmd that lbmaster started stopped (SIGSTOP) mid-run, lbmaster says
# what it was waiting for, exits non-zero within --timeout + 10 s, and
# leaves no pvmd, worker, cgroup of a worker or file in PVM_TMP.  Ctrl-C
# (SIGINT) while it waits on the stopped pvmd ends it within a couple of
# seconds, exit 130, leaving nothing either.  In a VM lbmaster joined
# (a pvmd started by hand), it ends its own workers and their cgroups
# and keeps that pvmd and its files, which serve again once resumed.
# The test judges only what it started, and resumes and kills what it
# stopped.
. "${LB_TOP_SRCDIR:-.}/tests/lib.sh"
farm_lock
pvm_private
lbm=$top_builddir/master/lbmaster
timeout=10
stopped=
at_exit 'for p in $stopped; do kill -CONT "$p" 2>/dev/null; kill -9 "$p" 2>/dev/null; done'
alive() { s=$(cut -d' ' -f3 "/proc/$1/stat" 2>/dev/null); [ -n "$s" ] && [ "$s" != Z ]; }
now() { date +%s.%N; }

# stop_mid_run [SIGNAL-AFTER-S]: start a long run, stop the pvmd once
# the six workers run, optionally SIGINT lbmaster that many seconds
# later; sets rc, secs (from the stop, or the SIGINT, to lbmaster's
# end), err, pvmd and workers.
stop_mid_run() {
  "$lbm" --workload primes --size 60000000 --hosts 6 --speeds 0.3 --policy rmtlb --timeout $timeout \
    --out "$PVM_TMP/out.csv" >"$PVM_TMP/stdout" 2>"$PVM_TMP/stderr" &
  m=$!
  # The test's own bound: a lbmaster that hangs fails, it does not hang make check.
  (trap 'kill $s 2>/dev/null; exit 0' TERM
   sleep $((timeout + 40)) & s=$!
   wait $s && kill -9 $m 2>/dev/null) &
  dog=$!
  pvmd= workers=
  for i in $(seq 1 150); do
    pvmd=$(pvmd_addr_pid)
    [ -n "$pvmd" ] && workers=$(pgrep -P "$pvmd") && [ "$(echo "$workers" | wc -l)" -ge 6 ] && break
    sleep 0.1
  done
  sleep 1   # the run is under way: processes handed out, some migrating
  kill -STOP "$pvmd"
  stopped="$stopped $pvmd"
  t0=$(now)
  if [ -n "${1:-}" ]; then sleep "$1"; kill -INT $m; t0=$(now); fi
  wait $m
  rc=$?
  kill $dog 2>/dev/null
  secs=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')
  err=$(cat "$PVM_TMP/stderr")
}

# left_nothing WHAT: the pvmd, workers, their cgroups and PVM's files.
left_nothing() {
  sleep 0.3
  live=
  for p in $pvmd $workers; do alive "$p" && live="$live $p"; done
  [ -z "$live" ] && ok "$1: pvmd $pvmd and its 6 workers ended" || fail "$1: still running:$live"
  cg=
  cg=$(worker_cgroups $workers)
  [ -z "$cg" ] && ok "$1: no cgroup of its workers left" || fail "$1: cgroups left of workers:$cg"
  left=$(ls -A "$PVM_TMP" | grep -vxE 'out\.csv|stdout|stderr')
  [ -z "$left" ] && ok "$1: nothing left in PVM_TMP" || fail "$1: left in PVM_TMP: $left"
}

stop_mid_run
echo "$err"
[ -n "$workers" ] && ok "pvmd $pvmd stopped with 6 workers running" || fail "no workers seen"
[ $rc -ne 0 ] && [ $rc -ne 130 ] && ok "stopped pvmd: lbmaster exited $rc" || fail "stopped pvmd: exit $rc"
awk -v s="$secs" -v t=$timeout 'BEGIN { exit !(s <= t + 10) }' && ok "it ended ${secs}s after the stop (--timeout $timeout)" \
  || fail "it ended ${secs}s after the stop, over --timeout $timeout + 10"
printf '%s\n' "$err" | grep -q 'no answer from the pvmd for [0-9.]* s while .*; ending the virtual machine this run started' \
  && ok "it says what it was waiting for" || fail "message: $err"
left_nothing "stopped pvmd"

stop_mid_run 1
echo "$err"
[ $rc -eq 130 ] && ok "Ctrl-C while waiting on a stopped pvmd: exit 130" || fail "Ctrl-C: exit $rc"
awk -v s="$secs" 'BEGIN { exit !(s <= 3) }' && ok "it ended ${secs}s after Ctrl-C" \
  || fail "it ended ${secs}s after Ctrl-C"
printf '%s\n' "$err" | grep -q 'interrupted' && ok "it says it was interrupted" || fail "message: $err"
left_nothing "Ctrl-C"

# A pvmd started by hand, which lbmaster joins.
(pvmd $(pvm_name_opt) >/dev/null 2>&1 &)
for i in $(seq 1 50); do [ -n "$(pvmd_addr_pid)" ] && break; sleep 0.1; done
files=$(ls -A "$PVM_TMP" | grep -E '^(pvmd|pvml|pvmtmp)' | sort)
stop_mid_run
echo "$err"
[ $rc -eq 1 ] && awk -v s="$secs" -v t=$timeout 'BEGIN { exit !(s <= t + 10) }' \
  && ok "joined VM, pvmd $pvmd stopped: exit 1 after ${secs}s" || fail "joined VM: exit $rc after ${secs}s"
printf '%s\n' "$err" | grep -q "no answer from the pvmd for [0-9.]* s while .*; ending this run's workers here" \
  && ok "joined VM: it says what it was waiting for" || fail "joined VM: message: $err"
live=
for p in $workers; do alive "$p" && live="$live $p"; done
[ -z "$live" ] && ok "joined VM: its 6 workers ended" || fail "joined VM: workers still running:$live"
cg=
cg=$(worker_cgroups $workers)
[ -z "$cg" ] && ok "joined VM: no cgroup of its workers left" || fail "joined VM: cgroups left of workers:$cg"
now_files=$(ls -A "$PVM_TMP" | grep -E '^(pvmd|pvml|pvmtmp)' | sort)
[ "$now_files" = "$files" ] && ok "joined VM: the pvmd's files kept, none of lbmaster's or its workers' left" \
  || fail "joined VM: PVM_TMP was: $files; now: $now_files"
alive "$pvmd" && ok "joined VM: the pvmd it did not start is still there" || fail "joined VM: pvmd $pvmd gone"
kill -CONT "$pvmd"
n=$(printf 'conf\nquit\n' | pvm 2>/dev/null | grep -c 'LINUX')
[ "$n" -ge 1 ] && ok "joined VM: resumed, it answers again" || fail "joined VM: no answer after SIGCONT"
finish
