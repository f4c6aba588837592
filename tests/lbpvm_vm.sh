#!/bin/sh
# The virtual machine's life as lbmaster sees it: a run on a pvmd it
# starts leaves nothing in PVM_TMP; a VM left by a killed lbmaster is
# stopped, workers and files included, by the next run (also where
# PVM_TMP's path holds "/pvmtmp"); a pvmd lbmaster did not start that
# does not answer is reported, with the step to take, within the
# probe's 5 s, and keeps its files; a pvmd that cannot start has its own
# log text in the message; and where the host name does not resolve,
# the private pvmd is named localhost, with a note shown once.
. "${LB_TOP_SRCDIR:-.}/tests/lib.sh"
farm_lock
pvm_private
lbm=$top_builddir/master/lbmaster
small() { "$lbm" --workload primes --size 300000 --hosts 3 --procs 9 --out "$PVM_TMP/out.csv" "$@"; }
others() { ls -A "$PVM_TMP" | grep -vE '^((out|big)\.csv|cache|pvmtmp\.d)$'; }
gone() { s=$(cut -d' ' -f3 "/proc/$1/stat" 2>/dev/null); [ -z "$s" ] || [ "$s" = Z ]; }

small >/dev/null 2>&1 && ok "a run on its own pvmd" || fail "run failed"
[ -z "$(others)" ] && ok "it left nothing in PVM_TMP" || fail "left in PVM_TMP: $(others)"

# A killed lbmaster leaves its pvmd and workers running; the next run
# stops them.  Also where PVM_TMP's own path holds "/pvmtmp" (the
# socket's name is read from the file's own name, not from the path).
killed_lbmaster() {
  "$lbm" --workload primes --size 30000000 --hosts 6 --speeds 0.3 --init one \
    --out "$PVM_TMP/big.csv" >/dev/null 2>&1 &
  victim=$!
  pvmd= workers=
  for i in $(seq 1 100); do
    pvmd=$(pvmd_addr_pid)
    [ -n "$pvmd" ] && workers=$(pgrep -P "$pvmd") && [ "$(echo "$workers" | wc -l)" -ge 6 ] && break
    sleep 0.1
  done
  kill -9 "$victim"
  wait "$victim" 2>/dev/null
  [ -n "$workers" ] && ok "$1: killed lbmaster $victim left pvmd $pvmd and workers" || fail "$1: no workers seen"
  err=$(small 2>&1 >/dev/null) && ok "$1: the next run passes" || fail "$1: next run failed: $err"
  printf '%s\n' "$err" | grep -q "stopping the virtual machine (pvmd pid $pvmd) that lbmaster pid $victim" \
    && ok "$1: it says it stopped the VM left behind" || fail "$1: no notice: $err"
  live=
  for p in $pvmd $workers; do gone "$p" || live="$live $p"; done
  [ -z "$live" ] && ok "$1: old pvmd and workers ended" || fail "$1: still running:$live"
  cg=
  cg=$(worker_cgroups $workers)
  [ -z "$cg" ] && ok "$1: no cgroup of theirs left" || fail "$1: cgroups left of workers:$cg"
  [ -z "$(others)" ] && ok "$1: nothing left in PVM_TMP" || fail "$1: left in PVM_TMP: $(others)"
}
killed_lbmaster "PVM_TMP=$PVM_TMP"
top_tmp=$PVM_TMP
PVM_TMP=$top_tmp/pvmtmp.d
mkdir "$PVM_TMP"
trap 'for p in $(pvmd_pids); do kill -9 "$p"; done; PVM_TMP=$top_tmp; pvm_cleanup' EXIT
killed_lbmaster "PVM_TMP=.../pvmtmp.d"
PVM_TMP=$top_tmp
trap pvm_cleanup EXIT

# A pvmd somebody else started (as the console does), stopped.
(pvmd $(pvm_name_opt) >/dev/null 2>&1 &)
for i in $(seq 1 50); do [ -n "$(pvmd_addr_pid)" ] && break; sleep 0.1; done
foreign=$(pvmd_addr_pid)
kill -STOP "$foreign"
# The signal takes effect when the pvmd is next scheduled: on a loaded
# machine, later than lbmaster's first look at it.
for i in $(seq 1 50); do [ "$(cut -d' ' -f3 "/proc/$foreign/stat" 2>/dev/null)" = T ] && break; sleep 0.1; done
t0=$(date +%s)
err=$(small 2>&1 >/dev/null)
rc=$? secs=$(( $(date +%s) - t0 ))
kill -CONT "$foreign"
[ $rc -eq 1 ] && [ "$secs" -le 8 ] && ok "stopped foreign pvmd: exit 1 after $secs s" \
  || fail "stopped foreign pvmd: exit $rc after $secs s"
printf '%s\n' "$err" | grep -q "did not answer within 5 s; lbmaster did not start it.*kill -CONT $foreign" \
  && ok "the message names the pvmd and how to resume it" || fail "message: $err"
out=$(small 2>/dev/null) && printf '%s\n' "$out" | grep -q 'already running' \
  && ok "resumed, it is joined and left running" || fail "could not join the foreign pvmd"
gone "$foreign" && fail "lbmaster halted a pvmd it did not start"
kill "$foreign"

# pvmd's own reason when it cannot start: here a PVM_TMP too long for
# its socket names.
long=$PVM_TMP/$(printf '%0100d' 0)
mkdir "$long"
err=$(PVM_TMP=$long "$lbm" --workload primes --size 300000 --hosts 3 --out "$PVM_TMP/out.csv" 2>&1 >/dev/null)
rc=$?
[ $rc -eq 1 ] && printf '%s\n' "$err" | grep -q 'cannot start a pvmd.*its log .* says:' &&
  printf '%s\n' "$err" | grep -q 'PVMTMPNAMLEN' && ok "pvmd's log text in the message" \
  || fail "exit $rc: $err"
[ -z "$(ls -A "$long")" ] && ok "and no files left" || fail "left: $(ls -A "$long")"

# A host name that does not resolve (a UTS namespace of our own): the
# private pvmd is named localhost, and the note says so once per user
# and host name (a stamp in the cache directory), not on every run.
if [ "$(id -u)" -eq 0 ] && unshare --uts true 2>/dev/null; then
  export XDG_CACHE_HOME="$PVM_TMP/cache"
  noname() {
    unshare --uts sh -c 'hostname lbfarm-noname && "$@"' sh \
      "$lbm" --workload primes --size 300000 --hosts 3 --out "$PVM_TMP/out.csv" 2>&1 >/dev/null
  }
  err=$(noname) && printf '%s\n' "$err" | grep -q "does not resolve, so the pvmd started here is named localhost" \
    && ok "unresolvable host name: pvmd named localhost, and a note" || fail "unresolvable host name: $err"
  err=$(noname) && ! printf '%s\n' "$err" | grep -q "does not resolve" \
    && ok "a second run: no note again" || fail "a second run: $err"
  unset XDG_CACHE_HOME
else
  echo "not root: host name case not run"
fi
finish
