#!/usr/bin/env bash
# The simulator as a prediction: fit on one half of the farm's runs,
# predict the other half.  Reads the PVM farm runs of
# experiments/tournament/farm.sh (runs.csv: six hosts, ring:6 and
# complete:6, primes and matmul, skewed and all-on-one starts, eleven
# policies, seeds 1..K) and replays each run in lbsim:
#   the same topology, start, policy setting, seed and result mode;
#   work     the run's own CPU seconds (lbmaster's ideal_s x the six
#            nominal speeds), shared among the processes by the
#            workload's cost model (common.sh, simtrace), less the
#            hosts' set-up (below);
#   speeds   each host's own received share (CPU over wall time in its
#            quanta: the share column of the run's hosts/TAG.csv, which
#            farm.sh keeps), so this is a replay of the CPU the hosts
#            got; with --mean-share, or for a set without hosts/ (farm.sh
#            before it kept them), the run's mean received share, every
#            host alike (0.30 x ideal_s / ideal_received_s); the quantum
#            is 10 ms of CPU at the mean share; lbsim gets them as
#            --rates, and lbmaster's speeds as the --speeds its policies
#            plan with (--known below);
#   hop time lbmaster's (its hop_time column: 35.3 ms at 0.30);
#   messages the costs measured on seed 000's runs (docs/SIMULATOR.md,
#            "Calibration": 0.19 ms of CPU per message, 0.95 ns per
#            byte) at the run's share; contexts: for matmul 80 bytes
#            (its descriptor) until the process has run, then its
#            block's partial sums, 8 n^2 / procs bytes more (lbsim
#            --ctx-bytes-started; --contexts mean: the run's own bytes
#            per migration for every one, as primes always); results:
#            8 n^2 / procs bytes (matmul), each
#            handed to the master at the fitted cost (0.86 ns a byte),
#            added to its process;
#   set-up   fitted, per workload: CPU seconds a host spends once,
#            before its first quantum (lbsim --host-setup; matmul
#            builds the rows of B it multiplies by there), taken out of
#            the processes' work for each host that ran work (the
#            hosts table's units > 0; without one: six, or for none
#            the hosts its start loads);
#   per byte fitted, per workload: CPU per byte of every message,
#            contexts included (seed 000's fit, 0.95 ns, is the first
#            candidate; a matmul context, the block's partial sums, is
#            packed and unpacked by PVM).
# The fit: on the runs of the odd seeds (1, 3, 5, ...), the pair of
# SETUPS (CPU ms) and BYTES (CPU ns per byte) that puts most runs
# within 10 % of the farm's makespan (ties: the smaller median error);
# the prediction: the runs of the even seeds with that pair.  The makespan is compared as
# makespan / ideal at the received share (lbmaster's ratio_received
# against lbsim's makespan over the same ideal).
#
# Usage: experiments/calibrate/holdout.sh [OPTION]...
#   --runs DIR       farm.sh's output (default out/tournament-farm)
#   -o, --out DIR    output directory (default out/holdout)
#   --setups "MS..." set-up candidates, CPU ms (default "0 10 20 30 40")
#   --bytes "NS..."  per-byte candidates, CPU ns (default "0.95 3 10")
#   --bandwidths "MB/S..."  transit candidates: a message's bytes cross
#                    at this rate besides their CPU (lbsim --bandwidth;
#                    the pvmds' route between throttled workers), 0 for
#                    none, pack for the rate at which the sender handles
#                    them (lbsim --bandwidth pack: 1 / the cost a byte, so
#                    a message leaves once its sender has packed it, as a
#                    worker writes it whole into its pvmd; no parameter of
#                    its own) (default "0")
#   --shares MODE    rate (default): each host at its own share, and for
#                    matmul times its CPU's yield (units per CPU second,
#                    over the run's); paused: as rate, with the share
#                    taken over the quanta and the cgroup's pauses after
#                    them; host: its own share only; mean:
#                    every host at the run's mean share, even where the
#                    run's hosts table is there (what that table adds)
#   --mean-share     --shares mean
#   --known MODE     nominal (default): the policies plan with the
#                    speeds lbmaster gave its hosts (its speeds column,
#                    0.30), as on the farm, and the replayed shares are
#                    only the CPU the hosts get (lbsim --rates); replay:
#                    the replayed shares are the speeds the policies
#                    know too (before 2026-11-26 19:20; CCHSPMD's plan,
#                    which shares the processes in proportion to the
#                    speeds, then differs from the farm's)
#   --sim-seeds K    replay each run K times, lbsim's seed the run's plus
#                    0, 1000, ... (its jitter and random choices; the farm's
#                    run is one draw of its own), and predict with the mean
#                    ratio (default 1: the run's seed only); each draw is in
#                    seeds.csv
#   --msg-traces DIR keep lbsim's trace of every replay (--msg-trace) in
#                    DIR, as TAG-SETUP-BYTES-BW.csv (TAG: the farm run's,
#                    as in its hosts/)
#   --contexts MODE  grow (default): matmul's context grows once its
#                    process has run; mean: every migration carries the
#                    run's mean bytes (ctx_bytes / migrated)
# Run from the build directory (LBSIM names another lbsim).  Writes, in
# DIR: replay.csv (one row per farm run and candidate; `shares` says
# rate, host or mean), fit.csv (per
# workload and candidate: runs within 10 % in each half), holdout.md
# (the chosen value, both halves, by workload and policy).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
lb_top=$(cd "$here/../.." && pwd)
. "$lb_top/scripts/lib.sh"
. "$lb_top/experiments/tournament/common.sh"
runsdir=out/tournament-farm out=out/holdout setups="0 10 20 30 40" bytes="0.95 3 10" bws=0 mode=rate ctxmode=grow known=nominal tdir="" ksim=1
die() { echo "$0: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case $1 in
  -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
  --runs) runsdir=${2:?}; shift 2 ;;
  -o|--out) out=${2:?}; shift 2 ;;
  --setups) setups=${2:?}; shift 2 ;;
  --bytes) bytes=${2:?}; shift 2 ;;
  --bandwidths) bws=${2:?}; shift 2 ;;
  --mean-share) mode=mean; shift ;;
  --shares) mode=${2:?}; shift 2 ;;
  --contexts) ctxmode=${2:?}; shift 2 ;;
  --known) known=${2:?}; shift 2 ;;
  --msg-traces) tdir=${2:?}; shift 2 ;;
  --sim-seeds) ksim=${2:?}; shift 2 ;;
  *) die "unknown argument '$1' (--help)" ;;
  esac
