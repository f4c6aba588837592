#!/bin/sh
# Calibration points long enough to repeat, predicted on held-out seeds.
# Runs experiments/tournament/farm.sh on a subset of the tournament's
# cells that covers migrations in both workloads (ring:6 and complete:6,
# the skewed and all-on-one starts, the policies below, seeds 1..K in
# one go), L processes a host (default 32: runs of 4 a host turn on a
# few timing-dependent decisions and the farm repeats them too loosely
# for a 10 % test, docs/SIMULATOR.md), farm.sh keeping each run's
# per-host table.  Then, per workload, holdout.sh fits on the odd seeds
# and predicts the even ones, each host at its own share and again at the
# run's mean share, with each host's own share, with that share also
# over the cgroup's pauses, and (matmul) times each host's CPU yield
# (holdout.sh --shares host, paused, rate), and decompose.sh splits every
# run's error into the farm's noise, the shares and the model.
# Usage: experiments/calibrate/points.sh [OPTION]...
#   -o, --out DIR     output directory (default out/points)
#   --seeds K         seeds per cell (default 4: 1, 3 fit; 2, 4 held out)
#   --policies LIST   (default "none rmtlb lowest dasud cchspmd steal")
#   --per-host L      processes a host (default 32)
#   --matmul-ms MS, --primes-ms MS  a process's CPU by farm.sh's size
#                     model (default 50 and 50: matmul n = 4463 at 32 a
#                     host; the sets of 2026-11-26 before points5 were
#                     --per-host 4 --matmul-ms 400 --primes-ms 100)
#   --repeat          run the farm twice (DIR/farm-W-b as well): the farm
#                     against itself on the same cells and seeds
#                     (decompose.sh --pairs: held10, what a model that
#                     were the farm would score on the held-out seeds)
#   --no-farm         reuse DIR/farm-matmul and DIR/farm-primes
#   --no-replay       reuse the holdout-* directories too (the split and
#                     points.md only)
#   --matmul-setups "MS..."  holdout.sh's set-up candidates for matmul
#                     (default "0 25 50")
#   --matmul-bytes "NS..."   its CPU ns a byte (default "0.5 1 2 3")
#   --bandwidths "MB/S..."  its transit candidates for matmul (default
#                     "0 50 200 pack"; primes: none)
# The matmul grid is the one fixed before points4 and points5 ran.
# Writes, in DIR: farm-W/ (farm.sh), holdout-W/ (--shares rate) and
# holdout-W-MODE/ (holdout.sh), decompose-W-MODE/ (decompose.sh, MODE
# against mean) for W = matmul, primes, and points.md (the held-out
# counts of every replay, the error split, the loads).
# About 12 minutes of farm runs for matmul and 14 for primes at 32 a
# host (2026-11-26, load 2-3), twice that with --repeat; lbsim's
# replays (about 30 minutes) run under nice.
set -eu
lb_top=$(cd "$(dirname "$0")/../.." && pwd)
. "$lb_top/scripts/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
die() { echo "$0: $*" >&2; exit 2; }
out=out/points seeds=4 pols="none rmtlb lowest dasud cchspmd steal" farm=1 msetups="0 25 50" mbytes="0.5 1 2 3"
bws="0 50 200 pack" L=32 mms=50 pms=50 repeat=""
modes="rate paused host mean" replay=1
while [ $# -gt 0 ]; do
  case $1 in
  -h|--help) sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
  -o|--out) out=${2:?}; shift 2 ;;
  --seeds) seeds=${2:?}; shift 2 ;;
  --policies) pols=${2:?}; shift 2 ;;
  --no-farm) farm=""; shift ;;
  --no-replay) farm="" replay=""; shift ;;
  --per-host) L=${2:?}; shift 2 ;;
  --matmul-ms) mms=${2:?}; shift 2 ;;
  --primes-ms) pms=${2:?}; shift 2 ;;
  --repeat) repeat=1; shift ;;
  --matmul-setups) msetups=${2:?}; shift 2 ;;
  --matmul-bytes) mbytes=${2:?}; shift 2 ;;
  --bandwidths) bws=${2:?}; shift 2 ;;
  *) die "unknown argument '$1' (--help)" ;;
  esac
