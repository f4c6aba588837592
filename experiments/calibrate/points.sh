#!/bin/sh
# Calibration points long enough to repeat, predicted on held-out seeds.
# Runs experiments/tournament/farm.sh on a subset of the tournament's
# cells that covers migrations in both workloads (ring:6 and complete:6,
# 4 processes per host, the skewed and all-on-one starts, the policies
# below, seeds 1..K in one go), with processes sized so that a run lasts
# seconds: matmul 400 ms of CPU a process by farm.sh's size model (about
# 200 ms measured: n = 4464), primes 100 ms; farm.sh keeps each run's
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
#   --no-farm         reuse DIR/farm-matmul and DIR/farm-primes
#   --no-replay       reuse the holdout-* directories too (the split and
#                     points.md only)
#   --matmul-setups "MS..."  holdout.sh's set-up candidates for matmul
#                     (default "0 50 100 150 200": at n = 4464 B is 4 x
#                     the tournament's)
#   --bandwidths "MB/S..."  holdout.sh's transit candidates (default "0":
#                     none; 2026-11-26's clean test used "0 50 200")
# Writes, in DIR: farm-W/ (farm.sh), holdout-W/ (--shares rate) and
# holdout-W-MODE/ (holdout.sh), decompose-W-MODE/ (decompose.sh, MODE
# against mean) for W = matmul, primes, and points.md (the held-out
# counts of every replay, the error split, the loads).
# About 18 minutes of farm runs (2026-11-26: 692 s and 369 s at a load of
# 7-19); lbsim's replays run
# under nice.
set -eu
lb_top=$(cd "$(dirname "$0")/../.." && pwd)
. "$lb_top/scripts/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
die() { echo "$0: $*" >&2; exit 2; }
out=out/points seeds=4 pols="none rmtlb lowest dasud cchspmd steal" farm=1 msetups="0 50 100 150 200" bws=0
modes="rate paused host mean" replay=1
while [ $# -gt 0 ]; do
  case $1 in
  -h|--help) sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
  -o|--out) out=${2:?}; shift 2 ;;
  --seeds) seeds=${2:?}; shift 2 ;;
  --policies) pols=${2:?}; shift 2 ;;
  --no-farm) farm=""; shift ;;
  --no-replay) farm="" replay=""; shift ;;
  --matmul-setups) msetups=${2:?}; shift 2 ;;
  --bandwidths) bws=${2:?}; shift 2 ;;
  *) die "unknown argument '$1' (--help)" ;;
  esac
done
case $seeds in ''|*[!0-9]*|0|1) die "--seeds: at least 2 (one odd, one even)" ;; esac
lb_init
mkdir -p "$out" || die "cannot create $out"
for w in matmul primes; do
  ms=100; [ $w = matmul ] && ms=400
  if [ -n "$farm" ]; then
    "$lb_top/experiments/tournament/farm.sh" --topologies "ring:6 complete:6" --per-host 4 --workloads $w \
      --starts "skewed one" --policies "$pols" --seeds "$seeds" --work-ms $ms --out "$out/farm-$w" ||
      lb_die "farm.sh ($w) failed"
  fi
  [ -s "$out/farm-$w/runs.csv" ] || die "no $out/farm-$w/runs.csv (run without --no-farm)"
  su="0 10 20 30 40"; [ $w = matmul ] && su=$msetups
  # (primes: rate is host, its units do not cost the same)
  mm=$modes; [ $w = primes ] && mm=$(echo $modes | sed 's/ *host//')
  # each replay of the hosts' CPU (holdout.sh --shares), the same fit
  for m in ${replay:+$mm}; do
    d=$out/holdout-$w-$m; [ $m = rate ] && d=$out/holdout-$w
    nice -n 10 "$here/holdout.sh" --runs "$out/farm-$w" -o "$d" --setups "$su" --bandwidths "$bws" --shares $m ||
      lb_die "holdout.sh --shares $m ($w) failed"
  done
  for m in $mm; do
    [ $m = mean ] && continue
    d=$out/holdout-$w-$m; [ $m = rate ] && d=$out/holdout-$w
    "$here/decompose.sh" --holdout "$d" --holdout-mean "$out/holdout-$w-mean" --runs "$out/farm-$w" \
      -o "$out/decompose-$w-$m" || lb_die "decompose.sh ($w, $m) failed"
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