done
case $mode in rate|paused|host|mean) ;; *) die "--shares: rate, paused, host or mean, not '$mode'" ;; esac
case $ctxmode in grow|mean) ;; *) die "--contexts: grow or mean, not '$ctxmode'" ;; esac
case $known in nominal|replay) ;; *) die "--known: nominal or replay, not '$known'" ;; esac
case $ksim in ''|*[!0-9]*|0) die "--sim-seeds: '$ksim' is not a positive count" ;; esac
for v in $bytes; do case $v in ''|*[!0-9.]*) die "--bytes: '$v' is not a number of ns" ;; esac; done
for v in $bws; do case $v in pack) ;; ''|*[!0-9.]*) die "--bandwidths: '$v' is not a number of MB/s, nor pack" ;; esac; done
for v in $setups; do case $v in ''|*[!0-9.]*) die "--setups: '$v' is not a number of ms" ;; esac; done
[ -s "$runsdir/runs.csv" ] || die "no $runsdir/runs.csv: run experiments/tournament/farm.sh first"
lbsim=${LBSIM:-$(lb_built sim/lbsim)} || true
[ -x "$lbsim" ] || die "$lbsim: not built (run scripts/setup.sh, or set LBSIM)"
lb_init
mkdir -p "$out" || die "cannot create $out"
out=$(cd "$out" && pwd)
if [ -n "$tdir" ]; then mkdir -p "$tdir" || die "cannot create $tdir"; fi
stage=$(mktemp -d "$out/.run.XXXXXX") || lb_die "cannot write in $out"
lb_on_exit "rm -rf '$stage'"
# measured on seed 000's farm runs (docs/SIMULATOR.md), CPU seconds
cm=0.00019 cd=8.6e-10 q=0.01

# one line per verified run: the labels, then lbmaster's columns by name
# (the labels repeat some names: the first of lbmaster's is at field 8)
awk -F, 'NR == 1 { for (i = 8; i <= NF; i++) if (!($i in c)) c[$i] = i; next }
  $c["verified"] == "yes" && $c["ratio_received"] != "" {
    print $2, $3, $4, $5, $6, $7, $c["seed"], $c["ideal_s"], $c["ideal_received_s"], $c["ratio_received"],
          $c["ctx_bytes"], $c["migrated"], $c["procs"], $c["size"], $c["hop_time"], $c["speeds"] }' \
  "$runsdir/runs.csv" >"$stage/plan"