done
case $seeds in ''|*[!0-9]*|0|1) die "--seeds: at least 2 (one odd, one even)" ;; esac
case $L in ''|*[!0-9]*|0) die "--per-host: '$L' is not a positive count" ;; esac
lb_init
mkdir -p "$out" || die "cannot create $out"
for w in matmul primes; do
  ms=$pms; [ $w = matmul ] && ms=$mms
  if [ -n "$farm" ]; then
    for set in "" ${repeat:+-b}; do
      "$lb_top/experiments/tournament/farm.sh" --topologies "ring:6 complete:6" --per-host "$L" --workloads $w \
        --starts "skewed one" --policies "$pols" --seeds "$seeds" --work-ms "$ms" --out "$out/farm-$w$set" ||
        lb_die "farm.sh ($w) failed"
    done
  fi
  [ -s "$out/farm-$w/runs.csv" ] || die "no $out/farm-$w/runs.csv (run without --no-farm)"
  # (primes: the older grid, no transit: its contexts are a few bytes)
  set -- --setups "0 10 20 30 40"
  [ $w = matmul ] && set -- --setups "$msetups" --bytes "$mbytes" --bandwidths "$bws"
  # (primes: rate is host, its units do not cost the same)
  mm=$modes; [ $w = primes ] && mm=$(echo $modes | sed 's/ *host//')
  # each replay of the hosts' CPU (holdout.sh --shares), the same fit
  for m in ${replay:+$mm}; do
    d=$out/holdout-$w-$m; [ $m = rate ] && d=$out/holdout-$w
    nice -n 10 "$here/holdout.sh" --runs "$out/farm-$w" -o "$d" "$@" --shares $m ||
      lb_die "holdout.sh --shares $m ($w) failed"
  done
  pairs=""; [ -s "$out/farm-$w-b/runs.csv" ] && pairs="$out/farm-$w $out/farm-$w-b"
  for m in $mm; do
    [ $m = mean ] && continue
    d=$out/holdout-$w-$m; [ $m = rate ] && d=$out/holdout-$w
    "$here/decompose.sh" --holdout "$d" --holdout-mean "$out/holdout-$w-mean" --runs "$out/farm-$w" \
      ${pairs:+--pairs "$pairs"} -o "$out/decompose-$w-$m" || lb_die "decompose.sh ($w, $m) failed"
  done
done
summary() {
  for w in matmul primes; do
    echo "## $w"
    echo
    sed 's/^/    /' "$out/farm-$w/run-info.txt"
    echo
    awk -F, -f "$here/hoststats.awk" "$out/farm-$w/runs.csv" "$out/farm-$w"/hosts/*.csv
    echo
    echo "Each replay of the hosts' CPU, at the candidate its fit half chose (the replay to trust: the most fit-half runs within 10 %):"
    echo
    echo "| shares | set-up ms, ns a byte, transit MB/s | fit half within 10 % | held-out within 10 % | held-out median abs error |"
    echo "|---|---|---|---|---|"
    mm=$modes; [ $w = primes ] && mm=$(echo $modes | sed 's/ *host//')
    for m in $mm; do
      d=$out/holdout-$w-$m; [ $m = rate ] && d=$out/holdout-$w
      awk -F, -v m=$m '$NF == "yes" { printf "| %s | %s, %s, %s | %d of %d | %d of %d | %.1f %% |\n", m, $2, $3, ($4 == 0 ? "none" : $4), $6, $5, $9, $8, 100 * $10 }' "$d/fit.csv"
    done
    echo
    for m in $mm; do
      [ $m = mean ] && continue
      echo "### $w, shares $m against mean"
      echo
      cat "$out/decompose-$w-$m/decompose.md"
      echo
    done
  done
}
lb_write "$out/points.md" summary
echo "$0: wrote $out/points.md"
