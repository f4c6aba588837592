#!/usr/bin/env bash
# Silent faults on the six-namespace cluster, found by leases: N trials
# per kind of fault, each a run of lbmaster on a cluster of its own
# (scripts/cluster-up.sh) with one fault, beside the same run without it:
#   pvmd-kill    the pvmd of a slave host killed (SIGKILL)
#   link-down    that host's link to the bridge taken down (a partition),
#                brought up again once lbmaster has fenced the host
#   loss         100 % loss on that link (tc netem loss 100% where the
#                kernel has netem, else an nftables drop rule on both
#                ends), healed the same way
#   worker-stop  the host's worker stopped (SIGSTOP), for good
#   pvmd-stop    the host's pvmd stopped (SIGSTOP), continued once fenced
#   master-kill  lbmaster, journalling, killed (SIGKILL); then
#                lbmaster --resume on the same cluster
# The seed draws the host (h2..h6) and the moment: when the workers
# have used a fraction 0.15..0.60 of the CPU seconds the reference run's
# workers used.  Detection time is from the fault (the clock read just
# before it) to lbmaster's line saying the host failed, both on one
# clock (stderr is stamped as it arrives).  For master-kill the time
# until the dead master's workers have left is in its place, and the
# resumed run must take every journalled result and compute none again
# (the hosts' processes run = processes - journalled).  After a healed
# partition every message from the fenced host must be dropped with a
# line and no result counted twice.  Writes one CSV row per trial,
# prints a summary, draws leases.{png,svg,pdf}.
#
# Usage: experiments/faults/lease.sh [OPTION]...   (from the build directory, as root)
#   -n N          trials per kind (default 10)
#   --kinds L     default "pvmd-kill link-down loss worker-stop pvmd-stop master-kill"
#   --seed S      first seed (default 1)
#   --heal S      seconds from the fencing line to healing a partition
#                 or continuing a stopped pvmd (default 2)
#   --out DIR     where everything goes (default out/faults-lease)
#   --trace       the run with the fault also writes its trace
#                 (docs/TRACES.md) to DIR/logs/KIND-I/fault.trace.csv
#   --replot      only summarise and redraw DIR/leases.csv
#   -h, --help    show this help
# Each trial holds /tmp/lbfarm-cluster6.lock (the cluster tests' lock)
# while its cluster stands; its namespaces are named lzf*, apart from
# the tests' and scripts/cluster-up.sh's defaults.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(pwd)
n=10 kinds="pvmd-kill link-down loss worker-stop pvmd-stop master-kill" seed0=1 heal=2 out=out/faults-lease replot=0
trace=0
while [ $# -gt 0 ]; do
  case $1 in
  -n) n=$2; shift 2 ;;
  --kinds) kinds=$2; shift 2 ;;
  --seed) seed0=$2; shift 2 ;;
  --heal) heal=$2; shift 2 ;;
  --out) out=$2; shift 2 ;;
  --replot) replot=1; shift ;;
  --trace) trace=1; shift ;;
  -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
  *) echo "$0: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
case "$n$seed0" in *[!0-9]*) echo "$0: -n and --seed take numbers" >&2; exit 2 ;; esac
case $heal in ''|*[!0-9.]*) echo "$0: --heal takes seconds" >&2; exit 2 ;; esac
for k in $kinds; do
  case $k in pvmd-kill|link-down|loss|worker-stop|pvmd-stop|master-kill) ;;
  *) echo "$0: unknown kind '$k'" >&2; exit 2 ;; esac
done
mkdir -p "$out" && out=$(cd "$out" && pwd)
csv=$out/leases.csv
. "$here/common.sh"

summarise() {
  awk -F, -f "$here/groups.awk" -f "$here/lease_summary.awk" "$csv"
  awk -F, -v o="$out" -f "$here/lease_plotdata.awk" "$csv" &&
    gnuplot -e "outdir='$out'" "$here/lease.gp" && echo "$0: wrote $csv and $out/leases.{png,svg,pdf}" >&2
}
if [ $replot = 1 ]; then
  [ -f "$csv" ] || { echo "$0: no $csv" >&2; exit 2; }
  summarise; exit
fi
[ -x "$top/master/lbmaster" ] || { echo "$0: master/lbmaster not found: run from the build directory" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "$0: needs root (network namespaces)" >&2; exit 2; }

ns=lzf
cstate="" mpid="" spid="" healcmd=""
cleanup() {
  [ -n "$mpid" ] && kill -9 "$mpid" 2>/dev/null
  [ -n "$spid" ] && kill "$spid" 2>/dev/null
  [ -n "$healcmd" ] && eval "$healcmd" >/dev/null 2>&1
  [ -n "$cstate" ] && "$top/scripts/cluster-down.sh" --state "$cstate" >/dev/null 2>&1
}
trap cleanup EXIT
trap 'exit 130' INT TERM

