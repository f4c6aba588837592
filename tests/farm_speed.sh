#!/bin/sh
# Host speed emulation: in one run, a speed-0.5 host takes about twice as
# long per unit of work (a row of C, all rows cost the same) as a
# speed-1.0 host, with the cgroup CPU quota (when /sys/fs/cgroup/cpu is
# writable) and with the duty-cycle fallback.  A ratio with a tolerance:
# the machine is shared, so contention blurs both hosts.
. "${LB_TOP_SRCDIR:-.}/tests/lib.sh"
farm_lock
pvm_private
modes=duty
probe=/sys/fs/cgroup/cpu/lbfarm-probe-$$
if mkdir "$probe" 2>/dev/null; then
  rmdir "$probe"
  modes="cgroup duty"
else
  echo "cgroup v1 cpu controller not writable here: testing the duty cycle only"
fi
# measure MODE: one run; print the table.  Exit 0 if the ratio fits,
# 1 if not, 3 if the run cannot be judged: the speed-1.0 host itself
# got well under a whole core (wall/cpu > 1.2), i.e. other work on the
# shared machine was competing, and then no CPU share can show.
measure() {
  out=$("$top_builddir/master/lbmaster" --workload matmul --size 2000 --hosts 2 --procs 40 --init even \
    --speeds 1,0.5 --throttle "$1" --seed 3 2>/dev/null) || { echo "lbmaster failed"; return 1; }
  printf '%s\n' "$out" | sed -n '2,4p'
  # Columns: host tid speed thrott init done units busy span cpu s/unit ...
  printf '%s\n' "$out" | awk -v m="$1" '
    $1 == "0" && $3 == "1.000" { u0 = $11; t0 = $4; f0 = $9 / $10 }
    $1 == "1" && $3 == "0.500" { u1 = $11; t1 = $4; f1 = $9 / $10 }
    END {
      r = u0 > 0 ? u1 / u0 : 0
      printf "%s: s/unit ratio %.3f (wall/cpu: fast host %.2f, slow host %.2f), throttles %s/%s\n",
             m, r, f0, f1, t0, t1
      if (t0 != "off" || t1 != m) exit 1
      if (f0 > 1.2) exit 3
      exit !(r >= 1.5 && r <= 2.6 && f1 >= 1.8)
    }'
}
for mode in $modes; do
  verdict=3
  for try in 1 2 3 4 5; do
    measure "$mode"
    verdict=$?
    [ $verdict -eq 3 ] || break
    sleep 1
  done
  case $verdict in
  0) ok "$mode: speed 0.5 takes 1.5-2.6x as long per unit as speed 1.0" ;;
  3) echo "SKIP: $mode: the machine is too busy to judge CPU shares (5 runs)"; skipped=1 ;;
  *) fail "$mode: ratio out of [1.5, 2.6]" ;;
  esac
done
# Each worker removes its cgroup before it reports.
left=$(ls -d /sys/fs/cgroup/cpu/lbfarm-[0-9]* 2>/dev/null)
[ -z "$left" ] && ok "no cgroup left behind" || fail "cgroups left: $left"
[ "$fails" -eq 0 ] && [ "${skipped:-0}" -eq 1 ] && exit 77
finish
