#!/usr/bin/env bash
# Fault injection on the farm: N runs per workload (primes, matmul), each
# with one worker killed with SIGKILL at a seeded random moment, and the
# same run without a fault for reference; then the six-namespace cluster
# with a slave pvmd stopped (SIGTERM) or killed (SIGKILL).  Writes one
# CSV row per run, prints a summary and draws faults.{png,svg,pdf}.
#
# Run i of a workload uses seed S+i, policy i mod 6 of rmtlb lowest dasud
# cchspmd diffusion diffusion2, and results origin for i/6 even, direct
# for i/6 odd: 12 runs cover every (policy, mode) pair; give -n 120 for
# 20 runs per policy.  --results origin (or direct) runs every one in
# that mode.  The seed also draws the victim (host 0..5; on the
# cluster h2..h6) and the moment: when the workers have used a fraction
# 0.05..0.80 of the CPU seconds the reference run's workers used (CPU
# time marks progress; wall time varies on a shared machine).
# Detection time is from the kill to lbmaster's line saying the host
# failed, both stamped with the same clock.  After each run nothing of
# it may be left (pvmd, worker, worker cgroup, PVM file); anything left
# fails that run.
#
# Usage: experiments/faults/run.sh [OPTION]...   (from the build directory)
#   -n N             runs per workload (default 20)
#   --workloads L    default "primes matmul"
#   --seed S         first seed (default 1)
#   --results M      origin, direct, or both (default: both, in turn)
#   --cluster K      cluster trials (default 1; 0: none)
#   --cluster-kill   kill the slave pvmd with SIGKILL: only PVM's own
#                    host timeout reports it, 3 to 10 minutes per trial
#                    (lbmaster runs with --timeout 900)
#   --no-farm        only the cluster trials
#   --out DIR        where everything goes (default out/faults)
#   --replot         only summarise and redraw DIR/faults.csv
#   --csv            print the summary as CSV
#   -h, --help       show this help
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
lb_top=$(cd "$here/../.." && pwd)
. "$lb_top/scripts/lib.sh"
top=$lb_top
master=${LBMASTER:-$(lb_built master/lbmaster)}
n=20 workloads="primes matmul" seed0=1 ctrials=1 csig=TERM farm=1 out=out/faults replot=0 csvsum=0 rmode=both
while [ $# -gt 0 ]; do
  case $1 in
  -n) n=$2; shift 2 ;;
  --workloads) workloads=$2; shift 2 ;;
  --seed) seed0=$2; shift 2 ;;
  --results) rmode=$2; shift 2 ;;
  --cluster) ctrials=$2; shift 2 ;;
  --cluster-kill) csig=KILL; shift ;;
  --no-farm) farm=0; shift ;;
  --out) out=$2; shift 2 ;;
  --replot) replot=1; shift ;;
  --csv) csvsum=1; shift ;;
  -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
  *) echo "$0: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
case "$n$seed0$ctrials" in *[!0-9]*) echo "$0: -n, --seed and --cluster take numbers" >&2; exit 2 ;; esac
case $rmode in origin|direct|both) ;; *) echo "$0: --results: origin, direct or both, not '$rmode'" >&2; exit 2 ;; esac
mkdir -p "$out" && out=$(cd "$out" && pwd)
csv=$out/faults.csv
policies=(rmtlb lowest dasud cchspmd diffusion diffusion2)
modes=(origin direct)
[ "$rmode" = both ] || modes=("$rmode" "$rmode")
. "$here/common.sh"
. "$here/cluster.sh"

summarise() {
  awk -F, -v csv="$csvsum" -f "$here/groups.awk" -f "$here/summary.awk" "$csv"
  awk -F, -v o="$out" -f "$here/../stats.awk" -f "$here/plotdata.awk" "$csv" &&
    lb_plot "$out" "$here/faults.gp" "outdir='$out'" && echo "$0: wrote $csv and $out/faults.{png,svg,pdf}" >&2
}
if [ $replot = 1 ]; then
  [ -f "$csv" ] || { echo "$0: no $csv" >&2; exit 2; }
  summarise; exit
fi
[ -x "$master" ] || { echo "$0: $master: not built (run scripts/setup.sh, or set LBMASTER)" >&2; exit 2; }

# On exit or interrupt (Ctrl-C: 130, SIGTERM: 143): stop what this
# script started, and only that: lbmaster gets SIGTERM and 3 s to halt
# its VM, then whatever is left of that VM is stopped and removed.
mpid="" spid="" cstate=""
cleanup() {
  local t=0
  if [ -n "$mpid" ] && kill -TERM "$mpid" 2>/dev/null; then
    while kill -0 "$mpid" 2>/dev/null && [ $t -lt 30 ]; do sleep 0.1; t=$((t + 1)); done
    kill -9 "$mpid" 2>/dev/null
  fi
  [ -n "$spid" ] && kill "$spid" 2>/dev/null
  [ -n "${PVM_TMP:-}" ] && lb_vm_cleanup "$PVM_TMP"
  [ -n "$cstate" ] && "$top/scripts/cluster-down.sh" --state "$cstate" >/dev/null 2>&1
}
lb_init
lb_on_exit cleanup

header="kind,workload,policy,mode,seed,signal,kill_frac,kill_at_s,victim_host,detected_host,detect_s,verified,hosts_down,reruns,duplicates,makespan_s,wall_s,ref_makespan_s,ref_cpu_s,penalty,ref_verified,rc,leftover,status"
[ -f "$csv" ] || echo "$header" >"$csv"

