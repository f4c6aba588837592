#!/bin/sh
# A host whose results are wrong (lbmaster --inject-wrong H, a test path:
# the worker adds to the last number of every result it makes, a primes
# range's sum or matmul's last entry, and seals it with its own, right
# MAC).  The master verifies each result before it counts: each wrong one
# is dropped with a line naming the host that sent it and runs again on
# another host, and after 3 the host is excluded as a failed one (its
# processes recovered as a dead host's) and named in the report.  The
# run verifies.  Direct results on both workloads; then the origin of
# every process is the wrong host, under RMTLB with results at their
# origins, so the others deliver what it no longer can.
. "${LB_TOP_SRCDIR:-.}/tests/lib.sh"
farm_lock
pvm_private
m="$top_builddir/master/lbmaster"
csv="$PVM_TMP/out.csv"
err="$PVM_TMP/err"

# check NAME WRONG-HOST: the run that just ended
check() {
  name=$1 h=$2
  n=$(grep -c "result of process [0-9]* from host [0-9]* (ran on host $h) rejected: WRONG" "$err")
  [ "$rc" -eq 0 ] && [ "$(col verified)" = yes ] && ok "$name: exit 0, every result verified" \
    || { tail -20 "$err"; fail "$name: exit $rc, verified $(col verified)"; }
  [ "$n" -ge 3 ] && ok "$name: $n wrong results of host $h rejected with a line" \
    || fail "$name: $n rejections of host $h's results logged"
  [ "$(col reruns)" -ge 3 ] && ok "$name: $(col reruns) process(es) ran again" || fail "$name: reruns $(col reruns)"
  grep -q "host $h (t[0-9a-f]*) was excluded after 3 of its results failed verification" "$err" &&
    grep -q "failed verification and ran again elsewhere; excluded for it: host $h\$" "$err" &&
    [ "$(col crashed)" = 1 ] && ok "$name: host $h excluded and named" \
    || fail "$name: host $h not excluded or not named (crashed $(col crashed))"
  no_sanitizer_report "$name" "$(cat "$err")"
}

rm -f "$csv"
"$m" --workload primes --size 3000000 --hosts 4 --procs 24 --init even --inject-wrong 2 --out "$csv" \
  --timeout 60 >"$err" 2>&1
rc=$?
check "primes, direct" 2

rm -f "$csv"
"$m" --workload matmul --size 300 --hosts 4 --procs 24 --init even --inject-wrong 1 --out "$csv" \
  --timeout 60 >"$err" 2>&1
rc=$?
check "matmul, direct" 1

rm -f "$csv"
"$m" --workload primes --size 6000000 --hosts 6 --procs 48 --init one --policy rmtlb --results origin \
  --speeds 0.30 --inject-wrong 0 --out "$csv" --timeout 60 >"$err" 2>&1
rc=$?
check "primes, origin, rmtlb" 0
finish
