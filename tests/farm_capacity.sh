#!/bin/sh
# Default capacities: RMTLB drains a heavy host and fills a light one only
# to C + A, so the default C_i makes C_i + A_i each host's share of the
# processes.  48 processes, all on host 0 of six equal hosts: every host
# ends with about 8 (with C = procs/hosts = 8 they ended 9 9 9 9 9 3).
# The processes are long enough (primes to 2e7 at speed 0.30, ~3 s) that
# host 0 finishes few of its own before the balancing is done.
. "${LB_TOP_SRCDIR:-.}/tests/lib.sh"
farm_lock
pvm_private
hosts="$PVM_TMP/hosts.csv"
out=$("$top_builddir/master/lbmaster" --workload primes --size 20000000 --hosts 6 --procs 48 \
  --init one --policy rmtlb --speeds 0.30 --seed 2 --timeout 120 --hosts-csv "$hosts" 2>/dev/null)
rc=$?
printf '%s\n' "$out" | sed -n '2,8p'
[ $rc -eq 0 ] && ok "run verified" || fail "lbmaster exit $rc"
range=$(hostcol done | awk '{ for (i = 1; i <= NF; i++) { if (lo == "" || $i < lo) lo = $i; if ($i > hi) hi = $i }
  print NF, lo, hi }')
set -- $range
[ "$1" = 6 ] && ok "six hosts reported" || fail "hosts reported: $1"
[ "${2:-0}" -ge 6 ] && [ "${3:-99}" -le 10 ] && ok "processes done per host in [$2, $3], within [6, 10]" \
  || fail "processes done per host in [$2, $3], not within [6, 10]"
finish
