#!/bin/sh
# The PVM farm (experiments/bench/farm-bench.sh, slow: about an hour):
# kernel, PVM round trips and makespan against the ideal.  Not in the
# default list; `make bench BENCH_FARM=1` adds it.  Rows: makespan of
# RMTLB per workload and size (median of three) against the ideal from
# the same run (ratio = ideal / makespan, 1 at best).
set -eu
. "$(dirname "$0")/lib.sh"
bench_start "$@"
"$here/farm-bench.sh" --builddir "${LB_TOP_BUILDDIR:-.}" --out "$out" | tee "$out/farm-bench.log"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
  { k = $c["policy"] " " $c["workload"] " " $c["size"]; if (!(k in n)) o[++m] = k
    n[k]++; ms[k, n[k]] = $c["makespan_s"]; id[k, n[k]] = $c["ideal_s"] }
  END { for (j = 1; j <= m; j++) { k = o[j]; t = n[k]
      for (a = 1; a <= t; a++) { v[a] = ms[k, a]; w[a] = id[k, a] }
      for (a = 1; a <= t; a++) for (b = a + 1; b <= t; b++) if (v[b] / w[b] < v[a] / w[a]) {
        x = v[a]; v[a] = v[b]; v[b] = x; x = w[a]; w[a] = w[b]; w[b] = x }
      h = int((t + 1) / 2); print k, v[h], w[h] } }' "$out/farm_makespan.csv" |
while read -r pol wl size ms ideal; do
  bench_row "farm makespan $pol $wl $size (6 hosts at 0.30)" wall_s "$ms" "$ideal" "$(bench_div "$ideal" "$ms" %.3f)" \
    "6 hosts" "experiments/bench/farm-bench.sh --makespan-only"
done
