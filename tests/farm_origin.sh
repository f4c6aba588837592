#!/bin/sh
# Results at their origins (--results origin) when the origin of every
# process fails: host 0 starts with all 360 processes, and its worker is
# killed with SIGKILL mid-run, under every policy that moves processes.
# The hosts that relay results home to it then deliver them themselves;
# the master takes a verified result from any host, once, and runs again
# what nobody holds.  Every run must verify, with host 0 down.
. "${LB_TOP_SRCDIR:-.}/tests/lib.sh"
farm_lock
pvm_private
m="$top_builddir/master/lbmaster"
csv="$PVM_TMP/out.csv"

# CPU ticks (1/100 s) the processes given have used.
cpu_ticks() {
  t=0
  for p in "$@"; do t=$((t + $(awk '{ print $14 + $15 }' "/proc/$p/stat" 2>/dev/null || echo 0))); done
  echo $t
}

for policy in rmtlb lowest dasud cchspmd diffusion diffusion2; do
  rm -f "$csv"
  "$m" --workload primes --size 12000000 --procs 360 --capacities 8 --speeds 0.30 --policy "$policy" \
    --results origin --seed 2 --timeout 60 --out "$csv" >"$PVM_TMP/run.out" 2>&1 &
  master=$!
  pids=$(wait_workers 6) || fail "$policy: the workers did not start"
  # Mid-run: once the workers have used 1 s of CPU together (of some 2.5
  # the run takes), whatever else the machine is doing.
  i=0
  while [ $i -lt 400 ] && [ "$(cpu_ticks $pids)" -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
  # host 0's worker: spawned first, the lowest pid
  victim=$(printf '%s\n' $pids | sort -n | head -1)
  kill -9 "$victim" 2>/dev/null || fail "$policy: no worker to kill"
  wait $master
  rc=$?
  if [ $rc -eq 0 ] && [ "$(col verified)" = yes ] && [ "$(col crashed)" = 1 ] &&
     grep -q 'host 0 (t[0-9a-f]*) exited' "$PVM_TMP/run.out"; then
    ok "$policy: host 0 killed, $(col reruns) process(es) ran again, all 360 results verified"
  else
    tail -20 "$PVM_TMP/run.out"
    fail "$policy: exit $rc, verified $(col verified), crashed $(col crashed)"
  fi
  no_sanitizer_report "$policy" "$(cat "$PVM_TMP/run.out")"
done
finish
