# scripts/lib.sh: what every lbfarm script shares (sourced; POSIX sh
# with `local`, so dash and bash): it
# stops on Ctrl-C and SIGTERM, stops its runs and halts the virtual
# machines they started, removes its temporary files, and writes its
# outputs whole.  docs/BUILD.md ("Scripts") describes the rules.
#
#   lb_init                 traps: INT exits 130, TERM 143, HUP 129, after
#                           the clean-ups; call once, after parsing --help
#   lb_on_exit CMD          run CMD (eval'd) at exit, the last one first
#   lb_die MSG              "prog: MSG" on stderr, exit 1
#   lb_run SECS CMD...      CMD with a time limit (0: none), stopped (SIGTERM,
#                           then SIGKILL 3 s later) when the script is
#                           interrupted; returns CMD's status (124: time out)
#   lb_private_vm TAG       a private PVM_TMP and PVM_VMID; at exit whatever
#                           of that VM is left (pvmd, workers, their cgroups,
#                           files) is stopped and removed
#   lb_worker_cgroups PID...  the host speed cgroups of these workers that
#                           are there (lbfarm-PID-RUN-HOST: farm/farm_cgroup.h)
#   lb_tmp FILE             lb_t= a new temporary file beside FILE, removed
#                           at exit (not in $(...): the clean-up would be
#                           registered in the subshell)
#   lb_write FILE CMD...    CMD's stdout written whole to FILE (a temporary
#                           name, renamed when CMD succeeded), else exit 1
#   lb_commit TMP FILE      rename TMP (from lb_tmp) over FILE, or exit 1
#   lb_plot DIR GP VAR...   gnuplot GP with the -e assignments VAR and
#                           figdir= a fresh directory in DIR; every file it
#                           draws must be whole, then it moves into DIR
#   lb_plot1 OUT GP VAR...  gnuplot GP drawing one file, output=OUT
#   lb_whole FILE           0 if FILE is a whole PNG, SVG, PDF or non-empty
#   lb_built REL            the path of a program of this build: under
#                           $LB_TOP_BUILDDIR, the current directory (a build
#                           directory) or this tree (built in place); 1 if
#                           none is there
#   lb_builddir             the build directory (the same search)
#   lb_lock DIR             one run at a time writes to DIR: a second is
#                           refused (exit 1) before it changes anything
#   lb_provenance DIR STATUS [DETAIL]
#                           DIR/provenance-SCRIPT.txt (SCRIPT: this script's
#                           name without .sh): the command, commit, start
#                           and end, load averages and STATUS (complete or
#                           incomplete) of the runs that made DIR's data
#
# Source it with the tree's top in lb_top (bash finds it by itself):
#   lb_top=$(cd "$(dirname "$0")/../.." && pwd); . "$lb_top/scripts/lib.sh"
lb_prog=${0##*/}
if [ -z "${lb_top:-}" ] && [ -n "${BASH_SOURCE:-}" ]; then lb_top=$(cd "$(dirname "$BASH_SOURCE")/.." && pwd); fi
[ -n "${lb_top:-}" ] || { echo "$lb_prog: scripts/lib.sh: set lb_top first" >&2; exit 2; }
lb_exits=""
lb_child=""
lb_vms="" lb_workers=""
lb_started=$(date '+%Y-%m-%d %H:%M:%S %z')
lb_load0=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)
# The command line, quoted where needed, for provenance.txt.
lb__quote() {
  for a; do
    case $a in
    ''|*[!A-Za-z0-9_./,:=+@%-]*) printf "'%s' " "$(printf '%s' "$a" | sed "s/'/'\\\\''/g")" ;;
    *) printf '%s ' "$a" ;;
    esac
  done
}
lb_argv=$(lb__quote "$0" "$@"); lb_argv=${lb_argv% }

lb_die() { echo "$lb_prog: $*" >&2; lb__said=1; exit 1; }
# Newest first: clean-ups run in the reverse order of their set-ups.
lb_on_exit() {
  lb_exits="$1
$lb_exits"
}

lb__cleanup() {
  local c=$lb_exits
  lb_exits=""
  set +e
  eval "$c"
}

