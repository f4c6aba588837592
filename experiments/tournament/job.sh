#!/bin/sh
# One tournament run: lbsim on one load with one policy setting; prints
# one CSV line (the run's labels, then lbsim's --csv data line).  Called
# by run.sh through xargs; not meant to be run by hand.
# Usage: job.sh "PHASE TOPO L WL LOAD SEED POLICY CFG [LBSIM ARGS...]"
# Environment: TOURN_SIM (lbsim), TOURN_TRACES (directory of the loads).
case ${1:-} in --help|-h|'') sed -n '2,7p' "$0"; exit 0 ;; esac
# shellcheck disable=SC2086
set -- $1
phase=$1 topo=$2 L=$3 wl=$4 load=$5 seed=$6 pol=$7 cfg=$8
shift 8
n=$(echo "$topo" | awk -F'[:x]' '{ print $1 == "torus" ? $2 * $3 : $2 }')
tr=$TOURN_TRACES/$n-$L-$wl-$load-$seed.tr
# primes-like: contexts and results of a few words; matmul-like: a block's
# partial columns (16 KB) and its result (1 MB)
case $wl in
  primes) sz="--ctx-bytes 64 --result-bytes 32" ;;
  *) sz="--ctx-bytes 16384 --result-bytes 1048576" ;;
esac
p=$pol
[ "$pol" = rmtlb-drain ] && p="rmtlb --drain 2"
# shellcheck disable=SC2086
line=$("$TOURN_SIM" --profile farm --results direct -p $p -t "$topo" -l "trace:$tr" -s "$seed" $sz "$@" \
       --max-events 100000000 --csv 2>/dev/null | tail -1)
# A run that failed outright counts as a violation with no makespan.
case $line in
  *,*) ;;
  *) line=$(awk -v p="$pol" -v t="$topo" -v s="$seed" 'BEGIN { printf "%s,%s,0,0,%s,nan,nan,nan", p, t, s
       for (k = 9; k <= 42; k++) printf ",%s", k == 16 ? 1 : 0; print "" }') ;;
esac
printf '%s,%s,%s,%s,%s,%s,%s,%s\n' "$phase" "$topo" "$L" "$wl" "$load" "$pol" "$cfg" "$line"
