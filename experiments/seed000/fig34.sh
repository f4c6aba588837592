#!/usr/bin/env bash
# Seed 000, Fig. 3 (matrix multiplication) and Fig. 4 (prime finding):
# run time of LOWEST, DASUD, CCHSPMD and RMTLB against problem size on
# six PVM hosts, redrawn from CSV.
#
# The paper gives neither its topology, nor C_i, nor how the load was
# made unbalanced, nor the sizes on its x axes (docs/RMTLB.md).  Our
# choices: six hosts on ring:6, each emulated at 0.30 of a core (six
# busy workers on two cores then behave like six machines, with room
# left for the pvmd and lbmaster: docs/FARM.md), all
# processes starting on host 0, C_i = processes / hosts (lbmaster's
# default), four processes per host.  Sizes are ours too, chosen so one
# run takes seconds.
#
# Usage: experiments/seed000/fig34.sh [OUTDIR]   (default out/seed000)
# Run from the build directory.  LBFARM_SEED000_REPEAT=N repeats each
# point N times (default 1) and keeps the median.
set -euo pipefail
out=${1:-out/seed000}
here=$(cd "$(dirname "$0")" && pwd)
master=${LBMASTER:-./master/lbmaster}
[ -x "$master" ] || { echo "$0: $master not found: run from the build directory" >&2; exit 2; }
mkdir -p "$out"
repeat=${LBFARM_SEED000_REPEAT:-1}
policies="lowest dasud cchspmd rmtlb"
csv=$out/fig34.csv
rm -f "$csv"
run() { # workload size policy
  for r in $(seq "$repeat"); do
    "$master" --workload "$1" --size "$2" --policy "$3" --hosts 6 --topology ring:6 \
      --speeds 0.30 --init one --seed "$r" --out "$csv" >/dev/null 2>&1 ||
      { echo "$0: lbmaster failed: $1 $2 $3" >&2; exit 1; }
  done
}
total=$(( (4 + 4) * 4 * repeat )); done_=0
for size in 1000 2000 3000 4000; do
  for p in $policies; do run matmul "$size" "$p"; done_=$((done_ + repeat))
    [ -t 2 ] && printf '\r%s: %d/%d runs' "$0" "$done_" "$total" >&2; done
done
for size in 5000000 10000000 20000000 40000000; do
  for p in $policies; do run primes "$size" "$p"; done_=$((done_ + repeat))
    [ -t 2 ] && printf '\r%s: %d/%d runs' "$0" "$done_" "$total" >&2; done
done
[ -t 2 ] && echo >&2
# Median makespan per (workload, policy, size); every run must verify.
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
  $c["verified"] != "yes" { bad++ }
  { print $c["workload"], $c["policy"], $c["size"], $c["makespan_s"] }
  END { if (bad) { print bad " run(s) not verified" > "/dev/stderr"; exit 1 } }' "$csv" |
  sort -k1,1 -k2,2 -k3,3n -k4,4g |
  awk -v o="$out" '
    function flush() { if (n) print p, s, v[int((n + 1) / 2)] > (o "/" w ".dat"); n = 0 }
    { if ($1 != w || $2 != p || $3 != s) { flush(); w = $1; p = $2; s = $3 } v[++n] = $4 }
    END { flush() }'
gnuplot -e "outdir='$out'" "$here/fig34.gp"
echo "$0: wrote $csv, $out/fig3.png and $out/fig4.png"
