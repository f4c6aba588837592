#!/bin/sh
# The simulator's two targets (docs/PERFORMANCE.md, "Simulator at
# scale"): RMTLB on torus:32x32 (1 024 nodes) in at most 0.05 s, and on
# torus:1024x1024 (1 048 576 nodes) in at most 60 s, both in CPU
# seconds (user + system: on a shared machine the wall time measures the
# other jobs).  Default load (skew, 8 processes a node), seed 1,
# --no-optimum, as sim-scale.sh.  1 024 nodes: 3 sets of 20 runs, each
# set timed whole (the clock's 10 ms step is a third of one run), the
# median set's CPU per run; 10^6 nodes: SIM_TARGET_BIG_RUNS runs
# (default 1), the least.  Each row says the target and whether it is
# met (reference: the target; ratio: target / ours, above 1 when met),
# with the load average, the CPU model and its vector flags.  Run by
# run.sh (`make bench`); alone:
#   BENCH_CSV=file BENCH_OUT=dir experiments/bench/sim-targets.sh
set -eu
. "$(dirname "$0")/lib.sh"
bench_start "$@"
sim=${LB_TOP_BUILDDIR:-.}/sim/lbsim
[ -x "$sim" ] || { echo "sim-targets.sh: $sim not built (make)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "sim-targets.sh: /usr/bin/time (GNU time) is needed" >&2; exit 2; }
big=${SIM_TARGET_BIG_RUNS:-1}
case $big in ''|*[!0-9]*|0) echo "sim-targets.sh: SIM_TARGET_BIG_RUNS '$big' is not a positive count" >&2; exit 2 ;; esac
tmp=$(mktemp -d); lb_on_exit 'rm -rf "$tmp"'
cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')
flags=$(grep -m1 '^flags' /proc/cpuinfo | tr ' ' '\n' | grep -x 'avx2\|avx512f' | tr '\n' ' ' | sed 's/ $//')
machine="$cpu, $(nproc) cores, ${flags:-no AVX2}"

# cpu_of FILE: user + system seconds from /usr/bin/time -f '%U %S ...'
cpu_of() { tail -1 "$1" | awk '{ printf "%.3f", $1 + $2 }'; }
verdict() { awk -v a="$1" -v t="$2" 'BEGIN { print (a <= t) ? "met" : "NOT met" }'; }

# 1 024 nodes: three sets of 20 runs.
sets=
for s in 1 2 3; do
  /usr/bin/time -f '%U %S %e' -o "$tmp/t" sh -c '
    for k in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
      "$1" -p rmtlb -t torus:32x32 --no-optimum >/dev/null || exit 1
    done' sh "$sim"
  sets="$sets $(awk -v c="$(cpu_of "$tmp/t")" 'BEGIN { printf "%.4f", c / 20 }')"
done
small=$(bench_median $sets)
bench_row "lbsim rmtlb torus:32x32 (1 024 nodes): CPU s a run (user+sys; median of 3 sets of 20: $(echo $sets | tr ' ' '/')); target <= 0.05: $(verdict "$small" 0.05); $machine" \
  cpu_s "$small" 0.05 "$(bench_div 0.05 "$small")" 1 "sim/lbsim -p rmtlb -t torus:32x32 --no-optimum"

# 10^6 nodes.
best= runs=
k=0
while [ "$k" -lt "$big" ]; do
  /usr/bin/time -f '%U %S %e %M' -o "$tmp/t" "$sim" -p rmtlb -t torus:1024x1024 --no-optimum >"$tmp/out"
  c=$(cpu_of "$tmp/t")
  runs="$runs $c (user $(tail -1 "$tmp/t" | cut -d' ' -f1), wall $(tail -1 "$tmp/t" | cut -d' ' -f3), $(tail -1 "$tmp/t" | awk '{ printf "%.0f MB", $4 / 1024 }'))"
  if [ -z "$best" ] || awk -v a="$c" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$c; fi
  k=$((k + 1))
done
grep -q '^violations *0$' "$tmp/out" || { cat "$tmp/out" >&2; echo "sim-targets.sh: the 10^6-node run had violations" >&2; exit 1; }
bench_row "lbsim rmtlb torus:1024x1024 (1 048 576 nodes): CPU s (user+sys; least of $big:$runs); target <= 60: $(verdict "$best" 60); $machine" \
  cpu_s "$best" 60 "$(bench_div 60 "$best")" 1 "sim/lbsim -p rmtlb -t torus:1024x1024 --no-optimum"
