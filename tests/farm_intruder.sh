#!/bin/sh
# Tasks of the farm's own virtual machine that are not the farm's
# (tests/pvm_intruder.c).  A SETUP whose start time is two days off the
# worker's clock, either way, is refused with a message; a current one is
# taken.  A task sends lbmaster, while it collects results, a 4-byte
# message with the tag of a pvmd's task-exit notice naming one of its
# workers: lbmaster drops it with a log line and the run still verifies.
# The workers are stopped (SIGSTOP) while the message is sent, so the run
# cannot end before lbmaster has read it.
. "${LB_TOP_SRCDIR:-.}/tests/lib.sh"
farm_lock
pvm_private
intruder="$top_builddir/tests/pvm_intruder"

out=$("$intruder" setup-t0 2>&1)
rc=$?
printf '%s\n' "$out"
[ $rc -eq 0 ] && ok "setup-t0: exit 0" || fail "setup-t0: exit $rc"
for c in "two days behind: refused" "two days ahead: refused" "now: accepted"; do
  printf '%s\n' "$out" | grep -q "start time $c" && ok "start time $c" || fail "start time not $c"
done
n=$(printf '%s\n' "$out" | grep -c "SETUP refused: start time -\{0,1\}[0-9]* s off this host's clock")
[ "$n" = 2 ] && ok "both refusals logged" || fail "$n refusals logged"
no_sanitizer_report "setup-t0 and its workers" "$out"

# A worker has its processes once it has used CPU (it idles before); a
# host's share here takes 3 s of CPU or more.
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null || echo 0; }
csv="$PVM_TMP/out.csv"
err="$PVM_TMP/master.err"
timeout 300 "$top_builddir/master/lbmaster" --workload primes --size 30000000 --hosts 3 --procs 9 --init even \
  --timeout 120 --out "$csv" >/dev/null 2>"$err" &
mpid=$!
busy=0 pids=""
i=0
while [ $i -lt 600 ] && [ $busy -lt 3 ]; do   # 60 s
  sleep 0.1
  i=$((i + 1))
  pids=$(pvm_task_pids lbworker)
  busy=0
  for p in $pids; do [ "$(cpu_ticks "$p")" -ge 30 ] && busy=$((busy + 1)); done
done
if [ $busy -eq 3 ]; then
  ok "3 workers computing"
  trap 'kill -CONT $pids 2>/dev/null; pvm_cleanup' EXIT
  # shellcheck disable=SC2086
  kill -STOP $pids
  "$intruder" exited && ok "EXITED notice sent by a task" || fail "pvm_intruder exited failed"
  i=0
  while [ $i -lt 300 ] && ! grep -q 'with tag 7104: a notice that no pvmd sent' "$err"; do   # 30 s
    sleep 0.1
    i=$((i + 1))
  done
  # shellcheck disable=SC2086
  kill -CONT $pids 2>/dev/null
else
  fail "only $busy workers computing after 60 s"
fi
wait $mpid
rc=$?
[ $rc -eq 0 ] && ok "lbmaster exit 0" || { cat "$err"; fail "lbmaster exit $rc"; }
grep -q 'dropped a message from t[0-9a-f]* with tag 7104: a notice that no pvmd sent' "$err" \
  && ok "lbmaster dropped the notice with a log line" || fail "no drop logged: $(cat "$err")"
grep -q 'exited before the end' "$err" && fail "lbmaster took the notice: $(cat "$err")" || ok "no worker taken for dead"
[ "$(col verified)" = yes ] && ok "verified" || fail "not verified"
[ "$(col msgs_RESULT)" = 9 ] && ok "all 9 results" || fail "$(col msgs_RESULT) results"
[ "$(col dropped)" = 1 ] && ok "1 message dropped" || fail "dropped: $(col dropped)"
no_sanitizer_report lbmaster "$(cat "$err")"
finish
