#!/bin/sh
# Long fuzzing run: every target of tests/fuzz/targets for RUNS inputs
# (default 10^6), one after the other, from its seed corpus with a fixed
# seed, each input limited to TIMEOUT seconds (a hang).  Writes
# OUTDIR/longrun.md, the table kept in docs/FUZZING.md: inputs run,
# seconds, inputs per second, libFuzzer's final coverage (cov: edges,
# ft: features), corpus size, crashes, hangs and sanitizer reports; the
# logs and any crashing inputs stay in OUTDIR/NAME/.
#
# Usage: experiments/fuzz/longrun.sh [-n RUNS] [-t TIMEOUT] [-o OUTDIR] [-b BUILDDIR]
#   defaults: 1000000, 10 s, out/fuzz, the current directory
set -eu
lb_top=$(cd "$(dirname "$0")/../.." && pwd)
. "$lb_top/scripts/lib.sh"
lb_init
case ${1:-} in --help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
runs=1000000 timeout=10 out=out/fuzz build=$(lb_builddir)
while getopts n:t:o:b:h opt; do
  case $opt in
    n) runs=$OPTARG ;; t) timeout=$OPTARG ;; o) out=$OPTARG ;; b) build=$OPTARG ;;
    h) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "usage: $0 [-n RUNS] [-t TIMEOUT] [-o OUTDIR] [-b BUILDDIR]" >&2; exit 2 ;;
  esac
done
case $runs in ''|*[!0-9]*|0) echo "$0: -n: '$runs' is not a positive count" >&2; exit 2 ;; esac
case $timeout in ''|*[!0-9]*|0) echo "$0: -t: '$timeout' is not a positive number of seconds" >&2; exit 2 ;; esac
src=$(cd "$(dirname "$0")/../.." && pwd)
fz=$src/tests/fuzz
"$fz/build.sh" "$build" >/dev/null || { rc=$?; echo "$0: cannot build the fuzz targets (build.sh exit $rc)" >&2; exit 2; }
bin=$(cd "$build" && pwd)/tests/fuzz/build/bin
mkdir -p "$out"
md=$out/longrun.md
{
  echo "| target | inputs run | seconds | inputs/s | cov | ft | corpus | crashes | hangs | sanitizer reports |"
  echo "|---|---|---|---|---|---|---|---|---|---|"
} >"$md"
for name in $(grep -v '^[[:space:]]*\(#\|$\)' "$fz/targets" | awk '{ print $1 }'); do
  d=$out/$name
  rm -rf "$d"
  mkdir -p "$d/corpus"
  [ -t 2 ] && printf '%s: fuzz_%s, %s inputs ...\n' "$0" "$name" "$runs" >&2
  t0=$(date +%s.%N)
  rc=0
  "$bin/fuzz_$name" -runs="$runs" -seed=1 -timeout="$timeout" -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$d/" "$d/corpus" "$fz/corpus/$name" >"$d/log" 2>&1 || rc=$?
  t1=$(date +%s.%N)
  done_=$(sed -n 's/^stat::number_of_executed_units: *//p' "$d/log")
  last=$(grep -E '^#[0-9]+.*(DONE|cov:)' "$d/log" | tail -1)
  cov=$(echo "$last" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
  ft=$(echo "$last" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
  corp=$(echo "$last" | sed -n 's/.* corp: \([0-9]*\/[0-9]*[a-zA-Z]*\).*/\1/p')
  crashes=$(find "$d" -maxdepth 1 \( -name 'crash-*' -o -name 'leak-*' -o -name 'oom-*' \) | wc -l)
  hangs=$(find "$d" -maxdepth 1 -name 'timeout-*' | wc -l)
  reports=$(grep -cE 'ERROR: (AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer)|runtime error:' "$d/log" || true)
  [ "$rc" = 0 ] || [ "$crashes$hangs" != 00 ] || crashes=1   # stopped without an artifact
  awk -v n="$name" -v r="${done_:-0}" -v a="$t0" -v b="$t1" -v c="$cov" -v f="$ft" -v p="$corp" \
      -v x="$crashes" -v h="$hangs" -v s="$reports" 'BEGIN {
    printf "| %s | %d | %.1f | %.0f | %s | %s | %s | %s | %s | %s |\n", n, r, b - a, r / (b - a), c, f, p, x, h, s }' >>"$md"
done
{
  echo
  echo "Command: \`experiments/fuzz/longrun.sh -n $runs -t $timeout\`, $(date -u +%Y-%m-%d);"
  echo "$("${FUZZ_CC:-clang}" --version | head -1); $(nproc) processors ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'))."
} >>"$md"
cat "$md"
