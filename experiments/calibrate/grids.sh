#!/bin/sh
# The fit on one half and the prediction of the other, restricted to
# parts of holdout.sh's grid: for each holdout.sh output DIR (its
# replay.csv) and each set of transit candidates (--bandwidths values),
# the candidate the fit half chooses (holdout_fit.awk) and its counts.
# Prints a markdown table, one row per DIR and set.
# Usage: experiments/calibrate/grids.sh [--sets "SET;SET..."] DIR...
#   --sets   transit sets, each a space-separated list (default
#            "0 50 200;pack;0 50 200 pack")
set -eu
here=$(cd "$(dirname "$0")" && pwd)
sets="0 50 200;pack;0 50 200 pack"
case ${1:-} in -h|--help) sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;; esac
if [ "${1:-}" = --sets ]; then sets=${2:?}; shift 2; fi
[ $# -gt 0 ] || { echo "$0: no holdout.sh output given (--help)" >&2; exit 2; }
echo "| replay | transit candidates | chosen: set-up ms, ns a byte, transit | fit half within 10 % | held-out within 10 % | held-out median abs error |"
echo "|---|---|---|---|---|---|"
for d in "$@"; do
  [ -s "$d/replay.csv" ] || { echo "$0: no $d/replay.csv" >&2; exit 2; }
  p=$(cd "$d/.." && pwd); name=${p##*/}/${d##*/}
  echo "$sets" | tr ';' '\n' | while read -r set; do
    awk -F, -v set="$set" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; n = split(set, a, " "); for (i = 1; i <= n; i++) ok[a[i]] = 1; print; next }
      $c["bw_mbs"] in ok' "$d/replay.csv" | awk -F, -f "$here/holdout_fit.awk" |
      awk -F, -v d="$name" -v set="$set" '$NF == "yes" { printf "| %s | %s | %s, %s, %s | %d of %d | %d of %d | %.1f %% |\n", d, set, $2, $3, ($4 == "0" ? "none" : $4 == "pack" ? "pack" : $4 " MB/s"), $6, $5, $9, $8, 100 * $10 }'
  done
done