# one_farm DIR NAME TARGET VICTIM ARGS...: one lbmaster run on a private
# PVM.  TARGET empty: sets cpu to the CPU seconds its workers used; else
# worker VICTIM (0..5) gets SIGKILL once the workers have used TARGET
# CPU seconds.  Sets mrc, tkill (empty: no kill), left.
one_farm() {
  local dir=$1 name=$2 target=$3 victim=$4 vp
  shift 4
  export PVM_TMP PVM_VMID=fx$$n$((++vmseq)) PVM_ALLOW_ROOT=yes
  PVM_TMP=$(mktemp -d "${TMPDIR:-/tmp}/lbfarm-fx.XXXXXX")
  lb_vms=$PVM_TMP
  rm -f "$dir/$name.csv"
  start_master "$dir" "$name" "$master" "$@" --out "$dir/$name.csv"
  wp=$(wait_workers "$PVM_TMP" 6) || echo "$0: $name: the workers did not start" >&2
  tkill="" cpu=""
  if [ -n "$wp" ] && [ -z "$target" ]; then
    cpu=$(watch_cpu 240 "$mpid" 0 KILL 0 $wp)
  elif [ -n "$wp" ]; then
    vp=$(printf '%s\n' $wp | sed -n "$((victim + 1))p")
    read -r tkill cpu <<<"$(watch_cpu 240 "$mpid" "$target" KILL "$vp" $wp)"
  fi
  wait_bounded "$mpid" 240
  mpid=""
  stamper_done
  spid=""
  left=$(leftovers "$PVM_TMP" $wp)
  rm -rf "$PVM_TMP"
  PVM_TMP=""
}

# row KIND W POLICY MODE SEED SIG FRAC DIR VICTIM: the CSV row of a
# reference (DIR/ref.*) and fault (DIR/fault.*) pair.
row() {
  local d=$8 det st=ok dstamp dhost into detect="" killat="" ms refms pen="" st=ok
  det=$(detection "$d/fault.err")
  read -r dstamp dhost into <<<"$det"
  if [ -n "$det" ] && [ -n "$tkill" ]; then
    detect=$(awk -v a="$dstamp" -v b="$tkill" 'BEGIN { printf "%.3f", a - b }')
    killat=$(awk -v a="$into" -v b="$detect" 'BEGIN { printf "%.3f", a - b }')
  fi
  ms=$(csvcol "$d/fault.csv" makespan_s)
  refms=$(csvcol "$d/ref.csv" makespan_s)
  [ -n "$ms" ] && [ -n "$refms" ] && pen=$(awk -v a="$ms" -v b="$refms" 'BEGIN { if (b > 0) printf "%.3f", a / b }')
  local probs=()
  [ -z "$tkill" ] && probs+=("no kill")
  [ -n "$tkill" ] && [ -z "$det" ] && probs+=("no detection")
  [ "$(csvcol "$d/fault.csv" verified)" = yes ] || probs+=("not verified")
  [ "$(csvcol "$d/ref.csv" verified)" = yes ] || probs+=("reference not verified")
  [ "$1" = farm ] && [ -n "$det" ] && [ "$dhost" != "$9" ] && probs+=("host $dhost failed instead of $9")
  [ -n "$left" ] && probs+=("leftovers")
  [ ${#probs[@]} -gt 0 ] && st=$(IFS=';'; echo "${probs[*]}")
  echo "$1,$2,$3,$4,$5,$6,$7,$killat,$9,$dhost,$detect,$(csvcol "$d/fault.csv" verified),$(csvcol "$d/fault.csv" crashed),$(csvcol "$d/fault.csv" reruns),$(csvcol "$d/fault.csv" duplicates),$ms,$mwall,$refms,$refcpu,$pen,$(csvcol "$d/ref.csv" verified),$mrc,${left// /;},$st" >>"$csv"
  tail -1 "$csv" | awk -F, '{ printf "%-7s %-6s %-10s %-6s seed %-4s kill %6s s host %s: detect %6s s, %s, %s reruns, %s dups, penalty %s  %s\n",
    $1, $2, $3, $4, $5, $8, $9, $11, $12 == "yes" ? "verified" : "NOT VERIFIED", $14, $15, $20, $24 }' >&2
}

vmseq=0
# target FRAC CPU: the CPU seconds at which to kill (at least 0.01).
target() { awk -v f="$1" -v c="${2:-0}" 'BEGIN { t = f * c; printf "%.2f", t < 0.01 ? 0.01 : t }'; }
size_primes=30000000 size_matmul=4000
if [ $farm = 1 ]; then
  for w in $workloads; do
    case $w in primes) size=$size_primes ;; matmul) size=$size_matmul ;; *) echo "$0: unknown workload $w" >&2; exit 2 ;; esac
    for i in $(seq 0 $((n - 1))); do
      s=$((seed0 + i)) p=${policies[i % 6]} m=${modes[(i / 6) % 2]}
      d=$out/logs/$w-$p-$m-$s
      mkdir -p "$d"
      args=(--workload "$w" --size "$size" --procs 48 --hosts 6 --policy "$p" --results "$m" --speeds 0.30
        --init one --seed "$s" --timeout 60)
      one_farm "$d" ref "" "" "${args[@]}"
      lref=$left refcpu=$cpu
      read -r u v <<<"$(draw "$s")"
      frac=$(awk -v u="$u" 'BEGIN { printf "%.3f", 0.05 + 0.75 * u }')
      one_farm "$d" fault "$(target "$frac" "$refcpu")" "$v" "${args[@]}"
      left="$lref${lref:+ }$left"
      row farm "$w" "$p" "$m" "$s" KILL "$frac" "$d" "$v"
    done
  done
fi
for k in $(seq 1 "$ctrials"); do cluster_pair "$csig" $((seed0 + 1000 + k)) "$out/logs/cluster-$csig-$k"; done
summarise
