#!/bin/sh
# The verdict's "why" section: each mechanism with the numbers of this
# run that show it, from OUT/summary.csv (reported seeds) and
# OUT/tune.csv (held-out seeds, every candidate).  verdict.sh calls it.
# Usage: experiments/tournament/mechanisms.sh OUTDIR
set -eu
case ${1:-} in --help|-h|'') sed -n '2,5p' "$0"; exit 0 ;; esac
awk -F, -f "$(cd "$(dirname "$0")" && pwd)/mechanisms.awk" "$1/summary.csv" "$1/tune.csv"
