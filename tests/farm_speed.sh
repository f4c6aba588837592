#!/bin/sh
# Host speed emulation: in one run, a speed-0.5 host takes about twice as
# long per unit of work (a row of C, all rows cost the same) as a
# speed-1.0 host, with the cgroup CPU quota (when /sys/fs/cgroup/cpu is
# writable) and with the duty-cycle fallback.  A ratio with a tolerance:
# the machine is shared, so contention blurs both hosts.
. "${LB_TOP_SRCDIR:-.}/tests/lib.sh"
pvm_private
modes=duty
probe=/sys/fs/cgroup/cpu/lbfarm-probe-$$
if mkdir "$probe" 2>/dev/null; then
  rmdir "$probe"
  modes="cgroup duty"
else
  echo "cgroup v1 cpu controller not writable here: testing the duty cycle only"
fi
for mode in $modes; do
  out=$("$top_builddir/master/lbmaster" --workload matmul --size 2000 --hosts 2 --procs 40 --init even \
    --speeds 1,0.5 --throttle "$mode" --seed 3 2>/dev/null)
  rc=$?
  printf '%s\n' "$out" | sed -n '2,4p'
  [ $rc -eq 0 ] && ok "$mode: verified" || fail "$mode: exit $rc"
  # Columns: host tid speed thrott init done units busy span cpu s/unit ...
  printf '%s\n' "$out" | awk -v m="$mode" '
    $1 == "0" && $3 == "1.000" { u0 = $11; t0 = $4 }
    $1 == "1" && $3 == "0.500" { u1 = $11; t1 = $4; f1 = $9 / $10 }
    END {
      r = u0 > 0 ? u1 / u0 : 0
      printf "%s: s/unit ratio %.3f (slow host wall/cpu %.2f), throttles %s/%s\n", m, r, f1, t0, t1
      exit !(r >= 1.4 && r <= 3.0 && f1 >= 1.6 && t0 == "off" && t1 == m)
    }' && ok "$mode: speed 0.5 is about half as fast" || fail "$mode: ratio out of [1.4, 3.0]"
done
# Each worker removes its cgroup before it reports.
left=$(ls -d /sys/fs/cgroup/cpu/lbfarm-[0-9]* 2>/dev/null)
[ -z "$left" ] && ok "no cgroup left behind" || fail "cgroups left: $left"
finish
