#!/bin/sh
# Where the prediction's error comes from, run by run: the farm against
# itself (noise), the share replay (each host's own share against the
# run's mean) and what is left (the model).  Reads holdout.sh's output
# twice, once with each host at its own share and once with
# --mean-share, and the farm runs they replayed; with --pairs, also
# two farm sets of the same cells and seeds, run against each other.
# Usage: experiments/calibrate/decompose.sh --holdout DIR --runs DIR [OPTION]...
#   --holdout DIR       holdout.sh's output (fit.csv, replay.csv)
#   --holdout-mean DIR  holdout.sh --mean-share's on the same runs
#                       (optional: without it the shares part is 0)
#   --runs DIR          farm.sh's output that both replayed (runs.csv)
#   --pairs "A B"       two farm.sh outputs of the same cells and seeds
#                       (optional): noise.awk's table
#   -o, --out DIR       output directory (default out/decompose)
# Writes, in DIR: decompose.csv (one row per run: its error and the
# three parts, as factors that multiply: 1 + error = (1 + noise) x
# (1 + shares) x (1 + model)), noise.csv (with --pairs) and
# decompose.md.  No farm or lbsim run: awk only.
set -eu
lb_top=$(cd "$(dirname "$0")/../.." && pwd)
. "$lb_top/scripts/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
die() { echo "$0: $*" >&2; exit 2; }
hold="" mean="" runs="" pairs="" out=out/decompose
while [ $# -gt 0 ]; do
  case $1 in
  -h|--help) sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
  --holdout) hold=${2:?}; shift 2 ;;
  --holdout-mean) mean=${2:?}; shift 2 ;;
  --runs) runs=${2:?}; shift 2 ;;
  --pairs) pairs=${2:?}; shift 2 ;;
  -o|--out) out=${2:?}; shift 2 ;;
  *) die "unknown argument '$1' (--help)" ;;
  esac
done
[ -s "$hold/fit.csv" ] && [ -s "$hold/replay.csv" ] || die "--holdout: no fit.csv and replay.csv in '$hold'"
[ -z "$mean" ] || [ -s "$mean/replay.csv" ] || die "--holdout-mean: no replay.csv in '$mean'"
[ -s "$runs/runs.csv" ] || die "--runs: no runs.csv in '$runs'"
set -- $pairs
[ $# = 0 ] || { [ $# = 2 ] && [ -s "$1/runs.csv" ] && [ -s "$2/runs.csv" ]; } || die "--pairs: two farm.sh outputs with runs.csv"
lb_init
mkdir -p "$out" || die "cannot create $out"
lb_tmp "$out/decompose.csv"; dec=$lb_t
lb_tmp "$out/decompose.md"; md=$lb_t
{
  echo "Error split (holdout: $hold; mean share: ${mean:-none}; runs: $runs):"
  echo
  mf=/dev/null; [ -z "$mean" ] || mf=$mean/replay.csv
  awk -F, -v out="$dec" -f "$here/decompose.awk" "$hold/fit.csv" "$hold/replay.csv" "$mf" "$runs/runs.csv"
  if [ $# = 2 ]; then
    lb_tmp "$out/noise.csv"; nz=$lb_t
    awk -F, -f "$here/noise.awk" "$1/runs.csv" "$2/runs.csv" >"$nz"
    echo
    echo "The farm against itself ($1 and $2, the same cells and seeds):"
    echo
    echo "| workload | runs | within 10 % of the cell's mean | pairs | pairs within 10 % of each other | within 10 % of their pair's mean | median pair difference | CPU of the same work, pair's max / min: median, largest | held-out seeds: within 10 % of the other set's run |"
    echo "|---|---|---|---|---|---|---|---|---|"
    awk -F, 'NR > 1 { printf "| %s | %d | %d (%.0f %%) | %d | %d (%.0f %%) | %d of %d (%.0f %%) | %.1f %% | %.3f, %.3f | %d of %d (%.0f %%) |\n",
      $1, $2, $3, 100 * $3 / $2, $4, $5, 100 * $5 / $4, $7, $6, 100 * $7 / $6, 100 * $8, $9, $10, $12, $11, 100 * $12 / $11 }' "$nz"
  fi
  echo
  echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
} >"$md" || lb_die "writing $out/decompose.md failed"
lb_commit "$dec" "$out/decompose.csv"
[ $# = 2 ] && lb_commit "$nz" "$out/noise.csv"
lb_commit "$md" "$out/decompose.md"
echo "$0: wrote $out/decompose.md"
