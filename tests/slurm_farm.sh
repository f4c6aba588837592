#!/bin/sh
# lbmpi under Slurm: a one-node Slurm cluster of this test's own (munged,
# slurmctld and slurmd from Debian's packages) runs `srun -n 7 --mpi=pmix
# mpi/lbmpi` on primes and on matmul, `salloc -n 7 mpirun mpi/lbmpi`,
# and mpi/lbmpi.sbatch through sbatch; every CSV row must say verified,
# with 6 hosts and every result.
#
# Everything runs in namespaces of its own (unshare: network, host name,
# mounts, pids): the daemons can listen on loopback only, on ports no
# other process sees, under the host name lbnode (a private /etc/hosts
# bind-mounted there), with a private munge key and socket and a private
# slurm.conf, spool, state and log directory in one temp directory.  No
# system-wide Slurm or munge file or service is read or touched.  The
# daemons are stopped at the end; and when unshare ends, even by kill -9,
# the kernel ends whatever is left in the namespaces.
# SKIP (77) where lbmpi or the packages are missing, without root, or
# where this machine refuses the namespaces.
. "${LB_TOP_SRCDIR:-.}/tests/lib.sh"
mpi="$(cd "$top_builddir" && pwd)/mpi/lbmpi"
sbatch_script="$top_srcdir/mpi/lbmpi.sbatch"
node=lbnode

# stopped PID: true when PID has exited (or is a zombie).
stopped() {
  [ ! -e "/proc/$1" ] || [ "$(cut -d' ' -f3 "/proc/$1/stat" 2>/dev/null)" = Z ]
}

# stop_daemon PID: TERM, at most 5 s to exit, then KILL.
stop_daemon() {
  [ -n "$1" ] || return 0
  kill -TERM "$1" 2>/dev/null || return 0
  i=0
  while ! stopped "$1" && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
  stopped "$1" || kill -KILL "$1" 2>/dev/null
}

# run_bg FILE CMD...: CMD with its output in FILE.  The shell waits in
# `wait`, which a TERM interrupts at once (it would run its trap only
# after a foreground command had ended).
run_bg() {
  f=$1
  shift
  "$@" >"$f" 2>&1 &
  wait $!
}

