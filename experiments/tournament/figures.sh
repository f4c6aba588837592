#!/bin/sh
# Draws the tournament's figures from OUT/summary.csv with gnuplot: per
# workload and start, makespan / ideal of each policy at its best
# setting, one cluster per (topology, processes per host), 95 % CIs;
# OUT/fig-WL-START.{png,svg,pdf} and the .dat each is drawn from.
# Prints the absolute paths of the figures.  run.sh calls it.
# Usage: experiments/tournament/figures.sh OUTDIR
set -eu
lb_top=$(cd "$(dirname "$0")/../.." && pwd)
. "$lb_top/scripts/lib.sh"
lb_init
case ${1:-} in --help|-h|'') sed -n '2,7p' "$0"; exit 0 ;; esac
here=$(cd "$(dirname "$0")" && pwd)
out=$(cd "$1" && pwd)
pols="none rmtlb rmtlb-drain lowest dasud dasud-ring cchspmd diffusion diffusion2 steal pool"
command -v gnuplot >/dev/null 2>&1 || { echo "$0: gnuplot not found: no figures" >&2; exit 0; }
for wl in primes matmul; do
  for load in skew one; do
    dat=$out/fig-$wl-$load.dat
    awk -F, -v wl="$wl" -v load="$load" -v pols="$pols" '
      BEGIN { np = split(pols, P, " ") }
      NR > 1 && $3 == wl && $4 == load && $6 == "best" { m[$1 " " $2, $5] = $10; c[$1 " " $2, $5] = $12
        if (!((r = $1 " " $2) in seen)) { seen[r] = 1; order[++nr] = r } }
      END { for (i = 1; i <= nr; i++) { r = order[i]; lab = r; sub(/ /, "/", lab); printf "%s", lab
          for (j = 1; j <= np; j++) printf " %s %s", ((r, P[j]) in m) ? m[r, P[j]] : "NaN", ((r, P[j]) in c) ? c[r, P[j]] : "NaN"
          print "" } }' "$out/summary.csv" >"$dat"
    [ -s "$dat" ] || { rm -f "$dat"; continue; }
    for fmt in png svg pdf; do
      lb_plot1 "$out/fig-$wl-$load.$fmt" "$here/plot.gp" "dat='$dat'" "fmt='$fmt'" "pols='$pols'" \
        "ttl='$wl-like, $load start'" && echo "$out/fig-$wl-$load.$fmt"
    done
  done
done
