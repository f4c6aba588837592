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
out=$("$top_builddir/master/lbmaster" --workload primes --size 20000000 --hosts 6 --procs 48 \
  --init one --policy rmtlb --speeds 0.30 --seed 2 --timeout 120 2>/dev/null)
rc=$?
printf '%s\n' "$out" | sed -n '2,8p'
[ $rc -eq 0 ] && ok "run verified" || fail "lbmaster exit $rc"
# Columns: host tid speed thrott init done ...
range=$(printf '%s\n' "$out" | awk '$1 ~ /^[0-5]$/ && NF > 10 { n++; if (lo == "" || $6 < lo) lo = $6; if ($6 > hi) hi = $6 }
  END { print n, lo, hi }')
set -- $range
[ "$1" = 6 ] && ok "six hosts reported" || fail "hosts reported: $1"
[ "${2:-0}" -ge 6 ] && [ "${3:-99}" -le 10 ] && ok "processes done per host in [$2, $3], within [6, 10]" \
  || fail "processes done per host in [$2, $3], not within [6, 10]"
finish