# show_logs: the end of each daemon's log, after a failure.
show_logs() {
  for f in "$d"/log/*.log; do
    [ -s "$f" ] && { echo "--- $f" >&2; tail -n 15 "$f" >&2; }
  done
}

# ---- inside the namespaces: process 1 of its pid namespace ----
inside() {
  d=$1 munged_pid= ctld_pid= slurmd_pid=
  # Nothing of an enclosing job or launcher may leak in (make check run
  # inside a Slurm allocation, or under mpirun).
  for v in $(env | sed -n 's/^\(\(SLURM\|SBATCH\|SRUN\|PMIX\|PMI\|OMPI\)_[A-Za-z0-9_]*\)=.*/\1/p'); do
    unset "$v"
  done
  export SLURM_CONF="$d/etc/slurm.conf" OMPI_MCA_mpi_yield_when_idle=1
  trap 'stop_daemon "$slurmd_pid"; stop_daemon "$ctld_pid"; stop_daemon "$munged_pid"; kill -KILL -1 2>/dev/null; wait' EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM

  # glibc's getaddrinfo(AI_ADDRCONFIG), which Slurm uses, finds no
  # address where 127.0.0.1 is the only one: a second, private one.
  ip link set lo up && ip addr add 10.255.255.1/32 dev lo ||
    { echo "SKIP: cannot configure loopback in a private network namespace"; exit 77; }
  hostname "$node" && printf '127.0.0.1 localhost %s\n' "$node" >"$d/etc/hosts" &&
    mount --bind "$d/etc/hosts" /etc/hosts ||
    { echo "SKIP: cannot set a private host name and /etc/hosts in private namespaces"; exit 77; }

  # Slurm 22.05's slurmd loads a cgroup plugin at start even with
  # linuxproc and task/none, and gives up where it finds no cgroup file
  # system it knows (a chroot, some containers); under cgroup v2 it
  # would want a systemd scope.  It needs no cgroup here: an empty tmpfs
  # on /sys/fs/cgroup, in this mount namespace only, and cgroup/v1 named
  # in a private cgroup.conf (that plugin makes nothing until another
  # asks, and none does), so slurmd sees the same on every machine and
  # never the machine's own cgroups.
  mount -t tmpfs -o size=64k,mode=755 lbfarm-nocgroup /sys/fs/cgroup ||
    { echo "SKIP: cannot mount a tmpfs on /sys/fs/cgroup in a private mount namespace"; exit 77; }

  # munge: a key of its own, its socket, pid, seed and log in $d.
  mungekey --create --keyfile="$d/munge/key" 2>"$d/log/mungekey.log" ||
    { fail "mungekey: $(cat "$d/log/mungekey.log")"; finish; }
  munged --foreground --socket="$d/munge/sock" --key-file="$d/munge/key" --pid-file="$d/munge/pid" \
    --seed-file="$d/munge/seed" --log-file="$d/log/munged.log" >>"$d/log/munged.log" 2>&1 &
  munged_pid=$!
  i=0
  until munge -n -S "$d/munge/sock" 2>/dev/null | unmunge -S "$d/munge/sock" >/dev/null 2>&1; do
    if stopped "$munged_pid" || [ $i -ge 100 ]; then fail "munged did not answer within 10 s"; show_logs; finish; fi
    sleep 0.1; i=$((i + 1))
  done
  ok "munged answers on its private socket"

  # One node of 8 CPUs (config_overrides: the machine may have fewer):
  # no cgroups (linuxproc, task/none), no accounting, no mail.  Slurm
  # reads cgroup.conf from slurm.conf's directory.
  cat >"$SLURM_CONF" <<EOF
ClusterName=lbfarm
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=6817
SlurmdPort=6818
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$d/munge/sock
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool
TmpFS=$d/tmp
SlurmctldPidFile=$d/run/slurmctld.pid
SlurmdPidFile=$d/run/slurmd.pid
SlurmctldLogFile=$d/log/slurmctld.log
SlurmdLogFile=$d/log/slurmd.log
PlugStackConfig=$d/etc/plugstack.conf
MailProg=/bin/true
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SlurmdParameters=config_overrides
ReturnToService=2
NodeName=$node NodeAddr=127.0.0.1 CPUs=8 State=UNKNOWN
PartitionName=lb Nodes=$node Default=YES MaxTime=10 State=UP
EOF
  : >"$d/etc/plugstack.conf"
  echo CgroupPlugin=cgroup/v1 >"$d/etc/cgroup.conf"
  slurmctld -D -f "$SLURM_CONF" >>"$d/log/slurmctld.out" 2>&1 &
  ctld_pid=$!
  slurmd -D -f "$SLURM_CONF" >>"$d/log/slurmd.out" 2>&1 &
  slurmd_pid=$!
  i=0 t=$(date +%s%N)
  until [ "$(sinfo -h -n "$node" -o %T 2>/dev/null)" = idle ]; do
    if stopped "$ctld_pid" || stopped "$slurmd_pid" || [ $i -ge 300 ]; then
      fail "node $node not idle within 30 s (slurmctld $(stopped "$ctld_pid" && echo exited || echo running), slurmd $(stopped "$slurmd_pid" && echo exited || echo running))"
      cat "$d/log/slurmctld.out" "$d/log/slurmd.out" >&2
      show_logs; finish
    fi
    sleep 0.1; i=$((i + 1))
  done
  t=$((($(date +%s%N) - t) / 100000000))
  ok "slurmctld and slurmd up, node $node idle after $((t / 10)).$((t % 10)) s"

  plugins=$(srun --mpi=list 2>&1 | sed -n 's/^[[:space:]]\{1,\}\([a-z0-9_]\{1,\}\)$/\1/p' | tr '\n' ' ')
  echo "srun --mpi=list: $plugins"
  case " $plugins " in
  *" pmix "*) ;;
  *) echo "SKIP: this Slurm has no pmix MPI plugin (srun --mpi=list: $plugins)"; exit 77 ;;
  esac

  # srun -n 7: rank 0 the master, six hosts; every process starts on
  # host 0, so the policy must move work for the run to end soon.
  for wl in "primes --size 3000000" "matmul --size 1000"; do
    name="srun $(echo $wl | cut -d' ' -f1)"
    csv="$d/$(echo $wl | cut -d' ' -f1).csv" hosts="$d/$(echo $wl | cut -d' ' -f1)-hosts.csv"
    run_bg "$d/log/srun.out" timeout 120 srun -n 7 --mpi=pmix --time=2 --kill-on-bad-exit=1 "$mpi" \
      --policy rmtlb --workload $wl --procs 24 --init one --seed 3 --out "$csv" --hosts-csv "$hosts"
    rc=$?
    if [ $rc -eq 0 ] && [ -s "$csv" ] && [ "$(col verified)" = yes ]; then ok "$name: verified"
    else tail -n 20 "$d/log/srun.out" >&2; show_logs; fail "$name: exit $rc, verified '$(col verified 2>/dev/null)'"; continue; fi
    [ "$(col driver)" = lbmpi ] && [ "$(col nodes)" = 6 ] && [ "$(col msgs_RESULT)" = 24 ] &&
      ok "$name: lbmpi's row, 6 hosts, 24 results" ||
      fail "$name: driver '$(col driver)', $(col nodes) hosts, $(col msgs_RESULT) results"
    [ "$(col migrated)" -gt 0 ] 2>/dev/null && ok "$name: $(col migrated) migrations" || fail "$name: nothing migrated"
    # The hosts are MPI ranks 1..6 of one job that Slurm started.
    [ "$(hostcol tid)" = "1 2 3 4 5 6 " ] && ok "$name: hosts are ranks 1-6" || fail "$name: host tids '$(hostcol tid)'"
  done

  # mpirun inside an allocation learns the node and its 7 slots from
  # Slurm and starts its daemon there through srun.  Its out-of-band
  # channel shuns loopback, the only interface here: allow it.
  csv="$d/mpirun.csv" hosts="$d/mpirun-hosts.csv"
  run_bg "$d/log/salloc.out" env OMPI_MCA_oob_tcp_if_include=lo OMPI_MCA_btl_tcp_if_include=lo \
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 120 salloc -n 7 --time=2 \
    mpirun "$mpi" --policy rmtlb --workload primes --size 2000000 --procs 24 --init one --out "$csv" --hosts-csv "$hosts"
  rc=$?
  if [ $rc -eq 0 ] && [ -s "$csv" ] && [ "$(col verified)" = yes ] && [ "$(hostcol tid)" = "1 2 3 4 5 6 " ]; then
    ok "salloc -n 7 mpirun: verified on ranks 1-6"
  else
    tail -n 20 "$d/log/salloc.out" >&2; show_logs; fail "salloc mpirun: exit $rc, verified '$(col verified 2>/dev/null)'"
  fi

  # The documented batch script, on this one node; the row lands in
  # lbmpi-JOBID.csv.  Polled here: sbatch --wait looks only every few
  # seconds.
  mkdir "$d/job"
  run_bg "$d/log/sbatch.out" env LBMPI="$mpi" sbatch --parsable --nodes=1 --ntasks-per-node=7 --time=2 \
    --chdir="$d/job" --output="$d/job/lbmpi-%j.out" "$sbatch_script" \
    --policy rmtlb --workload primes --size 2000000 --procs 24 --init one
  job=$(sed -n 's/^\([0-9][0-9]*\).*/\1/p' "$d/log/sbatch.out")
  state= i=0
  while [ -n "$job" ] && [ $i -lt 1200 ]; do
    state=$(scontrol show job "$job" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')
    case $state in PENDING|CONFIGURING|RUNNING|COMPLETING|"") sleep 0.1; i=$((i + 1)) ;; *) break ;; esac
  done
  code=$(scontrol show job "$job" 2>/dev/null | sed -n 's/.*[^a-zA-Z]ExitCode=\([0-9:]*\).*/\1/p')
  csv="$d/job/lbmpi-$job.csv"
  if [ "$state" = COMPLETED ] && [ "$code" = 0:0 ] && [ -s "$csv" ] && [ "$(col verified)" = yes ] && [ "$(col nodes)" = 6 ]; then
    ok "sbatch mpi/lbmpi.sbatch: job $job COMPLETED, exit 0, verified on 6 hosts"
    grep -q 'verified: yes' "$d/job/lbmpi-$job.out" && ok "sbatch: the job's output says verified" ||
      fail "sbatch: no 'verified: yes' in the job's output"
  else
    cat "$d/log/sbatch.out" "$d/job/lbmpi-$job.out" >&2 2>/dev/null; show_logs
    fail "sbatch mpi/lbmpi.sbatch: job '$job' state '$state', exit code '$code'"
  fi
  n=$(grep -c '_job_complete: JobId=[0-9]* WEXITSTATUS 0' "$d/log/slurmctld.log")
  [ "$n" -eq 4 ] && ok "slurmctld saw 4 jobs end with status 0" || fail "slurmctld: $n jobs ended with status 0, not 4"
  finish
}