# The running child (lb_run): SIGTERM, up to 3 s to end (lbmaster halts
# its VM in well under that), then SIGKILL to it and its children.
lb__stop_child() {
  local c=$lb_child t=0
  [ -n "$c" ] || return 0
  lb_child=""
  kill -TERM "$c" 2>/dev/null || return 0
  while kill -0 "$c" 2>/dev/null && [ $t -lt 30 ]; do sleep 0.1; t=$((t + 1)); done
  if kill -0 "$c" 2>/dev/null; then
    pkill -KILL -P "$c" 2>/dev/null
    kill -KILL "$c" 2>/dev/null
  fi
  # No `wait` here: inside a trap that interrupted lb_run's wait, bash
  # would return to that one.  The shell reaps the child by itself.
}

lb__signal() {
  trap '' INT TERM HUP
  set +e
  # The workers of our VMs, while they are there: their cgroups go too.
  local d
  for d in $lb_vms; do lb_workers="$lb_workers $(lb__vm_pids lbworker "$d")"; done
  # To the script's own stderr, not that of the command it interrupted.
  echo "$lb_prog: interrupted (SIG$1): stopping" >&7
  lb__stop_child
  lb__cleanup
  trap - EXIT
  exit "$2"
}

# A script that stops on a failure says so last (set -e may have stopped
# it at a command that failed, e.g. a write to a full disk, whose own
# message is all there is above).
lb__exit() {
  set +e
  lb__stop_child
  lb__cleanup
  [ "$1" = 0 ] || [ "$1" = 2 ] || [ -n "${lb__said:-}" ] || echo "$lb_prog: stopped (exit $1)" >&7
  exit "$1"
}

# Descriptor 7 is the script's stderr, for messages from traps (lb_run
# closes it for its command: a pvmd that inherited it would hold a pipe
# open after the script).
lb_init() {
  exec 7>&2
  trap 'lb__exit $?' EXIT
  trap 'lb__signal INT 130' INT
  trap 'lb__signal TERM 143' TERM
  trap 'lb__signal HUP 129' HUP
}

# lb_run SECS CMD...: in the background and waited for, so that a signal
# to this script is handled at once, not after CMD; `timeout
# --foreground` keeps CMD in this process group, where the terminal's
# Ctrl-C reaches it.  Standard input is /dev/null.  Only in the script's
# own shell: in a subshell (a pipeline's `while read`) the traps are not
# there to stop CMD; run `timeout --foreground SECS CMD` there instead.
lb_run() {
  local secs=$1 rc=0
  shift
  if [ "$secs" -gt 0 ] 2>/dev/null; then
    timeout --foreground -k 10 "$secs" "$@" </dev/null 7>&- &
  else
    "$@" </dev/null 7>&- &
  fi
  lb_child=$!
  wait "$lb_child" || rc=$?
  lb_child=""
  return $rc
}

# Processes named $1 whose environment holds PVM_TMP=$2: tasks inherit
# it from their pvmd, so these are ours only.
lb__vm_pids() {
  local p
  for p in $(pgrep -x "$1" 2>/dev/null); do
    [ "$(cut -d' ' -f3 "/proc/$p/stat" 2>/dev/null)" = Z ] && continue
    (tr '\0' '\n' <"/proc/$p/environ") 2>/dev/null | grep -qxF "PVM_TMP=$2" && echo "$p"
  done
  return 0
}