[ -s "$stage/plan" ] || lb_die "no verified run in $runsdir/runs.csv"

echo "topology,L,workload,start,policy,cfg,seed,half,setup_ms,byte_ns,bw_mbs,share,farm_ratio,sim_ratio,error,shares" >"$stage/replay.csv"
echo "topology,L,workload,start,policy,cfg,seed,setup_ms,byte_ns,bw_mbs,sim_seed,sim_ratio" >"$stage/seeds.csv"
tr=$stage/trace total=$(wc -l <"$stage/plan") k=0
while read -r topo L wl st pol cfg seed ideal idr rr ctx mig np n hop nominal; do
  k=$((k + 1)); [ -t 2 ] && printf '\r%s: run %d/%d   ' "${0##*/}" $k $total >&2
  half=fit; [ $((seed % 2)) = 0 ] && half=held-out
  sl=$st; [ "$st" = skewed ] && sl=skew
  args=""
  [ "$pol" = none ] || args=$(grid "$pol" "$L" "$(degree "$topo")" | awk -v c="$cfg" '$1 == c { $1 = ""; print; exit }')
  # the run's mean received share; its CPU seconds; hosts that ran work
  s=$(awk -v a="$ideal" -v b="$idr" -v v="$nominal" 'BEGIN { printf "%.6g", v * a / b }')
  hosts=6; [ "$pol" = none ] && { [ "$st" = one ] && hosts=1 || hosts=5; }
  speeds="$s,$s,$s,$s,$s,$s" shares=mean
  hf=$runsdir/hosts/$(runtag "$topo" "$L" "$wl" "$st" "$pol" "$cfg" "$seed").csv
  if [ "$mode" != mean ] && [ -s "$hf" ]; then
    # each host's share (rate, matmul: times its CPU's yield, units per
    # CPU second against the run's: matmul's units all cost the same, and
    # a host's set-up and its cache's luck are in its yield); the set-up
    # on the hosts that ran work
    # (paused: the share over the wall time of its quanta and of the
    # cgroup's pauses after them, span less messages and idle time, where
    # that is longer than the quanta: the host could run nothing then)
    read -r speeds hosts <<<"$(awk -F, -v rate=$([ "$mode" != host ] && [ "$wl" = matmul ] && echo 1) -v paused=$([ "$mode" = paused ] && echo 1) '
      NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
      { k++; sh[k] = $c["share"]; u[k] = $c["units"]; t[k] = $c["cpu_s"]; if (u[k] > 0) { h++; U += u[k]; C += t[k] }
        w = $c["span_s"] - $c["msg_s"] - $c["idle_s"]
        if (paused && t[k] > 0 && w > $c["busy_s"]) sh[k] = t[k] / w }
      END { for (i = 1; i <= k; i++) { f = rate && u[i] > 0 && t[i] > 0 && U > 0 ? (u[i] / t[i]) / (U / C) : 1
              printf "%s%.6g", (i > 1 ? "," : ""), sh[i] * f }
            printf " %d\n", h }' "$hf")"
    [ "$(echo "$speeds" | tr , '\n' | wc -l)" = 6 ] || lb_die "$hf: not six hosts"
    shares=host; [ "$mode" != host ] && shares=$mode
  fi
  # what the policies know: lbmaster's speeds, or the replayed shares
  spargs="--speeds $speeds"
  # (lbmaster's speeds column: one value when all are alike, else a;b;...)
  nom=$nominal; case $nom in *\;*) nom=$(echo "$nom" | tr ';' ,) ;; *) nom="$nom,$nom,$nom,$nom,$nom,$nom" ;; esac
  [ "$known" = nominal ] && spargs="--speeds $nom --rates $speeds"
  ctxb=$(awk -v c="$ctx" -v m="$mig" 'BEGIN { printf "%d", (m > 0 && c > 8 * m ? c / m : 8) }')
  if [ "$wl" = matmul ]; then resb=$((8 * n * n / np)); else resb=32; fi
  ctxargs="--ctx-bytes $ctxb"
  [ "$wl" = matmul ] && [ "$ctxmode" = grow ] && ctxargs="--ctx-bytes 80 --ctx-bytes-started $((80 + resb))"
  for W in $bws; do
  bwq=pack; [ "$W" = pack ] || bwq=$(awk -v w="$W" -v q="$q" 'BEGIN { printf "%.6g", w * 1e6 * q }')   # bytes per time unit
  for B in $bytes; do for S in $setups; do
    cb=$(awk -v b="$B" 'BEGIN { printf "%g", b * 1e-9 }')
    # work in CPU quanta: the run's CPU less the hosts' set-ups, plus each
    # result's hand-over to the master
    mean=$(awk -v a="$ideal" -v v="$nominal" -v np="$np" -v S="$S" -v h="$hosts" -v q="$q" \
      -v cm="$cm" -v cd="$cd" -v r="$resb" 'BEGIN { w = (a * 6 * v - h * S / 1000) / np
        if (w < 0.1 * a * 6 * v / np) w = 0.1 * a * 6 * v / np
        printf "%.6g", (w + cm + cd * r) / q }')
    simtrace "$wl" "$st" "$np" "$n" "$mean" >"$tr"
    rs="" r=""
    for j in $(seq 0 $((ksim - 1))); do
    ss=$((seed + 1000 * j)) targ=""
    # (the trace of the run's own seed; a path without blanks)
    [ -z "$tdir" ] || [ "$j" != 0 ] || targ="--msg-trace $tdir/$(runtag "$topo" "$L" "$wl" "$st" "$pol" "$cfg" "$seed")-$S-$B-$W.csv"
    # shellcheck disable=SC2046,SC2086
    r=$(timeout --foreground 120 "$lbsim" --profile farm --results direct --policy $(polarg "$pol") -t "$topo" \
        -l "trace:$tr" -s "$ss" $spargs \
        --quantum "$(awk -v s="$s" 'BEGIN { printf "%.6g", 1 / s }')" \
        --hop-time "$(awk -v h="$hop" -v q="$q" 'BEGIN { printf "%.6g", h / q }')" \
        --cost-msg "$(awk -v c="$cm" -v s="$s" -v q="$q" 'BEGIN { printf "%.6g", c / s / q }')" \
        --cost-byte "$(awk -v c="$cb" -v s="$s" -v q="$q" 'BEGIN { printf "%.6g", c / s / q }')" \
        --host-setup "$(awk -v S="$S" 'BEGIN { printf "%g", S / 10 }')" \
        --bandwidth "$bwq" \
        $ctxargs --result-bytes "$resb" $args \
        $targ --csv 2>/dev/null |
      awk -F, -v idr="$idr" -v q="$q" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $c["violations"] == 0 { printf "%.6f", $c["makespan"] * q / idr }') || r=""
    [ -n "$r" ] || break
    echo "$topo,$L,$wl,$st,$pol,$cfg,$seed,$S,$B,$W,$ss,$r" >>"$stage/seeds.csv"
    rs="$rs $r"
    done
    [ -z "$r" ] || r=$(echo $rs | awk '{ for (i = 1; i <= NF; i++) t += $i; printf "%.6f", t / NF }')
    [ -n "$r" ] || { echo "$0: lbsim failed on $topo $L $wl $st $pol $cfg seed $seed" >&2; continue; }
    echo "$topo,$L,$wl,$st,$pol,$cfg,$seed,$half,$S,$B,$W,$s,$rr,$r,$(awk -v a="$r" -v b="$rr" 'BEGIN { printf "%.4f", a / b - 1 }'),$shares" >>"$stage/replay.csv"
  done; done; done
done <"$stage/plan"
[ -t 2 ] && echo >&2
rm -f "$tr"

# per workload and set-up: runs within 10 % in each half, median |error|
awk -F, -f "$here/holdout_fit.awk" "$stage/replay.csv" >"$stage/fit.csv"
awk -F, -f "$here/holdout_report.awk" "$stage/fit.csv" "$stage/replay.csv" >"$stage/holdout.md"
{ echo "command: $lb_argv"; echo "runs: $runsdir/runs.csv ($total verified)"
  echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"; } >>"$stage/holdout.md"
for f in replay.csv seeds.csv fit.csv holdout.md; do lb_commit "$stage/$f" "$out/$f"; done
echo "$0: wrote $out/replay.csv, $out/seeds.csv, $out/fit.csv, $out/holdout.md"
