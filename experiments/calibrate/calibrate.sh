#!/usr/bin/env bash
# Calibrate the simulator to the PVM farm and compare: for every farm run
# of experiments/seed000/fig34.sh (six hosts on ring:6, all processes
# from host 0, the same C), lbsim runs the same policy, topology, start,
# capacities and result mode with the farm's costs measured on this
# machine, and predicts makespan / ideal; the farm's own figure is
# lbmaster's ratio at the CPU share received (ratio_received).
#
# Costs, each measured here (docs/SIMULATOR.md, "Calibration"):
#   quantum   10 ms of CPU (lbmaster's default), i.e. 0.01 / s wall
#             at a received share s;
#   speeds    each host's received share in that run (cpu_s / busy_s of
#             lbmaster --hosts-csv); the sim's ideal is then the farm's
#             ideal_received_s;
#   work      each process's CPU seconds: the farm run's total (ideal x
#             sum of nominal speeds), shared among the processes as
#             proc_costs measures them alone (primes), or by units (matmul);
#   messages  CPU seconds per message handled and per byte, fitted by
#             least squares to every host's msg_s x share in every run
#             against the messages and bytes of its --trace (hostmsg.awk,
#             regress.awk), given to lbsim as wall time at the run's mean
#             share; latency and bandwidth from farm_pingpong --pvmd (the
#             route workers use between them);
#   contexts  bytes per migration (ctx_bytes / migrations of the run);
#   results   bytes per result (DELIVER rows of the run's trace);
#   hop time  lbmaster's, the run's hop_time column (35.3 ms at 0.30);
#   set-up    matmul: each host that ran a process spent SETUP ms of CPU
#             once (it builds B's rows there; lbsim --host-setup),
#             scaled by B's size, (n / 2231)^2, and taken out of the
#             processes' work (default 30: holdout.sh's fit on the
#             tournament's farm runs at n = 2231, so here a prediction).
# Fit and prediction: the message costs are fitted on the runs of odd
# seeds (fig34.sh's seed is the run number: 1, 3) and predict the
# runs of even seeds (2); compare.csv says which half each run is in,
# and calibration.md counts both halves.
# Two predictions: "sim" (messages between hosts only, as lbsim models
# them) and "sim+deliver" (direct mode: each result's hand-over to the
# master, at the fitted cost, added to the last quantum of its process).
#
# Usage: experiments/calibrate/calibrate.sh [OPTION]...
#   --runs DIR       fig34.sh's output (default out/seed000)
#   -o, --out DIR    output directory (default out/calibrate)
#   --pingpong-only  measure farm_pingpong --pvmd (the route a context
#                    takes between workers) into DIR/pingpong.csv and stop
#   --no-pingpong    skip farm_pingpong: use DIR/pingpong.csv if there is
#                    one, else latency 5e-05 s and 300 MB/s
#   --timeout S      bound on each program run, seconds (default 600)
#   --setup MS       matmul's per-host set-up at n = 2231, CPU ms (default 30)
#   --mean-share     every host at the run's mean received share, not its
#                    own (what the per-host shares add to the prediction)
# Run from the build directory (LBSIM names another lbsim).  Writes, in DIR: pingpong.csv,
# hostmsg.csv, msgcost.txt, costs/ (per-process costs), loads/ (lbsim
# trace: files), compare.csv (one row per farm run), response.csv
# (RMTLB's one-hop response times, farm and lbsim), calibration.md,
# calib.{png,svg,pdf} (predicted against measured, +-10 % band).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
lb_top=$src
. "$lb_top/scripts/lib.sh"
runsdir=out/seed000; out=out/calibrate; pp=1; tmo=600; setup_ms=30; meanshare=; pponly=
die() { echo "$0: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case $1 in
  -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
  --runs) runsdir=${2:?}; shift 2 ;;
  -o|--out) out=${2:?}; shift 2 ;;
  --no-pingpong) pp=; shift ;;
  --pingpong-only) pponly=1; shift ;;
  --mean-share) meanshare=1; shift ;;
  --setup) case ${2:-} in ''|*[!0-9.]*) die "--setup wants CPU milliseconds" ;; esac; setup_ms=$2; shift 2 ;;
  --timeout) case ${2:-} in ''|*[!0-9]*|0) die "--timeout wants seconds" ;; esac; tmo=$2; shift 2 ;;
  *) die "unknown argument '$1' (--help)" ;;
  esac
