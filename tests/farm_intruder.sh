#!/bin/sh
# Tasks of the farm's own virtual machine that are not the farm's
# (tests/pvm_intruder.c).  A SETUP whose start time is two days off the
# worker's clock, either way, is refused with a message; a current one is
# taken.  A task that joined the VM sends, while lbmaster collects
# results, messages that claim the master's, a worker's or a pvmd's tid
# as their sender: a RESULT, a LOST, an EXITED and a HOSTDEL notice to
# lbmaster; STOP, QUIT, a policy message (TRANSFER) and an EXITED notice
# to a worker.  Each is dropped with a log line (a MAC that does not
# match; a notice the pvmd does not confirm), and the run verifies with
# no host taken for dead and no process run twice.
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
# The forgeries (tests/pvm_intruder.c), each with the line that must say
# it was dropped: to lbmaster, then to worker 1 (its lines come through
# lbmaster's stderr).
to_master='with tag 7109: MAC does not match: forged
with tag 7116: MAC does not match: forged
EXITED notice from t8[0-9a-f]* naming t[0-9a-f]* dropped: the pvmd says host 1.s worker is still there
HOSTDEL notice from t8[0-9a-f]* naming t[0-9a-f]* dropped: the pvmd says
with tag 4242: unknown tag'
to_worker='with tag 7111: MAC does not match: forged
with tag 7103: MAC does not match: forged
with tag 7113: MAC does not match: forged
host 1: EXITED notice from t8[0-9a-f]* naming the master dropped: the pvmd says it still runs'
logged() { printf '%s\n' "$1" | while read -r re; do grep -q -- "$re" "$err" || echo "$re"; done; }
if [ $busy -eq 3 ]; then
  ok "3 workers computing"
  # Workers 0 and 2 (spawned first and last: lowest and highest pid) are
  # stopped while the forgeries are sent and taken: the run cannot end
  # before every one has been read.  Worker 1 must run, to take its own.
  stopped=$(printf '%s\n' $pids | sort -n | sed -n '1p;3p')
  at_exit 'kill -CONT $stopped 2>/dev/null'
  # shellcheck disable=SC2086
  kill -STOP $stopped
  fout=$(timeout 60 "$intruder" forge 2>&1) && ok "forged messages sent" || fail "pvm_intruder forge: $fout"
  printf '%s\n' "$fout"
  nsent=$(printf '%s\n' "$fout" | sed -n 's/^pvm_intruder: sent \([0-9]*\) messages$/\1/p')
  i=0
  while [ $i -lt 300 ] && [ -n "$(logged "$to_master
$to_worker")" ]; do sleep 0.1; i=$((i + 1)); done   # 30 s
  # shellcheck disable=SC2086
  kill -CONT $stopped 2>/dev/null
else
  fail "only $busy workers computing after 60 s"
fi
wait $mpid
rc=$?
[ $rc -eq 0 ] && ok "lbmaster exit 0" || { cat "$err"; fail "lbmaster exit $rc"; }
missing=$(logged "$to_master
$to_worker")
[ -z "$missing" ] && ok "every forgery dropped with a log line" || fail "no drop logged for: $missing (stderr: $(cat "$err"))"
grep -q 'exited [0-9.]* s into the run\|rejected\|run again' "$err" && fail "a forgery changed the run: $(cat "$err")" \
  || ok "no worker taken for dead, no result rejected, nothing run again"
[ "$(col verified)" = yes ] && ok "verified" || fail "not verified"
[ "$(col msgs_RESULT)" = 9 ] && ok "all 9 results" || fail "$(col msgs_RESULT) results"
[ "$(col crashed)" = 0 ] && [ "$(col reruns)" = 0 ] && [ "$(col duplicates)" = 0 ] \
  && ok "no host down, no process run twice" \
  || fail "crashed $(col crashed), reruns $(col reruns), duplicates $(col duplicates)"
[ "$(col dropped)" = "${nsent:-none}" ] && ok "$nsent messages dropped" || fail "dropped: $(col dropped), sent ${nsent:-?}"
no_sanitizer_report lbmaster "$(cat "$err")"
finish
