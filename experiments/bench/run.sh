#!/bin/sh
# run.sh: run benchmark scripts and gather their rows into one CSV and
# one Markdown table (docs/PERFORMANCE.md quotes them).  Run from the
# build directory; `make bench` does.
# Usage: experiments/bench/run.sh [NAME...]
#   NAME is experiments/bench/NAME.sh (default: $BENCH_LIST, or
#   "arrange transport planners kernel simgrid sim-targets"); BENCH_FARM=1
#   adds "farm" and "throttle" (the PVM farm, slow).  Output: $BENCH_OUT/bench.csv
#   and bench.md
#   (BENCH_OUT default out/bench).  lib.sh documents the row format.
set -eu
lb_top=$(cd "$(dirname "$0")/../.." && pwd)
. "$lb_top/scripts/lib.sh"
lb_init
here=$(cd "$(dirname "$0")" && pwd)
case ${1:-} in -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0;; esac
LB_TOP_SRCDIR=${LB_TOP_SRCDIR:-$(cd "$here/../.." && pwd)}
LB_TOP_BUILDDIR=${LB_TOP_BUILDDIR:-$(pwd)}
BENCH_OUT=${BENCH_OUT:-out/bench}
mkdir -p "$BENCH_OUT"
BENCH_OUT=$(cd "$BENCH_OUT" && pwd)
BENCH_CSV=$BENCH_OUT/bench.csv
export LB_TOP_SRCDIR LB_TOP_BUILDDIR BENCH_OUT BENCH_CSV
if [ $# -eq 0 ]; then
  set -- ${BENCH_LIST:-arrange transport planners kernel simgrid sim-targets}
  [ "${BENCH_FARM:-0}" = 1 ] && set -- "$@" farm throttle
fi
echo "benchmark,metric,ours,reference,ratio,threads,loadavg,command" >"$BENCH_CSV"
echo "machine: $(nproc) processors; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')" \
  >"$BENCH_OUT/machine.txt"
failed=
for name in "$@"; do
  script=$here/$name.sh
  [ -f "$script" ] || { echo "run.sh: no benchmark $script" >&2; exit 2; }
  echo "== $name (load $(cut -d' ' -f1-3 /proc/loadavg))"
  sh "$script" || { echo "run.sh: $name failed" >&2; failed="$failed $name"; }
done
# The Markdown table, one line per row.
awk 'NR == 1 { print "| benchmark | metric | ours | reference | ratio | threads | load average | command |";
               print "|---|---|---|---|---|---|---|---|"; next }
  { q = index($0, ",\""); cmd = substr($0, q + 2); sub(/"$/, "", cmd)
    split(substr($0, 1, q - 1), f, ",")
    printf "| %s | %s | %s | %s | %s | %s | %s | `%s` |\n", f[1], f[2], f[3], f[4], f[5], f[6], f[7], cmd }' \
  "$BENCH_CSV" >"$BENCH_OUT/bench.md"
cat "$BENCH_OUT/machine.txt"
cat "$BENCH_OUT/bench.md"
echo "wrote $BENCH_CSV and $BENCH_OUT/bench.md"
[ -z "$failed" ] || { echo "run.sh: failed:$failed" >&2; exit 1; }