done
[ -n "$pponly" ] || [ -s "$runsdir/runs.csv" ] || die "no $runsdir/runs.csv: run experiments/seed000/fig34.sh first"
lbsim=${LBSIM:-$(lb_built sim/lbsim)} || true
[ -x "$lbsim" ] || die "$lbsim: not built (run scripts/setup.sh, or set LBSIM)"
command -v gnuplot >/dev/null || die "gnuplot not found"
lb_init
build=$(cd "$(dirname "$(lb_built sim/lbsim)")/.." && pwd)
make -s -C "$build" experiments/calibrate/proc_costs experiments/bench/farm_pingpong
[ -d "$runsdir" ] && runsdir=$(cd "$runsdir" && pwd); mkdir -p "$out/costs" "$out/loads"; out=$(cd "$out" && pwd)

# 1. latency and bandwidth between two tasks (a private pvmd)
lat=5e-05; bw=3e8
if [ -n "$pp" ]; then
  lb_private_vm cal
  ( pvmd >/dev/null 2>&1 & sleep 0.5
    timeout --foreground "$tmo" "$build/experiments/bench/farm_pingpong" --pvmd . . 2>/dev/null |
      sed -n 's/^\(\[[^]]*\] \)*//; /^\(transport\|pvm-\)/p' | grep -v 'BEGIN\|EOF\|libpvm' |
      cut -d, -f2- >"$out/pingpong.csv" || true
    echo halt | pvm >/dev/null 2>&1 || true )
  lb_vm_cleanup "$PVM_TMP"
fi
if [ -s "$out/pingpong.csv" ]; then   # this run's, or (--no-pingpong) an earlier one
  if [ "$(wc -l <"$out/pingpong.csv")" -ge 3 ]; then
    lat=$(awk -F, '$1 == 8 { printf "%.3g", $2 / 2 * 1e-6 }' "$out/pingpong.csv")
    # the middle of the three largest sizes' throughputs (the route is noisy)
    bw=$(awk -F, 'NR > 1 { b[NR] = $3 } END { x = b[NR - 2]; y = b[NR - 1]; z = b[NR]
      m = (x - y) * (y - z) >= 0 ? y : (y - x) * (x - z) >= 0 ? x : z; printf "%.3g", m * 1e6 }' "$out/pingpong.csv")
  else echo "$0: farm_pingpong gave nothing; latency $lat s, bandwidth $bw B/s" >&2; fi
fi

if [ -n "$pponly" ]; then
  [ -s "$out/pingpong.csv" ] || lb_die "farm_pingpong gave nothing"
  echo "load: $(cut -d' ' -f1-3 /proc/loadavg)" >"$out/pingpong-load.txt"
  echo "$0: wrote $out/pingpong.csv"; exit 0
fi

