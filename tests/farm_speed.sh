#!/bin/sh
# Host speed emulation: in one run, a speed-0.5 host takes about twice as
# long per unit of work (an entry of C, all cost the same) as a
# speed-1.0 host, with the cgroup CPU quota (when /sys/fs/cgroup/cpu is
# writable) and with the duty-cycle fallback.  A ratio with a tolerance:
# the machine is shared, so contention blurs both hosts.
. "${LB_TOP_SRCDIR:-.}/tests/lib.sh"
farm_lock
pvm_private
# Only this test's workers' cgroups are judged (another run's, killed
# or still being cleaned up, are not; a pid is reused, so each is named
# whole while its worker runs).
mine=$(mktemp "${TMPDIR:-/tmp}/lbfarm-speed.XXXXXX")
at_exit 'rm -f "$mine"'
modes=duty
probe=/sys/fs/cgroup/cpu/lbfarm-probe-$$
if mkdir "$probe" 2>/dev/null; then
  rmdir "$probe"
  modes="cgroup duty"
else
  echo "cgroup v1 cpu controller not writable here: testing the duty cycle only"
fi
# measure MODE: one run; print the table.  Exit 0 if the ratio fits,
# 1 if not, 3 if the run cannot be judged.
# Time per unit is busy_s / units: the wall time of the host's quanta
# (with the throttle's waits) only, so start-up, the master's set-up and
# the idle tail after the host's last quantum do not blur it.  The slow
# host's is set against the fast host's CPU seconds per unit, what a
# whole core takes.  The run
# cannot be judged when the speed-1.0 host itself got well under a whole
# core while computing (busy/cpu > 1.3), or when the CPU seconds per
# unit of the two hosts differ by more than 20% (every row costs the
# same, so on an idle machine they agree within a few per cent; a gap
# means other work was taking the caches, memory bandwidth or the
# virtual CPU from one host): then no CPU share can show.  On an idle
# machine busy/cpu is ~1.1 for the fast host and ~2 for the slow one.
measure() {
  hosts="$PVM_TMP/hosts.csv"
  "$top_builddir/master/lbmaster" --workload matmul --size 2400 --hosts 2 --procs 40 --init even \
    --speeds 1,0.5 --throttle "$1" --seed 3 --hosts-csv "$hosts" >"$PVM_TMP/speed.out" 2>/dev/null &
  job=$!
  while kill -0 $job 2>/dev/null; do
    worker_cgroups $(pvm_task_pids lbworker) >>"$mine"
    sleep 0.05
  done
  wait $job || { echo "lbmaster failed"; return 1; }
  out=$(cat "$PVM_TMP/speed.out")
  printf '%s\n' "$out" | sed -n '2,4p'
  # Columns of the per-host CSV: host,tid,speed,share,throttle,init,done,units,busy_s,span_s,cpu_s,...
  awk -F, -v m="$1" '
    $1 == "0" && $3 == 1 { u0 = $9 / $8; t0 = $5; f0 = $9 / $11; c0 = $11 / $8 }
    $1 == "1" && $3 == 0.5 { u1 = $9 / $8; t1 = $5; f1 = $9 / $11; c1 = $11 / $8 }
    END {
      # Against what a whole core takes per unit (the CPU seconds per
      # unit of the fast host), so that other work slowing that host
      # too does not shrink the ratio; the plain ratio is printed beside.
      r = c0 > 0 ? u1 / c0 : 0
      c = c0 > 0 ? c1 / c0 : 0
      printf "%s: busy s/unit against a whole core %.3f (slow/fast busy %.3f; busy/cpu: fast host %.2f, slow host %.2f; cpu/unit slow/fast %.2f), throttles %s/%s\n",
             m, r, (u0 > 0 ? u1 / u0 : 0), f0, f1, c, t0, t1
      if (t0 != "off" || !(t1 == m || m == "cgroup" && t1 ~ /^cgroup-v[12]$/)) exit 1
      if (f0 > 1.3 || c < 0.83 || c > 1.2) exit 3
      exit !(r >= 1.5 && r <= 2.6 && f1 >= 1.7)
    }' "$hosts"
}
for mode in $modes; do
  verdict=3
  for try in 1 2 3 4 5 6; do
    measure "$mode"
    verdict=$?
    [ $verdict -eq 3 ] || break
    sleep 2
  done
  case $verdict in
  0) ok "$mode: speed 0.5 takes 1.5-2.6x as long per unit as a whole core" ;;
  3) echo "SKIP: $mode: the machine is too busy to judge CPU shares (6 runs)"; skipped=1 ;;
  *) fail "$mode: ratio out of [1.5, 2.6]" ;;
  esac
done
# Each worker removes its cgroup before it reports and exits, so one of
# its cgroups still there after its run was left behind.
left=
for d in $(sort -u "$mine"); do [ -d "$d" ] && left="$left $d"; done
[ -z "$left" ] && ok "no cgroup left behind ($(sort -u "$mine" | wc -l) made)" || fail "cgroups left: $left"
[ "$fails" -eq 0 ] && [ "${skipped:-0}" -eq 1 ] && exit 77
finish