if [ "${1:-}" = --inside ]; then
  shift
  inside "$@"
fi

# ---- outside: checks, the temp directory, the namespaces ----
[ -x "$mpi" ] || { echo "SKIP: lbmpi not built (configure found no MPI: apt-get install libopenmpi-dev openmpi-bin)"; exit 77; }
for c in munged mungekey munge unmunge slurmctld slurmd srun salloc sinfo sbatch mpirun; do
  command -v $c >/dev/null ||
    { echo "SKIP: no $c (apt-get install slurmctld slurmd slurm-client munge; scripts/setup.sh installs them)"; exit 77; }
done
for c in unshare ip mount hostname; do
  command -v $c >/dev/null || { echo "SKIP: no $c"; exit 77; }
done
[ "$(id -u)" -eq 0 ] || { echo "SKIP: not root (slurmd runs job steps as root, and the private namespaces need root)"; exit 77; }
ns="unshare --net --uts --mount --pid --fork --kill-child --mount-proc"
err=$($ns true 2>&1) || { echo "SKIP: this machine refuses private namespaces ($ns: $err)"; exit 77; }
farm_lock

tmp=$(mktemp -d "${TMPDIR:-/tmp}/lbfarm-slurm.XXXXXX") || exit 99
mkdir "$tmp/etc" "$tmp/munge" "$tmp/state" "$tmp/spool" "$tmp/tmp" "$tmp/log" "$tmp/run"
# munged wants its socket reachable by every user: search, not read.
chmod 711 "$tmp" "$tmp/munge"
hosts_before=$(cksum </etc/hosts) name_before=$(uname -n)
upid= nsid=

