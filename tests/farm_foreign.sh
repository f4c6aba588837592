#!/bin/sh
# A message with a foreign tag and one of ours with a bad header reach
# every worker in the middle of a run: each is logged and dropped, and
# the run still verifies with nothing lost.
. "${LB_TOP_SRCDIR:-.}/tests/lib.sh"
farm_lock
pvm_private
csv="$PVM_TMP/out.csv"
err=$("$top_builddir/master/lbmaster" --workload primes --size 300000 --hosts 3 --procs 9 --init even \
  --inject-junk --out "$csv" 2>&1 >/dev/null)
rc=$?
[ $rc -eq 0 ] && ok "exit 0" || { printf '%s\n' "$err"; fail "exit $rc"; }
[ "$(col verified)" = yes ] && ok "verified" || fail "not verified"
[ "$(col msgs_RESULT)" = 9 ] && ok "all 9 results" || fail "$(col msgs_RESULT) results"
[ "$(col dropped)" = 6 ] && ok "6 messages dropped (2 per worker)" || fail "dropped: $(col dropped)"
n=$(printf '%s\n' "$err" | grep -c 'dropped a message .* with tag 4242: unknown tag')
[ "$n" = 3 ] && ok "foreign tag logged by each worker" || fail "foreign tag logged $n times: $err"
n=$(printf '%s\n' "$err" | grep -c 'dropped a message .* with tag 7113: bad magic')
[ "$n" = 3 ] && ok "bad header logged by each worker" || fail "bad header logged $n times: $err"
finish
