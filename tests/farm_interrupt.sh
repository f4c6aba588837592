#!/bin/sh
# Ctrl-C (SIGINT) or SIGTERM of lbmaster at several moments, from the
# moment its pvmd is up (the workers are being spawned and set up) to
# the middle of the run, and just after a worker died: lbmaster exits 130 and, by the time it has exited, no
# emulation cgroup (lbfarm-PID-RUN-HOST) of its workers is left, nor any pvmd,
# worker or PVM file.  The workers are started through a wrapper that
# writes down each one's pid, so exactly this test's workers are judged
# (other runs on the machine have cgroups of their own).
. "${LB_TOP_SRCDIR:-.}/tests/lib.sh"
farm_lock
pvm_private
lbm=$top_builddir/master/lbmaster

# Where a worker's cgroup can be: cgroup v1's cpu hierarchy, the v2
# root (or the hybrid's unified one); a delegated v2 cgroup is another
# test's matter.
cg_dirs() { worker_cgroups "$1"; }
probe=/sys/fs/cgroup/cpu/lbfarm-probe-$$
if mkdir "$probe" 2>/dev/null; then
  rmdir "$probe"
elif grep -qw cpu /sys/fs/cgroup/cgroup.controllers 2>/dev/null && mkdir /sys/fs/cgroup/lbfarm-probe-$$ 2>/dev/null; then
  rmdir /sys/fs/cgroup/lbfarm-probe-$$
else
  echo "SKIP: no cgroup can be made here (the workers use the duty timer): nothing to leave behind"
  exit 77
fi

wrap=$PVM_TMP/worker.sh
log=$PVM_TMP/workers.pids
real=$top_builddir/worker/lbworker
real=$(cd "$(dirname "$real")" && pwd)/lbworker
printf '#!/bin/sh\necho $$ >>"%s"\nexec "%s" "$@"\n' "$log" "$real" >"$wrap"
chmod +x "$wrap"

seen_any=0
# run SIGNAL DELAY: start a run, send SIGNAL after DELAY seconds (while
# watching for the workers' cgroups), then judge.
run() {
  sig=$1 delay=$2
  : >"$log"
  LBFARM_WORKER=$wrap "$lbm" --workload primes --size 30000000 --procs 480 --capacities 8 --hosts 6 \
    --speeds 0.30 --init one --seed 1 --timeout 120 >"$PVM_TMP/run.out" 2>&1 &
  master=$!
  seen=0
  # The clock starts once the pvmd is up.
  i=0; while [ -z "$(pvmd_addr_pid)" ] && [ $i -lt 250 ]; do sleep 0.02; i=$((i + 1)); done
  ms=$(awk -v d="$delay" 'BEGIN { printf "%d", d * 1000 }')
  t0=$(date +%s%N)
  while [ $(( ($(date +%s%N) - t0) / 1000000 )) -lt "$ms" ]; do
    for p in $(cat "$log"); do [ -n "$(cg_dirs "$p")" ] && seen=$((seen + 1)); done
    sleep 0.02
  done
  kill -"$sig" "$master" 2>/dev/null
  wait "$master"
  rc=$?
  left=
  for p in $(cat "$log"); do left="$left $(cg_dirs "$p")"; done
  left=$(echo $left)
  n=$(wc -l <"$log")
  [ $rc -eq 130 ] || { tail -3 "$PVM_TMP/run.out"; fail "SIG$sig at $delay s: exit $rc, wanted 130"; }
  [ -z "$left" ] && ok "SIG$sig at $delay s ($n workers started, cgroups seen: $seen): no cgroup left" \
    || fail "SIG$sig at $delay s: cgroups left: $left"
  [ "$seen" -gt 0 ] && seen_any=1
  nothing_left
}

# A worker that dies just before the signal, while lbmaster is held
# (SIGSTOP) so that the signal comes before the notice of the death is
# taken: its cgroup is not among those lbmaster kills, and still goes.
died() {
  : >"$log"
  LBFARM_WORKER=$wrap "$lbm" --workload primes --size 30000000 --procs 480 --capacities 8 --hosts 6 \
    --speeds 0.30 --init one --seed 1 --timeout 120 >"$PVM_TMP/run.out" 2>&1 &
  master=$!
  i=0 victim=
  while [ $i -lt 250 ] && [ -z "$victim" ]; do
    for p in $(cat "$log"); do [ -n "$(cg_dirs "$p")" ] && victim=$p; done
    sleep 0.02; i=$((i + 1))
  done
  [ -n "$victim" ] || { kill -INT "$master"; wait "$master"; fail "died: no worker cgroup came up"; return; }
  kill -STOP "$master"
  kill -KILL "$victim"
  i=0; while kill -0 "$victim" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.02; i=$((i + 1)); done
  kill -INT "$master"
  kill -CONT "$master"
  wait "$master"
  rc=$?
  left=
  for p in $(cat "$log"); do left="$left $(cg_dirs "$p")"; done
  left=$(echo $left)
  [ $rc -eq 130 ] || { tail -3 "$PVM_TMP/run.out"; fail "died: exit $rc, wanted 130"; }
  [ -z "$left" ] && ok "a worker killed just before SIGINT: no cgroup left" || fail "died: cgroups left: $left"
  nothing_left
}
died
for d in 0 0.02 0.05 0.1 0.2 0.4 0.8 1.5 3; do run INT "$d"; done
run TERM 0.1
run TERM 1
[ $seen_any -eq 1 ] && ok "the workers' cgroups were there before the signals" \
  || fail "no worker cgroup was ever seen: the runs judged nothing"
finish