# lb_vm_cleanup DIR: stop what is left of the VM whose PVM_TMP is DIR
# (a pvmd gets SIGTERM, which ends its tasks; then SIGKILL), remove the
# cgroups of its workers (once empty) and DIR.
lb_vm_cleanup() {
  local dir=$1 p t w v left c
  [ -n "$dir" ] && [ -d "$dir" ] || return 0
  v="$(lb__vm_pids pvmd3 "$dir") $(lb__vm_pids pvmd "$dir")"
  # Workers: by their environment, and the pvmds' children, which
  # counts the zombies (killed, not yet reaped: no environment to read,
  # and a cgroup they could not remove).
  w="$(lb__vm_pids lbworker "$dir") $lb_workers"
  for p in $v; do w="$w $(pgrep -x -P "$p" lbworker 2>/dev/null)"; done
  for p in $v; do kill -TERM "$p" 2>/dev/null; kill -CONT "$p" 2>/dev/null; done
  t=0
  while [ -n "$(lb__vm_pids pvmd3 "$dir")$(lb__vm_pids pvmd "$dir")" ] && [ $t -lt 20 ]; do sleep 0.1; t=$((t + 1)); done
  for p in $(lb__vm_pids pvmd3 "$dir") $(lb__vm_pids pvmd "$dir"); do kill -KILL "$p" 2>/dev/null; done
  # Spawned while the pvmds ended: none can start after this.
  w="$w $(lb__vm_pids lbworker "$dir")"
  for p in $(lb__vm_pids lbworker "$dir"); do kill -KILL "$p" 2>/dev/null; done
  # A worker's cgroup (farm/farm_cgroup.h) can be removed once the
  # worker is gone: ours only (the same pid in another pid namespace
  # is another's), retried for up to 5 s (a killed worker that mapped
  # much memory takes a while to exit on a loaded machine).
  # Their runs' other cgroups too (lbfarm-PID-RUN-HOST), and those of
  # the run of the lbmaster that started the VM (lbfarmrun.*, which it
  # removes when it has cleaned up itself): a worker that died earlier,
  # its notice never taken, left one that no pid names.
  local runs="$(cat "$dir"/lbfarmrun.* 2>/dev/null)"
  for c in $(lb_worker_cgroups $w); do c=${c##*/lbfarm-}; c=${c#*-}; runs="$runs ${c%-*}"; done
  runs=$(printf '%s\n' $runs | sort -u)
  t=0
  while :; do
    left=""
    for c in $(lb_worker_cgroups $w) $(lb__run_cgroups $runs); do rmdir "$c" 2>/dev/null || left=1; done
    [ -z "$left" ] || [ $t -ge 50 ] && break
    sleep 0.1; t=$((t + 1))
  done
  rm -rf "$dir"
}

# lb__run_cgroups RUN...: the host speed cgroups of these runs.
lb__run_cgroups() {
  local r
  for r in "$@"; do
    case $r in ''|*[!0-9]*) continue ;; esac
    lb__cgroups "lbfarm-[0-9]*-$r-[0-9]*"
  done
}

lb_worker_cgroups() {
  local p
  for p in "$@"; do lb__cgroups "lbfarm-$p-[0-9]*-[0-9]*"; done
}

# lb__cgroups GLOB: the cgroups named GLOB where a worker's can be.
lb__cgroups() {
  local d c
  for d in /sys/fs/cgroup/cpu /sys/fs/cgroup /sys/fs/cgroup/unified; do
    for c in "$d"/$1; do [ -d "$c" ] && echo "$c"; done
  done
  return 0
}

lb_private_vm() {
  PVM_TMP=$(mktemp -d "${TMPDIR:-/tmp}/lbfarm-$1.XXXXXX") || lb_die "cannot create a temporary directory"
  PVM_VMID=$1$$
  PVM_ALLOW_ROOT=yes
  export PVM_TMP PVM_VMID PVM_ALLOW_ROOT
  lb_vms="$lb_vms $PVM_TMP"
  lb_on_exit "lb_vm_cleanup '$PVM_TMP'"
}

lb_tmp() {
  local d b
  d=$(dirname "$1") b=$(basename "$1")
  lb_t=$(mktemp "$d/.$b.XXXXXX") || lb_die "cannot write in $d"
  lb_on_exit "rm -f '$lb_t'"
}

lb_commit() {
  mv -f "$1" "$2" || lb_die "cannot replace $2"
}

lb_write() {
  # Its own names: CMD may be a function of the caller's, and shell
  # variables are dynamically scoped (a loop over `t` would move ours).
  local lb__wf=$1 lb__wt
  shift
  lb_tmp "$lb__wf"
  lb__wt=$lb_t
  "$@" >"$lb__wt" || { rm -f "$lb__wt"; lb_die "writing $lb__wf failed"; }
  lb_commit "$lb__wt" "$lb__wf"
}

