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
# the nodes as common.sh's nodes() counts them, without a process (a
# run of the default size is some 20 000 of these)
r=${topo#*:}
case $topo in
  torus:*x*) n=$(( ${r%%x*} * ${r#*x} )) ;;
  *) n=${r%%x*} ;;
esac
tr=$TOURN_TRACES/$n-$L-$wl-$load-$seed.tr
# primes-like: contexts and results of a few words; matmul-like: a block's
# partial columns (16 KB) and its result (1 MB)
case $wl in
  primes) sz="--ctx-bytes 64 --result-bytes 32" ;;
  *) sz="--ctx-bytes 16384 --result-bytes 1048576" ;;
esac
# rmtlb-drain estimates work left from what a host knows (docs/RMTLB.md);
# rmtlb-drain-oracle reads the true work left: an upper bound, no policy.
p=$pol
[ "$pol" = rmtlb-drain ] && p="rmtlb --drain 2"
[ "$pol" = rmtlb-drain-oracle ] && p="rmtlb --drain 2 --rmtlb-estimate oracle"
# shellcheck disable=SC2086
out=$("$TOURN_SIM" --profile farm --results direct -p $p -t "$topo" -l "trace:$tr" -s "$seed" $sz "$@" \
       --max-events 100000000 --csv 2>/dev/null)
nl='
'
case $out in
  *"$nl"*) line=${out#*"$nl"}; line=${line%%"$nl"*} ;;   # its second line
  *) line= ;;
esac
# A run that failed outright counts as a violation with no makespan: a
# row of lbsim's columns (docs/FORMATS.md) with only those filled.
case $line in
  *,*) ;;
  *) line=$("$TOURN_SIM" --csv-header | awk -F, -v p="$pol" -v t="$topo" -v s="$seed" '{
       for (i = 1; i <= NF; i++) printf "%s%s", (i > 1 ? "," : ""), ($i == "policy" ? p : $i == "topology" ? t : \
         $i == "seed" ? s : $i == "ratio" || $i == "makespan" ? "nan" : $i == "violations" ? 1 : "")
       print "" }') ;;
esac
printf '%s,%s,%s,%s,%s,%s,%s,%s\n' "$phase" "$topo" "$L" "$wl" "$load" "$pol" "$cfg" "$line"
