# tests/lib.sh: helpers for the shell tests (sourced).
# Automake's test driver: exit 0 pass, 77 skip, 99 hard error, else fail.
set -u
top_builddir=${LB_TOP_BUILDDIR:-.}
top_srcdir=${LB_TOP_SRCDIR:-.}
fails=0
# The scripts' helpers (lb_ prefix), for what tests and scripts share.
lb_top=$top_srcdir
. "$top_srcdir/scripts/lib.sh"

fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }

# at_exit CMD: run CMD (eval'd) when the test exits, the last added
# first.  Clean-ups compose: use this, never `trap ... EXIT`, which
# would replace the ones before it (pvm_private's).  Interrupted
# (SIGINT, SIGTERM), the test exits through them too.
_at_exit=""
at_exit() {
  _at_exit="$1
$_at_exit"
  trap 'eval "$_at_exit"' EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
}
ok() { echo "ok: $*"; }

# expect_status WANT NEEDLE CMD...: run CMD, check its exit status and
# that stderr contains NEEDLE.
expect_status() {
  want=$1 needle=$2
  shift 2
  err=$("$@" 2>&1 >/dev/null)
  got=$?
  if [ "$got" -ne "$want" ]; then
    fail "$* exited $got, wanted $want (stderr: $err)"
  elif [ -n "$needle" ] && ! printf '%s' "$err" | grep -qF -- "$needle"; then
    fail "$*: stderr lacks '$needle' (stderr: $err)"
  else
    ok "$* -> $got"
  fi
}

# col NAME: column NAME of the last row of the CSV file $csv.
col() {
  awk -F, -v k="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == k) c = i } END { print $c }' "$csv"
}

# hostcol NAME [FILE]: column NAME of every row of a per-host CSV
# (lbmaster --hosts-csv), space-separated in host order.
hostcol() {
  awk -F, -v k="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == k) c = i; next } { printf "%s ", $c }' "${2:-$hosts}"
}

# no_sanitizer_report WHAT TEXT: in a --enable-sanitizers build, a
# report in TEXT (output that holds a program's stderr, or its workers'
# through pvm_catchout) fails the test like a wrong result.
no_sanitizer_report() {
  if printf '%s\n' "$2" | grep -qE 'ERROR: (Address|Leak)Sanitizer|runtime error:'; then
    fail "$1: a sanitizer report in its output"
  else
    ok "$1: no sanitizer report"
  fi
}

finish() {
  [ "$fails" -eq 0 ] || { echo "$fails check(s) failed" >&2; exit 1; }
  exit 0
}

# Serialise the CPU-heavy farm tests of one build: each measures or
# times itself, and the machine has two cores.
farm_lock() {
  command -v flock >/dev/null || return 0
  exec 9>"$top_builddir/tests/farm-cpu.lock"
  flock 9
}

# The six namespaces h1..h6 are the machine's, not the build's: tests of
# two checkouts take turns on them (experiments/faults/lease.sh takes
# this lock too), for at most 30 minutes.
cluster_lock() {
  command -v flock >/dev/null || return 0
  exec 7>/tmp/lbfarm-cluster6.lock
  flock -w 1800 7 || { echo "the six-host cluster stayed busy (/tmp/lbfarm-cluster6.lock)" >&2; exit 99; }
}

# A private PVM: its own PVM_TMP and PVM_VMID; halted and removed on exit.
pvm_private() {
  PVM_TMP=$(mktemp -d "${TMPDIR:-/tmp}/lbfarm-pvm.XXXXXX")
  PVM_VMID=lbt$$
  PVM_ALLOW_ROOT=yes
  export PVM_TMP PVM_VMID PVM_ALLOW_ROOT
  at_exit pvm_cleanup
}

# pvmd gives up when this host's name does not resolve (a bare root):
# a private one-host VM is then named localhost, as lbmaster does.
pvm_name_opt() {
  getent ahostsv4 "$(uname -n)" >/dev/null 2>&1 || echo -nlocalhost
}

# The pid of the pvmd named by our VM's address file, if any.
pvmd_addr_pid() {
  sed -n 's/.*pvmtmp0*\([0-9][0-9]*\)\.0$/\1/p' "$PVM_TMP/pvmd.$(id -u).$PVM_VMID" 2>/dev/null
}

pvmd_pids() {
  # pvmd processes started with our private PVM_TMP in their environment.
  for p in $(pgrep -x pvmd3 2>/dev/null; pgrep -x pvmd 2>/dev/null); do
    # A halted pvmd may stay a zombie until init reaps it: not running.
    [ "$(cut -d' ' -f3 "/proc/$p/stat" 2>/dev/null)" = Z ] && continue
    if (tr '\0' '\n' <"/proc/$p/environ") 2>/dev/null | grep -qx "PVM_TMP=$PVM_TMP"; then
      echo "$p"
    fi
  done
}

# Running processes named $1 (e.g. lbworker) that belong to our private
# VM: tasks inherit PVM_TMP from their pvmd.
pvm_task_pids() {
  for p in $(pgrep -x "$1" 2>/dev/null); do
    if (tr '\0' '\n' <"/proc/$p/environ") 2>/dev/null | grep -qx "PVM_TMP=$PVM_TMP"; then
      echo "$p"
    fi
  done
}

# wait_workers N: until N of our workers run (at most 10 s); prints their pids.
wait_workers() {
  want=$1 i=0
  while [ $i -lt 100 ]; do
    [ "$(pvm_task_pids lbworker | wc -l)" -ge "$want" ] && { pvm_task_pids lbworker; return 0; }
    sleep 0.1; i=$((i + 1))
  done
  return 1
}

# After a run that ended (interrupted, killed): no pvmd, worker or PVM
# file of our private VM may be left.
nothing_left() {
  sleep 0.5
  [ -z "$(pvmd_pids)" ] && ok "no pvmd left" || fail "pvmd left: $(pvmd_pids)"
  [ -z "$(pvm_task_pids lbworker)" ] && ok "no worker left" || fail "workers left: $(pvm_task_pids lbworker)"
  left=$(ls -A "$PVM_TMP" | grep -E '^(pvmd|pvml|pvmtmp|lbfarm)\.')
  [ -z "$left" ] && ok "no PVM file left" || fail "left in PVM_TMP: $left"
}

# worker_cgroups PID...: the host speed cgroups of these workers that
# are there (scripts/lib.sh's lb_worker_cgroups: lbfarm-PID-RUN-HOST,
# farm/farm_cgroup.h).
worker_cgroups() { lb_worker_cgroups "$@"; }

pvm_cleanup() {
  for p in $(pvmd_pids); do kill "$p" 2>/dev/null; done
  sleep 0.2
  for p in $(pvmd_pids); do kill -9 "$p" 2>/dev/null; done
  rm -rf "$PVM_TMP"
}
