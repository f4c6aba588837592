#!/bin/sh
# lbsim against lbsimgrid, its SimGrid peer (docs/PERFORMANCE.md,
# "lbsim and SimGrid"): the same run in both, RMTLB on torus:32x32 (1024
# nodes) and torus:128x128 (16 384 nodes), the default load and costs,
# seed 1, no transport optimum (a separate cost); CPU seconds (user +
# system, /usr/bin/time) of the whole program (lbsim's the mean of 20
# runs back to back at 1024 nodes, 2 at 16 384: GNU time counts in 10 ms).  The two alternate, A B A
# B (PAIRS pairs, default 3), each pair gives a ratio lbsimgrid / lbsim,
# and the row quotes the median pair.  Each run must end with 0
# violations on the same workload (the same ideal makespan), else the
# script fails.  The rows name the CPU and SimGrid's version; every run
# is in OUT/simgrid-bench.csv with its load average.  About 6 minutes at
# a load of 2 (the 16 384-node SimGrid run: 50 CPU-s).  Run by run.sh
# (`make bench`); alone:
#   BENCH_CSV=file BENCH_OUT=dir experiments/bench/simgrid.sh
set -eu
. "$(dirname "$0")/lib.sh"
bench_start "$@"
build=${LB_TOP_BUILDDIR:-.}
sim=$build/sim/lbsim sg=$build/simgrid/lbsimgrid
pairs=${PAIRS:-3}
[ -x "$sim" ] || { echo "simgrid.sh: $sim not built" >&2; exit 2; }
if [ ! -x "$sg" ]; then
  echo "simgrid.sh: lbsimgrid not built (configure found no SimGrid: apt-get install libsimgrid-dev g++); skipped" >&2
  exit 0
fi
[ -x /usr/bin/time ] || { echo "simgrid.sh: /usr/bin/time (GNU time) is needed" >&2; exit 2; }
cpu=$(lscpu | sed -n 's/^Model name: *//p' | head -1)
cpu="$cpu (family $(lscpu | sed -n 's/^CPU family: *//p' | head -1), model $(lscpu | sed -n 's/^Model: *//p' | head -1))"
flags=$(grep -m1 '^flags' /proc/cpuinfo)
case $flags in *avx512f*) cpu="$cpu, AVX-512" ;; *avx2*) cpu="$cpu, AVX2" ;; esac
sgv=$(pkg-config --modversion simgrid 2>/dev/null || echo '?')
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lbfarm-sgbench.XXXXXX") || lb_die "cannot create a temporary directory"
lb_on_exit "rm -rf '$tmp'"
runs=$out/simgrid-bench.csv
echo "nodes,pair,program,cpu_s,max_rss_kb,makespan,ideal,violations,load1" >"$runs"

# timed K PROGRAM ARGS...: run it K times over (GNU time counts in 10 ms:
# a run of 30 ms needs repeats); the CPU seconds of one run and the
# largest resident size (KB) in $cpu_s and $rss, its CSV row in
# $tmp/row.csv
timed() {
  k=$1
  shift
  /usr/bin/time -f '%U %S %M' -o "$tmp/time" sh -c 'k=$1; shift; while [ $k -gt 0 ]; do "$@" --csv || exit; k=$((k - 1)); done' \
    sh "$k" "$@" >"$tmp/rows.csv" 2>"$tmp/err" || { cat "$tmp/err" >&2; echo "simgrid.sh: $* failed" >&2; exit 1; }
  tail -2 "$tmp/rows.csv" >"$tmp/row.csv"
  cpu_s=$(awk -v k="$k" '{ printf "%.4f", ($1 + $2) / k }' "$tmp/time") rss=$(awk '{ print $3 }' "$tmp/time")
}
cell() { awk -F, -v k="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == k) c = i; next } { print $c }' "$tmp/row.csv"; }

# side, repeats of lbsim in one timing
for sz in "32 20" "128 2"; do
  set -- $sz
  side=$1 reps=$2
  n=$((side * side))
  args="-p rmtlb -t torus:${side}x$side --no-optimum"
  : >"$tmp/ratios"
  p=1
  while [ $p -le "$pairs" ]; do
    for prog in lbsim lbsimgrid; do
      if [ $prog = lbsim ]; then timed "$reps" "$sim" $args; else timed 1 "$sg" $args; fi
      [ "$(cell violations)" = 0 ] || { echo "simgrid.sh: $prog $args: violations" >&2; exit 1; }
      echo "$n,$p,$prog,$cpu_s,$rss,$(cell makespan),$(cell ideal),$(cell violations),$(bench_loadavg | cut -d' ' -f1)" >>"$runs"
      eval "t_$prog=$cpu_s ideal_$prog=$(cell ideal)"
    done
    # shellcheck disable=SC2154
    [ "$ideal_lbsim" = "$ideal_lbsimgrid" ] || { echo "simgrid.sh: another workload at $n nodes" >&2; exit 1; }
    bench_div "$t_lbsimgrid" "$t_lbsim" %.4f >>"$tmp/ratios"
    echo >>"$tmp/ratios"
    p=$((p + 1))
  done
  ratio=$(bench_median $(cat "$tmp/ratios"))
  med() { awk -F, -v n="$n" -v prog="$1" '$1 == n && $3 == prog { print $4 }' "$runs"; }
  a=$(bench_median $(med lbsim)) b=$(bench_median $(med lbsimgrid))
  lo=$(sort -g "$tmp/ratios" | head -1 | xargs printf '%.1f') hi=$(sort -g "$tmp/ratios" | tail -1 | xargs printf '%.1f')
  bench_row "lbsim vs lbsimgrid (SimGrid $sgv), RMTLB on torus:${side}x$side ($n nodes), $pairs pairs A B (ratios $lo-$hi); $cpu" \
    cpu_s "$a" "$b" "$(printf '%.1f' "$ratio")" 1 "lbsim $args; lbsimgrid $args"
done
