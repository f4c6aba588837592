# experiments/faults/cluster.sh: the six-namespace cluster trial of
# run.sh (sourced): cluster-up, a reference run, a run with one slave
# pvmd stopped (SIGTERM) or killed (SIGKILL), cluster-down, and the
# check that nothing of it is left.

# cluster_workers_left WPIDS...: our workers (and their cgroups) still
# there after a run, at most 3 s of grace; removes and prints them.
cluster_workers_left() {
  local t=0 l
  while :; do
    l=""
    for p in $(env_pids lbworker "$cstate"); do l="$l lbworker:$p"; done
    for c in $(lb_worker_cgroups "$@"); do l="$l cgroup:$c"; done
    [ -z "$l" ] || [ $t -ge 30 ] && break
    sleep 0.1; t=$((t + 1))
  done
  for x in $l; do case $x in lbworker:*) kill -9 "${x#*:}" 2>/dev/null ;; esac; done
  echo "${l# }"
}

# one_cluster DIR NAME TARGET HOST SIG ARGS...: lbmaster on h1.  TARGET
# empty: sets cpu to the CPU seconds its workers used; else HOST's pvmd
# gets SIG once the workers have used TARGET CPU seconds.
one_cluster() {
  local dir=$1 name=$2 target=$3 host=$4 sig=$5 tmo=60 bound=240 vp
  shift 5
  # SIGKILL: only PVM's own timeouts report the host, minutes later.
  [ "$sig" = KILL ] && tmo=900 bound=1200
  rm -f "$dir/$name.csv"
  start_master "$dir" "$name" "$top/scripts/cluster-run.sh" --state "$cstate" lbmaster "$@" --timeout $tmo \
    --out "$dir/$name.csv"
  wp=$(wait_workers "$cstate" 6) || echo "$0: cluster $name: the workers did not start" >&2
  tkill="" cpu=""
  if [ -n "$wp" ] && [ -z "$target" ]; then
    cpu=$(watch_cpu $bound "$mpid" 0 KILL 0 $wp)
  elif [ -n "$wp" ]; then
    vp=$(env_pids pvmd "$cstate/$host/tmp")
    read -r tkill cpu <<<"$(watch_cpu $bound "$mpid" "$target" "$sig" "${vp:-0}" $wp)"
    echo "$0: cluster: SIG$sig to the pvmd of $host (pid $vp) at ${tkill:-(not sent)}" >&2
  fi
  wait_bounded "$mpid" $bound
  mpid=""
  stamper_done
  spid=""
  left="$left $(cluster_workers_left $wp)"
}

# cluster_pair SIG SEED DIR: one trial; appends its row to $csv.
cluster_pair() {
  local sig=$1 s=$2 d=$3 t=0 rc u v host frac try
  mkdir -p "$d"
  # h1..h6 are machine-wide names: wait (at most 5 min) for another
  # cluster to go, never touch it.
  while ip netns list 2>/dev/null | grep -qE '^(lbfarm-br|h[1-6])( |$)'; do
    [ $t -ge 300 ] && { echo "$0: namespaces h1..h6 stay in use: cluster trial skipped" >&2; return; }
    sleep 1; t=$((t + 1))
  done
  cstate=$(mktemp -d /tmp/lbfarm-fxc.XXXXXX)
  left="" tkill="" mrc=""
  # A loaded machine can be slow to start five slave pvmds: one retry.
  for try in 1 2; do
    "$top/scripts/cluster-up.sh" --builddir "$top" --state "$cstate" >"$d/up.log" 2>&1
    rc=$?
    [ $rc -eq 1 ] && [ $try = 1 ] || break
    echo "$0: cluster-up.sh failed (see $d/up.log): once more" >&2
    "$top/scripts/cluster-down.sh" --state "$cstate" >/dev/null 2>&1
    mkdir -p "$cstate"
  done
  if [ $rc -ne 0 ]; then
    echo "$0: cluster-up.sh exited $rc (see $d/up.log): cluster trial skipped" >&2
    [ $rc -eq 2 ] || "$top/scripts/cluster-down.sh" --state "$cstate" >/dev/null 2>&1
    rm -rf "$cstate"; cstate=""
    return
  fi
  args=(--workload primes --size 30000000 --procs 48 --hosts 6 --policy rmtlb --results origin --speeds 0.30
    --init one --seed "$s")
  one_cluster "$d" ref "" "" TERM "${args[@]}"
  refcpu=$cpu
  read -r u v <<<"$(draw "$s")"
  host=h$((2 + v % 5))
  frac=$(awk -v u="$u" 'BEGIN { printf "%.3f", 0.05 + 0.75 * u }')
  one_cluster "$d" fault "$(target "$frac" "$refcpu")" "$host" "$sig" "${args[@]}"
  for h in 1 2 3 4 5 6; do cp "$cstate/h$h/tmp/pvml.$(id -u)" "$d/pvml.h$h" 2>/dev/null; done
  "$top/scripts/cluster-down.sh" --state "$cstate" >"$d/down.log" 2>&1
  # What the cluster's pvmds and namespaces left, after 3 s of grace.
  t=0
  while [ $t -lt 30 ] && { [ -n "$(env_pids pvmd "$cstate")" ] ||
    ip netns list 2>/dev/null | grep -qE '^(lbfarm-br|h[1-6])( |$)'; }; do sleep 0.1; t=$((t + 1)); done
  for p in $(env_pids pvmd "$cstate"); do left="$left pvmd:$p"; kill -9 "$p"; done
  ip netns list 2>/dev/null | grep -qE '^(lbfarm-br|h[1-6])( |$)' && left="$left netns"
  [ -e /etc/netns/h1 ] && left="$left /etc/netns/h1"
  [ -e "$cstate" ] && { left="$left state-dir"; rm -rf "$cstate"; }
  cstate=""
  left=$(echo $left)
  row cluster primes rmtlb origin "$s" "$sig" "$frac" "$d" "$host"
}
