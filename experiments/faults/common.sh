# experiments/faults/common.sh: helpers of run.sh (sourced): lbmaster
# with time-stamped stderr, a bounded wait, the seeded draws, the
# detection line, and what a run left behind.

# draw SEED: "U V": U uniform in [0, 1), V in 0..5, from the MD5 of the
# seed (the same on every machine; consecutive seeds do not give
# neighbouring draws, as an LCG seeded with them would).
draw() {
  perl -MDigest::MD5=md5 -e 'my ($a, $b) = unpack("NN", md5("lbfarm-faults-" . shift));
    printf "%.6f %d\n", $a / 4294967296, $b % 6' "$1"
}

now() { date +%s.%N; }

# start_master DIR NAME CMD...: CMD in the background; stdout to
# DIR/NAME.out, stderr to DIR/NAME.err with each line stamped on
# arrival (seconds since the epoch, the clock `now` reads).  Sets mpid
# and spid (the stamper), mstart (when) and mfifo.
start_master() {
  mfifo=$1/$2.fifo
  local out=$1/$2.out err=$1/$2.err
  shift 2
  rm -f "$mfifo"
  mkfifo "$mfifo"
  perl -MTime::HiRes=time -ne 'BEGIN { $| = 1 } printf "%.6f %s", time, $_' <"$mfifo" >"$err" &
  spid=$!
  mstart=$(now)
  "$@" >"$out" 2>"$mfifo" 7>&- &
  mpid=$!
}

# wait_bounded PID SECS: wait for PID, at most SECS; then SIGINT (lbmaster
# halts its VM and exits 130), 10 s later SIGKILL.  Sets mrc to its
# exit status and mwall to the seconds since mstart (it must run in the
# shell that started PID).
wait_bounded() {
  local t=0
  while kill -0 "$1" 2>/dev/null && [ "$t" -lt $(($2 * 10)) ]; do sleep 0.1; t=$((t + 1)); done
  if kill -0 "$1" 2>/dev/null; then
    echo "$0: pid $1 still runs after $2 s: interrupted" >&2
    kill -INT "$1" 2>/dev/null
    t=0
    while kill -0 "$1" 2>/dev/null && [ $t -lt 100 ]; do sleep 0.1; t=$((t + 1)); done
    kill -KILL "$1" 2>/dev/null
  fi
  wait "$1"
  mrc=$?
  mwall=$(awk -v a="$(now)" -v b="$mstart" 'BEGIN { printf "%.1f", a - b }')
}

# watch_cpu SECS MPID TARGET SIG VICTIM PIDS...: follow the CPU time
# (user + system, from /proc) of the workers PIDS every 20 ms while
# lbmaster MPID runs, at most SECS.  With TARGET 0, print the most seen
# (the CPU seconds of a run without a fault).  Else, as soon as they
# have used TARGET seconds, send SIG to VICTIM and print "STAMP CPU"
# (STAMP just before the kill, on `now`'s clock); nothing if lbmaster
# ended first.  CPU time, not wall time, marks how far a run is: the
# machine is shared and wall times vary.
watch_cpu() {
  perl -MTime::HiRes=time,sleep -MPOSIX -e '
    my ($secs, $m, $target, $sig, $victim, @p) = @ARGV;
    my ($hz, $end, $most) = (POSIX::sysconf(POSIX::_SC_CLK_TCK), time + $secs, 0);
    sub alive { open(my $f, "<", "/proc/$_[0]/stat") or return 0; (split / /, <$f>)[2] ne "Z" }
    while (time < $end && alive($m)) {
      my $s = 0;
      for (@p) { open(my $f, "<", "/proc/$_/stat") or next; my @x = split / /, <$f>; $s += $x[13] + $x[14] }
      $s /= $hz;
      $most = $s if $s > $most;
      if ($target > 0 && $s >= $target) {
        exit 0 unless $victim > 1;   # never a process group
        my $t = time;
        kill($sig, $victim) and printf "%.6f %.2f\n", $t, $s;
        exit 0;
      }
      sleep 0.02;
    }
    printf "%.2f\n", $most if $target == 0;' "$@"
}

# stamper_done: the stamper ends when every writer of the fifo has gone
# (lbmaster and the pvmd it started); at most 5 s.
stamper_done() {
  local t=0
  while kill -0 "$spid" 2>/dev/null && [ $t -lt 50 ]; do sleep 0.1; t=$((t + 1)); done
  kill "$spid" 2>/dev/null
  wait "$spid" 2>/dev/null
  rm -f "$mfifo"
}

# detection ERRFILE: "STAMP HOST INTO" of lbmaster's first line saying a
# host failed (STAMP on the stamper's clock, INTO s into the run).
detection() {
  sed -nE 's/^([0-9.]+) lbmaster: host ([0-9]+) \(t[0-9a-f]+\) (exited|was deleted from the virtual machine|did not answer for 10 s) ([0-9.]+) s into the run.*/\1 \2 \4/p' "$1" | head -1
}

# csvcol FILE NAME: column NAME of the last row of lbmaster's CSV.
csvcol() {
  awk -F, -v k="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == k) c = i } END { if (c) print $c }' "$1" 2>/dev/null
}

# env_pids NAME PREFIX: running processes NAME whose PVM_TMP starts with
# PREFIX (tasks inherit it from their pvmd): only ours.
env_pids() {
  local p
  for p in $(pgrep -x "$1" 2>/dev/null); do
    [ "$(cut -d' ' -f3 "/proc/$p/stat" 2>/dev/null)" = Z ] && continue
    (tr '\0' '\n' <"/proc/$p/environ") 2>/dev/null |
      awk -v e="PVM_TMP=$2" 'index($0, e) == 1 && (length($0) == length(e) || substr($0, length(e) + 1, 1) == "/") { f = 1 }
        END { exit !f }' && echo "$p"
  done
}

# wait_workers PREFIX N: until N of our workers run (at most 20 s);
# prints their pids in spawn order (host order).
wait_workers() {
  local t=0 w
  while [ $t -lt 400 ]; do
    w=$(env_pids lbworker "$1" | sort -n)
    [ "$(printf '%s\n' $w | grep -c .)" -ge "$2" ] && { printf '%s\n' $w; return 0; }
    kill -0 "$mpid" 2>/dev/null || return 1
    sleep 0.05; t=$((t + 1))
  done
  return 1
}

# leftovers PREFIX WPIDS...: what our run left (pvmds, workers, their
# cgroups, PVM files), after at most 3 s of grace; removes it and
# prints it, or prints nothing.
leftovers() {
  local pre=$1 t=0 left x f p
  shift
  while :; do
    left=""
    for p in $(env_pids pvmd "$pre"); do left="$left pvmd:$p"; done
    for p in $(env_pids lbworker "$pre"); do left="$left lbworker:$p"; done
    for c in $(lb_worker_cgroups "$@"); do left="$left cgroup:$c"; done
    for f in $(ls -A "$pre" 2>/dev/null | grep -E '^(pvmd|pvml|pvmtmp)'); do left="$left file:$f"; done
    [ -z "$left" ] || [ $t -ge 30 ] && break
    sleep 0.1; t=$((t + 1))
  done
  [ -z "$left" ] && return 0
  for x in $left; do
    case $x in
    pvmd:*|lbworker:*) kill -9 "${x#*:}" 2>/dev/null ;;
    cgroup:*) sleep 0.2; rmdir "${x#cgroup:}" 2>/dev/null ;;
    esac
  done
  echo "${left# }"
}
