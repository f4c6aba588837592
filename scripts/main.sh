#!/usr/bin/env bash
# scripts/main.sh: set up, build, and run lbfarm's main job on the
# embedded default: a local single-host PVM that lbmaster starts and
# halts by itself.  With no arguments it runs the seed 000 comparison in
# small: prime finding on six emulated hosts (each 0.30 of a core, so
# six busy workers behave like six machines on two cores), all work
# starting on host 0, once without balancing and once with RMTLB, and
# writes both CSV rows to out/main.csv.  Arguments go to lbmaster as they are.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
if [ $# -gt 0 ]; then
  exec ./master/lbmaster "$@"
fi
mkdir -p out
rm -f out/main.csv
for policy in none rmtlb; do
  echo "== lbmaster --policy $policy" >&2
  ./master/lbmaster --policy "$policy" --workload primes --size 10000000 --hosts 6 \
    --speeds 0.30 --init one --seed 1 --out out/main.csv | grep -E '^(host|[0-9]|[a-z]+ primes)'
done
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
  { printf "%-6s makespan %7.3f s  ideal %7.3f s  ratio %5.2f  migrations %3d  verified %s\n",
      $col["policy"], $col["makespan_s"], $col["ideal_makespan_s"], $col["ratio"],
      $col["migrations"], $col["verified"] }' out/main.csv
echo "CSV: out/main.csv" >&2