# ns_pids: the processes in the cluster's pid namespace, slurmstepd and
# job steps included; ns_gone: at most 5 s for them to end (after
# unshare is killed, the kernel kills them a moment later).
ns_pids() {
  [ -n "$nsid" ] || return 0
  for p in /proc/[0-9]*; do
    [ "$(readlink "$p/ns/pid" 2>/dev/null)" = "$nsid" ] && echo "${p#/proc/}"
  done
}
ns_gone() {
  i=0
  while [ -n "$(ns_pids)" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
  [ -z "$(ns_pids)" ]
}
# Stop the namespace's first process (TERM: it stops its daemons), at
# most 15 s, then kill unshare, which kills that process and with it
# everything in the namespace; then remove the directory.
cleanup() {
  if [ -n "$upid" ] && ! stopped "$upid"; then
    for p in $(cat "/proc/$upid/task/$upid/children" 2>/dev/null); do kill -TERM "$p" 2>/dev/null; done
    i=0
    while ! stopped "$upid" && [ $i -lt 150 ]; do sleep 0.1; i=$((i + 1)); done
    stopped "$upid" || kill -KILL "$upid" 2>/dev/null
    wait "$upid" 2>/dev/null
  fi
  ns_gone
  rm -rf "$tmp"
}
at_exit cleanup   # also on SIGINT (130) and SIGTERM (143)

t0=$(date +%s)
$ns sh "$0" --inside "$tmp" 9>&- &
upid=$!
# The namespace's first process: unshare's child, once it has forked.
i=0
while [ -z "$nsid" ] && ! stopped "$upid" && [ $i -lt 50 ]; do
  for p in $(cat "/proc/$upid/task/$upid/children" 2>/dev/null); do nsid=$(readlink "/proc/$p/ns/pid"); done
  [ "$nsid" = "$(readlink /proc/self/ns/pid)" ] && nsid=
  [ -n "$nsid" ] || sleep 0.1
  i=$((i + 1))
done
wait "$upid"
rc=$?
upid=
echo "the cluster's part took $(( $(date +%s) - t0 )) s"
[ $rc -eq 77 ] && exit 77
[ $rc -eq 0 ] || fail "inside the namespaces: exit $rc"

# Nothing of the cluster outlives it, and the machine's own names are
# as they were.
[ -n "$nsid" ] || fail "the cluster's pid namespace was never seen"
ns_gone && [ -z "$(pgrep -f "$tmp")" ] && ok "no process of the cluster left" ||
  fail "left running: $(ns_pids) $(pgrep -f "$tmp")"
[ "$(cksum </etc/hosts)" = "$hosts_before" ] && [ "$(uname -n)" = "$name_before" ] &&
  ok "this machine's /etc/hosts and host name untouched" || fail "/etc/hosts or the host name changed"
finish