header="kind,trial,seed,victim,frac,fault_at_s,detect_s,detected_host,verified,fenced,crashed,reruns,duplicates,late,makespan_s,wall_s,ref_makespan_s,ref_wall_s,penalty,journalled,resumed_ran,workers_left_s,loss_by,leftover,status"
[ -f "$csv" ] || echo "$header" >"$csv"

args=(--workload primes --size 30000000 --procs 48 --hosts 6 --policy rmtlb --results origin --speeds 0.30 --init one)
target() { awk -v f="$1" -v c="${2:-0}" 'BEGIN { t = f * c; printf "%.2f", t < 0.05 ? 0.05 : t }'; }

# cut MODE HOST on|off: the host's link, down (a partition) or back up.
# MODE link: the bridge side of its veth down; loss: 100 % loss on both
# ends (netem, else nftables).  Sets loss_by.
cut() {
  local mode=$1 h=$2 on=$3 i=${2#h}
  if [ "$mode" = link ]; then
    ip -n "${ns}br" link set "v$i" "$([ "$on" = on ] && echo down || echo up)"
    return
  fi
  if [ "$on" = on ]; then
    if ip netns exec "${ns}$h" tc qdisc add dev eth0 root netem loss 100% 2>/dev/null; then
      ip netns exec "${ns}br" tc qdisc add dev "v$i" root netem loss 100%
      loss_by=netem
    else
      for side in "${ns}$h eth0" "${ns}br v$i"; do
        set -- $side
        ip netns exec "$1" nft add table inet lbloss
        ip netns exec "$1" nft add chain inet lbloss in '{ type filter hook input priority 0; policy accept; }'
        ip netns exec "$1" nft add chain inet lbloss out '{ type filter hook output priority 0; policy accept; }'
        ip netns exec "$1" nft add chain inet lbloss through '{ type filter hook forward priority 0; policy accept; }'
        ip netns exec "$1" nft add rule inet lbloss in iifname "$2" drop
        ip netns exec "$1" nft add rule inet lbloss out oifname "$2" drop
        ip netns exec "$1" nft add rule inet lbloss through iifname "$2" drop
        ip netns exec "$1" nft add rule inet lbloss through oifname "$2" drop
      done
      loss_by=nftables
    fi
  elif [ "$loss_by" = netem ]; then
    ip netns exec "${ns}$h" tc qdisc del dev eth0 root
    ip netns exec "${ns}br" tc qdisc del dev "v$i" root
  else
    ip netns exec "${ns}$h" nft delete table inet lbloss
    ip netns exec "${ns}br" nft delete table inet lbloss
  fi
}

# The first line saying a host failed: "STAMP HOST" (STAMP on the
# stamper's clock).
detection_line() {
  sed -nE 's/^([0-9.]+) lbmaster: host ([0-9]+) \(t[0-9a-f]+\) (renewed no lease|exited|was deleted from the virtual machine|did not answer for 10 s).*/\1 \2/p' "$1" | head -1
}

# wait_line FILE SECS: until a detection line is in FILE (at most SECS,
# or lbmaster ended).
wait_line() {
  local t=0
  while [ $t -lt $(($2 * 20)) ] && [ -z "$(detection_line "$1")" ] && kill -0 "$mpid" 2>/dev/null; do
    sleep 0.05; t=$((t + 1))
  done
}

# run_ref DIR SEED: the run without a fault: sets ref_cpu, ref_wall.
run_ref() {
  rm -f "$1/ref.csv"
  start_master "$1" ref "$top/scripts/cluster-run.sh" --state "$cstate" lbmaster "${args[@]}" --seed "$2" \
    --timeout 120 --out "$1/ref.csv"
  local wp
  wp=$(wait_workers "$cstate" 6) || echo "$0: $1: reference workers did not start" >&2
  ref_cpu=$([ -n "$wp" ] && watch_cpu 300 "$mpid" 0 KILL 0 $wp)
  wait_bounded "$mpid" 300
  mpid=""
  stamper_done
  ref_wall=$mwall
}

# trial KIND I SEED
trial() {
  local kind=$1 i=$2 s=$3 d=$out/logs/$1-$2 u v host hi frac tgt wp vp tfault det dstamp="" dhost="" detect=""
  local extra=() left="" probs=() workers_left="" journalled="" ran="" stamp cpu loss_by=""
  mkdir -p "$d"
  cstate=$(mktemp -d /tmp/lbfarm-lease.XXXXXX)
  if ! "$top/scripts/cluster-up.sh" --ns "$ns" --builddir "$top" --state "$cstate" >"$d/up.log" 2>&1; then
    echo "$0: $kind $i: cluster-up.sh failed (see $d/up.log): trial skipped" >&2
    "$top/scripts/cluster-down.sh" --state "$cstate" >/dev/null 2>&1
    cstate=""
    return
  fi
  run_ref "$d" "$s"
  read -r u v <<<"$(draw "$s")"
  hi=$((2 + v % 5)) host=h$((2 + v % 5))
  frac=$(awk -v u="$u" 'BEGIN { printf "%.3f", 0.15 + 0.45 * u }')
  tgt=$(target "$frac" "$ref_cpu")
  [ "$kind" = master-kill ] && { rm -f "$d/run.journal"; extra=(--journal "$d/run.journal"); }
  [ $trace = 1 ] && { rm -f "$d/fault.trace.csv"; extra+=(--trace "$d/fault.trace.csv"); }
  rm -f "$d/fault.csv" "$d/hosts.csv"
  start_master "$d" fault "$top/scripts/cluster-run.sh" --state "$cstate" lbmaster "${args[@]}" --seed "$s" \
    --timeout 120 --out "$d/fault.csv" --hosts-csv "$d/hosts.csv" "${extra[@]}"
  wp=$(wait_workers "$cstate" 6) || echo "$0: $kind $i: the workers did not start" >&2
  local victim=0 sig=0
  case $kind in
  pvmd-kill) victim=$(env_pids pvmd "$cstate/$host/tmp"); sig=KILL ;;
  pvmd-stop) victim=$(env_pids pvmd "$cstate/$host/tmp"); sig=STOP ;;
  worker-stop) victim=$(env_pids lbworker "$cstate/$host/tmp"); sig=STOP ;;
  master-kill) victim=$mpid; sig=KILL ;;
  *) victim=$mpid; sig=0 ;;   # a probe: the partition follows at once
  esac
  tfault=""
  if [ -n "$wp" ] && [ -n "$victim" ]; then
    read -r stamp cpu <<<"$(watch_cpu 300 "$mpid" "$tgt" "$sig" "$victim" $wp)"
    tfault=$stamp
    case $kind in
    link-down) cut link "$host" on; healcmd="cut link $host off" ;;
    loss) cut loss "$host" on; healcmd="cut loss $host off" ;;
    pvmd-stop) healcmd="kill -CONT $victim" ;;
    esac
  fi
  echo "$0: $kind $i: seed $s, $host at ${frac} of the CPU (${tfault:+fault at $tfault})" >&2
  if [ -n "$tfault" ] && [ "$kind" != master-kill ]; then
    wait_line "$d/fault.err" 60
    # Heal once fenced: whatever the host sends then must be dropped.
    if [ -n "$healcmd" ]; then
      sleep "$heal"
      eval "$healcmd"
      healcmd=""
    fi
  fi
  if [ "$kind" = master-kill ]; then
    wait "$mpid" 2>/dev/null
    mpid=""
    stamper_done
    local t=0
    while [ -n "$(env_pids lbworker "$cstate")" ] && [ $t -lt 400 ]; do sleep 0.05; t=$((t + 1)); done
    [ -z "$(env_pids lbworker "$cstate")" ] && workers_left=$(awk -v a="$(now)" -v b="$tfault" 'BEGIN { printf "%.3f", a - b }')
    local wall1=$(awk -v a="$tfault" -v b="$mstart" 'BEGIN { printf "%.1f", a - b }')
    start_master "$d" resume "$top/scripts/cluster-run.sh" --state "$cstate" lbmaster "${args[@]}" --seed "$s" \
      --timeout 120 --out "$d/fault.csv" --hosts-csv "$d/hosts.csv" --resume "$d/run.journal"
    wait_bounded "$mpid" 300
    mpid=""
    stamper_done
    mwall=$(awk -v a="$mwall" -v b="$wall1" 'BEGIN { printf "%.1f", a + b }')
    journalled=$(csvcol "$d/fault.csv" journalled)
    ran=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "done") c = i; next } { s += $c } END { print s + 0 }' "$d/hosts.csv")
    [ -n "$journalled" ] && [ "$ran" -eq $((48 - journalled)) ] || probs+=("journalled results computed again")
    [ -n "$workers_left" ] || probs+=("workers of the dead master stayed")
  else
    wait_bounded "$mpid" 300
    mpid=""
    stamper_done
  fi
  [ -n "$healcmd" ] && { eval "$healcmd"; healcmd=""; }
  det=$(detection_line "$d/fault.err")
  read -r dstamp dhost <<<"$det"
  [ -n "$det" ] && [ -n "$tfault" ] && detect=$(awk -v a="$dstamp" -v b="$tfault" 'BEGIN { printf "%.3f", a - b }')
  local late dups
  late=$(grep -c 'late [A-Z_]* from host' "$d/fault.err")
  dups=$(csvcol "$d/fault.csv" duplicates)
  for h in 1 2 3 4 5 6; do cp "$cstate/h$h/tmp/pvml.$(id -u)" "$d/pvml.h$h" 2>/dev/null; done
  "$top/scripts/cluster-down.sh" --state "$cstate" >"$d/down.log" 2>&1
  local t=0
  while [ $t -lt 30 ] && { [ -n "$(env_pids pvmd "$cstate")" ] || [ -n "$(env_pids lbworker "$cstate")" ] ||
    ip netns list 2>/dev/null | grep -qE "^${ns}(br|h[1-6])( |$)"; }; do sleep 0.1; t=$((t + 1)); done
  for p in $(env_pids pvmd "$cstate") $(env_pids lbworker "$cstate"); do left="$left pid:$p"; kill -9 "$p"; done
  ip netns list 2>/dev/null | grep -qE "^${ns}(br|h[1-6])( |$)" && left="$left netns"
  [ -e "$cstate" ] && { left="$left state-dir"; rm -rf "$cstate"; }
  cstate=""
  left=$(echo $left)
  local ms refms pen=""
  ms=$(csvcol "$d/fault.csv" makespan_s)
  refms=$(csvcol "$d/ref.csv" makespan_s)
  # The penalty: makespan over the reference's; for a master killed and
  # resumed, the wall time of both runs over the reference's.
  if [ "$kind" = master-kill ]; then
    [ -n "$mwall" ] && [ -n "$ref_wall" ] && pen=$(awk -v a="$mwall" -v b="$ref_wall" 'BEGIN { if (b > 0) printf "%.3f", a / b }')
  else
    [ -n "$ms" ] && [ -n "$refms" ] && pen=$(awk -v a="$ms" -v b="$refms" 'BEGIN { if (b > 0) printf "%.3f", a / b }')
  fi
  [ -z "$tfault" ] && probs+=("no fault")
  [ "$kind" != master-kill ] && [ -n "$tfault" ] && [ -z "$det" ] && probs+=("no detection")
  [ "$kind" != master-kill ] && [ -n "$det" ] && [ "$dhost" != $((hi - 1)) ] && probs+=("host $dhost failed instead of $((hi - 1))")
  [ -n "$detect" ] && awk -v x="$detect" 'BEGIN { exit !(x > 5) }' && probs+=("detection over 5 s")
  [ "$(csvcol "$d/fault.csv" verified)" = yes ] || probs+=("not verified")
  [ "$(csvcol "$d/ref.csv" verified)" = yes ] || probs+=("reference not verified")
  [ -n "$left" ] && probs+=("leftovers")
  local st=ok
  [ ${#probs[@]} -gt 0 ] && st=$(IFS=';'; echo "${probs[*]}")
  local fault_at=""
  [ -n "$tfault" ] && fault_at=$(awk -v a="$tfault" -v b="$mstart" 'BEGIN { printf "%.3f", a - b }')
  [ "$kind" = master-kill ] && fault_at=""
  echo "$kind,$i,$s,$host,$frac,$fault_at,$detect,$dhost,$(csvcol "$d/fault.csv" verified),$(csvcol "$d/fault.csv" fenced),$(csvcol "$d/fault.csv" crashed),$(csvcol "$d/fault.csv" reruns),$dups,$late,$ms,$mwall,$refms,$ref_wall,$pen,$journalled,$ran,$workers_left,$loss_by,${left// /;},$st" >>"$csv"
  tail -1 "$csv" | awk -F, '{ printf "%-12s %2s seed %-3s %s: detect %6s s, %s, fenced %s, reruns %s, dups %s, late %s, journalled %s, penalty %s  %s\n",
    $1, $2, $3, $4, $7 == "" ? "-" : $7, $9 == "yes" ? "verified" : "NOT VERIFIED", $10, $12, $13, $14, $20 == "" ? "-" : $20, $19, $25 }' >&2
}

exec 8>/tmp/lbfarm-cluster6.lock
i=0
for k in $kinds; do
  for j in $(seq 1 "$n"); do
    flock 8
    trial "$k" "$j" $((seed0 + j - 1))
    flock -u 8
  done
done
summarise