lb_whole() {
  [ -s "$1" ] || return 1
  case $1 in
  *.png) tail -c 12 "$1" | LC_ALL=C grep -qa IEND ;;
  *.pdf) tail -c 64 "$1" | LC_ALL=C grep -qa '%%EOF' ;;
  *.svg) tail -c 64 "$1" | grep -q '</svg>' ;;
  *) return 0 ;;
  esac
}

lb_plot() {
  local dir=$1 gp=$2 stage e f rc=0
  shift 2
  stage=$(mktemp -d "$dir/.plot.XXXXXX") || lb_die "cannot write in $dir"
  lb_on_exit "rm -rf '$stage'"
  e="figdir='$stage'"
  for v in "$@"; do e="$e; $v"; done
  gnuplot -e "$e" "$gp" || rc=$?
  [ $rc = 0 ] || { rm -rf "$stage"; lb_die "gnuplot $gp failed (exit $rc)"; }
  for f in "$stage"/*; do
    [ -e "$f" ] || continue
    lb_whole "$f" || { rm -rf "$stage"; lb_die "$dir/${f##*/}: gnuplot's output is incomplete (a full disk?)"; }
  done
  for f in "$stage"/*; do [ -e "$f" ] && lb_commit "$f" "$dir/${f##*/}"; done
  rmdir "$stage" 2>/dev/null || true
}

lb_plot1() {
  local out=$1 gp=$2 t e rc=0 ext
  shift 2
  ext=${out##*.}
  t=$(mktemp "$(dirname "$out")/.plot.XXXXXX") || lb_die "cannot write in $(dirname "$out")"
  lb_on_exit "rm -f '$t' '$t.$ext'"
  e="output='$t.$ext'"
  for v in "$@"; do e="$v; $e"; done
  gnuplot -e "$e" "$gp" || rc=$?
  rm -f "$t"
  [ $rc = 0 ] || { rm -f "$t.$ext"; lb_die "gnuplot $gp failed for $out (exit $rc)"; }
  lb_whole "$t.$ext" || { rm -f "$t.$ext"; lb_die "$out: gnuplot's output is incomplete (a full disk?)"; }
  lb_commit "$t.$ext" "$out"
}

# The build directory: the first of $LB_TOP_BUILDDIR, the current
# directory and this tree where lbfarm is built (sim/lbsim is there).
lb_builddir() {
  local d
  for d in "${LB_TOP_BUILDDIR:-}" "$PWD" "$lb_top"; do
    [ -n "$d" ] && [ -x "$d/sim/lbsim" ] && { (cd "$d" && pwd); return 0; }
  done
  echo "$lb_top"
}

lb_built() {
  local d
  for d in "${LB_TOP_BUILDDIR:-}" "$PWD" "$lb_top"; do
    [ -n "$d" ] && [ -x "$d/$1" ] && { echo "$d/$1"; return 0; }
  done
  echo "$lb_top/$1"
  return 1
}

# The lock is on an open descriptor (9): it goes with this process.
lb_lock() {
  exec 9>>"$1/.lock" || lb_die "cannot write in $1"
  flock -n 9 || {
    echo "$lb_prog: another run is writing to $1: wait for it, or give this one a directory of its own; nothing was changed" >&2
    exit 1
  }
  lb_on_exit "rm -f '$1/.lock'"
}

lb_provenance() {
  local dir=$1 status=$2 detail=${3:-} commit
  commit=$(git -C "$lb_top" describe --always --dirty --abbrev=12 2>/dev/null || echo unknown)
  lb_write "$dir/provenance-$(basename "$0" .sh).txt" printf '%s\n' \
    "command: $lb_argv" \
    "directory: $PWD" \
    "commit: $commit" \
    "started: $lb_started" \
    "finished: $(date '+%Y-%m-%d %H:%M:%S %z')" \
    "load before: $lb_load0" \
    "load after: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)" \
    "machine: $(uname -n), $(nproc) cores, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -1)" \
    "status: $status${detail:+ ($detail)}"
}