# 2. the runs, one line each: tag workload size policy results rep ideal ratio_received ctx migrations
plan=$out/plan.txt
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
  $c["verified"] == "yes" { t = $c["hosts_csv"]; sub(/^hosts\//, "", t); sub(/\.csv$/, "", t)
    print t, $c["workload"], $c["size"], $c["policy"], $c["results"], $c["rep"], $c["ideal_s"],
          $c["ratio_received"], $c["ctx_bytes"], $c["migrated"], $c["procs"], $c["hop_time"] }' "$runsdir/runs.csv" >"$plan"

# 3. per-process cost shapes (cached)
awk '{ print $2, $3, $11 }' "$plan" | sort -u | while read -r w n np; do
  f=$out/costs/$w-$n-$np.csv
  [ -s "$f" ] && continue
  # (a pipeline's subshell: the command stays in the foreground, where Ctrl-C reaches it)
  if [ "$w" = primes ]; then timeout --foreground "$tmo" "$build/experiments/calibrate/proc_costs" primes "$n" "$np" >"$f.tmp"
  else "$build/experiments/calibrate/proc_costs" --units matmul "$n" "$np" >"$f.tmp"; fi
  mv "$f.tmp" "$f"
done

# 4. message costs: every host of every run with a trace
: >"$out/hostmsg.csv"
while read -r tag _; do
  [ -s "$runsdir/traces/$tag.csv" ] && [ -s "$runsdir/hosts/$tag.csv" ] || continue
  awk -F, -v tag="$tag" -f "$here/hostmsg.awk" "$runsdir/traces/$tag.csv" "$runsdir/hosts/$tag.csv" >>"$out/hostmsg.csv"
done <"$plan"
# fitted on the odd seeds' runs only (tags end in -rREP)
fit() { awk -F, '{ r = $1; sub(/.*-r/, "", r) } r % 2 == 1' "$out/hostmsg.csv"; }
fit | awk -F, -v cpu=1 -f "$here/regress.awk" >"$out/msgcost.txt"
{ for w in matmul primes; do
    fit | grep "^$w-" | awk -F, -v cpu=1 -f "$here/regress.awk" | sed "s/^/$w, CPU: /" || true
  done
  fit | awk -F, -f "$here/regress.awk" | sed "s/^/all, wall: /"; } >>"$out/msgcost.txt"
cm=$(sed -n 's/^cost_msg_s=//p' "$out/msgcost.txt"); cb=$(sed -n 's/^cost_byte_s=//p' "$out/msgcost.txt")
cd_=$(sed -n 's/^cost_deliver_byte_s=//p' "$out/msgcost.txt")
awk -v l="$lat" -v b="$bw" 'BEGIN { printf "latency_s=%s\nbandwidth_Bps=%s\n", l, b }' >>"$out/msgcost.txt"

# 5. lbsim for every run, twice (without and with the hand-over to the master)
sim1() { # tag policy results rep work costs ctx_bytes result_bytes extra speeds quantum setup hop [msg-trace]
  local load=$out/loads/$1.txt tr=${14:+--msg-trace ${14}}
  awk -F, -v W="$5" -v add="$9" 'NR == 1 { next } { u[NR] = ($3 == "" ? $2 : $3); s += u[NR] }
    END { for (k = 2; k <= NR; k++) printf "0 0 %.9g\n", W * u[k] / s + add }' "$6" >"$load"
  timeout --foreground "$tmo" "$lbsim" --profile farm --policy "$2" --topology ring:6 --load "trace:$load" -C 8 \
    --speeds "${10}" --quantum "${11}" --latency "$lat" --jitter 0.5 --bandwidth "$bw" --cost-msg "$cmw" \
    --cost-byte "$cbw" --ctx-bytes "$7" --result-bytes "$8" --hop-time "${13}" --period 0.05 --host-setup "${12}" \
    --results "$3" --seed "$4" $tr --csv | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
      { print $c["makespan"], $c["ideal"], $c["messages"], $c["migrated"], $c["migrated_started"] }'
}
echo "tag,workload,size,policy,results,rep,farm_ratio_received,sim_ratio,sim_deliver_ratio,sim_msgs,sim_migrated,sim_migrated_started,ideal_received_s,half" >"$out/compare.csv"
echo "tag,farm_n,farm_p10_s,farm_median_s,farm_p90_s,sim_n,sim_p10_s,sim_median_s,sim_p90_s" >"$out/response.csv"
total=$(wc -l <"$plan"); k=0
while read -r tag w n p m rep ideal rr ctx mig np hop; do
  k=$((k + 1)); [ -t 2 ] && printf '\r%s: lbsim %d/%d   ' "${0##*/}" $k $total >&2
  h=$runsdir/hosts/$tag.csv; t=$runsdir/traces/$tag.csv
  speeds=$(awk -F, 'NR > 1 { printf "%s%.6g", (NR > 2 ? "," : ""), $4 }' "$h")
  read -r nominal mean <<<"$(awk -F, 'NR > 1 { a += $3; b += $4; k++ } END { print a, b / k }' "$h")"
  [ -n "$meanshare" ] && speeds=$(awk -F, -v m="$mean" 'NR > 1 { printf "%s%.6g", (NR > 2 ? "," : ""), m }' "$h")
  q=$(awk -v s="$mean" 'BEGIN { printf "%.6g", 0.01 / s }')
  cmw=$(awk -v c="$cm" -v s="$mean" 'BEGIN { printf "%.6g", c / s }')
  cbw=$(awk -v c="$cb" -v s="$mean" 'BEGIN { printf "%.6g", c / s }')
  # matmul's set-up, CPU seconds, on every host that ran a process; out of the processes' work
  su=0; [ "$w" = matmul ] && su=$(awk -v ms="$setup_ms" -v n="$n" 'BEGIN { printf "%.6g", ms / 1000 * (n / 2231) ^ 2 }')
  ran=$(awk -F, 'NR > 1 && $11 > 0 { k++ } END { print k + 0 }' "$h")
  W=$(awk -v i="$ideal" -v s="$nominal" -v su="$su" -v h="$ran" 'BEGIN { w = i * s - h * su; if (w < 0.1 * i * s) w = 0.1 * i * s; printf "%.9g", w }')
  # lbsim's ideal leaves the set-ups out; the ratio is over the farm's (all the CPU)
  fr=$(awk -v i="$ideal" -v s="$nominal" -v w="$W" 'BEGIN { printf "%.9g", w / (i * s) }')
  half=fit; [ $((rep % 2)) = 0 ] && half=held-out
  ctxb=$(awk -v c="$ctx" -v m="$mig" 'BEGIN { printf "%d", (m > 0 ? c / m : 200) }')
  if [ -s "$t" ]; then res=$(awk -F, '$3 == "DELIVER" { b += $11; k++ } END { printf "%d", k ? b / k : 64 }' "$t")
  elif [ "$w" = matmul ]; then res=$((8 * n * n / np)); else res=64; fi   # a run without its trace
  # the hand-over of one result to the master, as CPU work at the mean share
  dw=$(awk -v m="$m" -v cm="$cm" -v cd="$cd_" -v r="$res" 'BEGIN { printf "%.9g", (m == "direct" ? cm + cd * r : 0) }')
  cf=$out/costs/$w-$n-$np.csv
  read -r ms1 id1 msgs migr mst <<<"$(sim1 "$tag" "$p" "$m" "$rep" "$W" "$cf" "$ctxb" "$res" 0 "$speeds" "$q" "$su" "$hop" \
                                       "$([ "$p" = rmtlb ] && echo "$out/simtrace.csv")")"
  if [ "$p" = rmtlb ] && [ -s "$t" ]; then   # one-hop response times, farm and lbsim
    # a trace's head (its "#" lines and the column line), then its rows by time
    sorted() { awk '/^#/ { next } { print; exit }' "$1"; grep -v '^#' "$1" | tail -n +2 | sort -t, -k1,1g; }
    echo "$tag,$(sorted "$t" | awk -F, -f "$here/response.awk"),$(sorted "$out/simtrace.csv" | awk -F, -f "$here/response.awk")" >>"$out/response.csv"
  fi
  read -r ms2 _ _ _ _ <<<"$(sim1 "$tag" "$p" "$m" "$rep" "$W" "$cf" "$ctxb" "$res" "$dw" "$speeds" "$q" "$su" "$hop")"
  awk -v a="$tag,$w,$n,$p,$m,$rep,$rr" -v m1="$ms1" -v i1="$id1" -v m2="$ms2" -v x="$msgs,$migr,$mst" \
    -v hf="$half" -v fr="$fr" \
    'BEGIN { printf "%s,%.6f,%.6f,%s,%.6g,%s\n", a, m1 / i1 * fr, m2 / i1 * fr, x, i1 / fr, hf }' >>"$out/compare.csv"
done <"$plan"
rm -f "$out/simtrace.csv"
[ -t 2 ] && echo >&2
awk -F, -f "$here/report.awk" "$out/compare.csv" >"$out/calibration.md"
awk -F, -f "$here/halves.awk" "$out/compare.csv" >>"$out/calibration.md"
awk -F, -f "$here/response_report.awk" "$out/response.csv" >>"$out/calibration.md"
lb_plot "$out" "$here/calib.gp" "outdir='$out'"
echo "$0: wrote $out/msgcost.txt, $out/compare.csv, $out/calibration.md"
echo "$0: wrote $out/calib.png, $out/calib.svg, $out/calib.pdf"
