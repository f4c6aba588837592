#!/bin/sh
# Paired statistics of the tournament's reported runs: each setting's
# winner and every other policy beside it on the same seeds (Wilcoxon
# signed-rank, Holm-adjusted; median makespan ratio with its interval),
# as CSV on stdout (paired.awk).  run.sh calls it.
# Usage: experiments/tournament/paired.sh RUNS.csv [KIND [COLUMN [TEST]]]
#   RUNS.csv: run.sh's runs.csv (labels, then lbsim --csv) or farm.sh's
#   runs (the same labels, then lbmaster --csv); KIND: best (default) or
#   default, the settings compared; COLUMN: the measure (default ratio;
#   farm.sh uses ratio_received); TEST: wilcoxon (default) or t, the
#   test that decides (paired.awk).
set -eu
case ${1:-} in --help|-h|'') sed -n '2,10p' "$0"; exit 0 ;; esac
here=$(cd "$(dirname "$0")" && pwd)
kind=${2:-best} col=${3:-ratio} test=${4:-wilcoxon}
[ -r "$1" ] || { echo "$0: cannot read '$1'" >&2; exit 2; }
awk -F, -v kind="$kind" -v col="$col" 'NR == 1 { for (i = 8; i <= NF; i++) c[$i] = i; next }
  $1 == kind || $1 == "both" {
    r = ($c["violations"] != "" && $c["violations"] != 0) || $c[col] == "" ? "nan" : $c[col]
    print $2 " " $3 "/host " $4 " " $5 "," $6 "," $c["seed"] "," r }' "$1" |
  awk -F, -v test="$test" -f "$here/signrank.awk" -f "$here/paired.awk"
