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
# run's mean share (--mean-share), and decompose.sh splits every run's
# error into the farm's noise, the shares and the model.
# Usage: experiments/calibrate/points.sh [OPTION]...
#   -o, --out DIR     output directory (default out/points)
#   --seeds K         seeds per cell (default 4: 1, 3 fit; 2, 4 held out)
#   --policies LIST   (default "none rmtlb lowest dasud cchspmd steal")
#   --no-farm         reuse DIR/farm-matmul and DIR/farm-primes
#   --matmul-setups "MS..."  holdout.sh's set-up candidates for matmul
#                     (default "0 50 100 150 200": at n = 4464 B is 4 x
#                     the tournament's)
# Writes, in DIR: farm-W/ (farm.sh), holdout-W/ and holdout-W-mean/
# (holdout.sh), decompose-W/ (decompose.sh) for W = matmul, primes, and
# points.md (the held-out counts of both, the error split, the loads).
# About 17 minutes of farm runs at a load of 3-10; lbsim's replays run
# under nice.
set -eu
lb_top=$(cd "$(dirname "$0")/../.." && pwd)
. "$lb_top/scripts/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
die() { echo "$0: $*" >&2; exit 2; }
out=out/points seeds=4 pols="none rmtlb lowest dasud cchspmd steal" farm=1 msetups="0 50 100 150 200"
while [ $# -gt 0 ]; do
  case $1 in
  -h|--help) sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
  -o|--out) out=${2:?}; shift 2 ;;
  --seeds) seeds=${2:?}; shift 2 ;;
  --policies) pols=${2:?}; shift 2 ;;
  --no-farm) farm=""; shift ;;
  --matmul-setups) msetups=${2:?}; shift 2 ;;
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
  nice -n 10 "$here/holdout.sh" --runs "$out/farm-$w" -o "$out/holdout-$w" --setups "$su" || lb_die "holdout.sh ($w) failed"
  nice -n 10 "$here/holdout.sh" --runs "$out/farm-$w" -o "$out/holdout-$w-mean" --setups "$su" --mean-share ||
    lb_die "holdout.sh --mean-share ($w) failed"
  "$here/decompose.sh" --holdout "$out/holdout-$w" --holdout-mean "$out/holdout-$w-mean" --runs "$out/farm-$w" \
    -o "$out/decompose-$w" || lb_die "decompose.sh ($w) failed"
done
summary() {
  for w in matmul primes; do
    echo "## $w"
    echo
    sed 's/^/    /' "$out/farm-$w/run-info.txt"
    echo
    cat "$out/holdout-$w/holdout.md"
    echo
    cat "$out/decompose-$w/decompose.md"
    echo
  done
}
lb_write "$out/points.md" summary
echo "$0: wrote $out/points.md"
