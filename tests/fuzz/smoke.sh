#!/bin/sh
# A short run of every fuzz target (tests/fuzz/targets): about 10^4
# inputs each from its seed corpus with a fixed seed, then each of its
# regression inputs once, then a 6.4 MB star graph through the graph
# reader (a reader quadratic in the hub's degree would not finish).
# Builds the targets with clang first (tests/fuzz/build.sh); exits 77,
# saying why, when clang or libFuzzer is missing.  The -timeout of each
# input is a hang guard only.
#
# Usage: tests/fuzz/smoke.sh [RUNS]   (default 10000; from the build directory)
. "${LB_TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/lib.sh"
case ${1:-} in -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
runs=${1:-10000}
fz=$top_srcdir/tests/fuzz
bin=$top_builddir/tests/fuzz/build/bin
out=$("$fz/build.sh" "$top_builddir" 2>&1); rc=$?
if [ "$rc" = 77 ]; then echo "SKIP: $out"; exit 77; fi
[ "$rc" = 0 ] || { echo "$out"; echo "FAIL: building the fuzz targets" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

opts="-timeout=60 -rss_limit_mb=2048 -artifact_prefix=$tmp/"
for name in $(grep -v '^[[:space:]]*\(#\|$\)' "$fz/targets" | awk '{ print $1 }'); do
  mkdir -p "$tmp/$name"
  # shellcheck disable=SC2086
  if "$bin/fuzz_$name" -runs="$runs" -seed=1 $opts "$tmp/$name" "$fz/corpus/$name" >"$tmp/$name.log" 2>&1; then
    ok "fuzz_$name: $(grep -m1 'DONE' "$tmp/$name.log" | sed 's/^#//')"
  else
    tail -30 "$tmp/$name.log"; fail "fuzz_$name: a finding (log above)"
  fi
  if [ -d "$fz/regress/$name" ]; then
    # shellcheck disable=SC2086
    if "$bin/fuzz_$name" $opts "$fz/regress/$name"/* >"$tmp/$name.reg" 2>&1; then
      ok "fuzz_$name: $(ls "$fz/regress/$name" | wc -l) regression inputs"
    else
      tail -30 "$tmp/$name.reg"; fail "fuzz_$name: a regression input fails (log above)"
    fi
  fi
done
# The committed seeds and regression inputs are what the encoders write
# today: an input of an older wire format is refused at its header and
# tests nothing past it.
for d in "$fz"/corpus/* "$fz"/regress/*; do mkdir -p "$tmp/gen/${d#"$fz"/}"; done
if "$fz/gen_seeds.sh" "$tmp/gen" >"$tmp/gen.log" 2>&1; then
  stale=$(cd "$tmp/gen" && find corpus regress -type f | sort | while read -r f; do
    cmp -s "$f" "$fz/$f" || printf ' %s' "$f"; done)
  [ -z "$stale" ] && ok "seeds and regression inputs match the encoders" \
    || fail "stale fuzz inputs (run tests/fuzz/gen_seeds.sh and commit):$stale"
else
  cat "$tmp/gen.log"; fail "tests/fuzz/gen_seeds.sh"
fi
"$fz/gen_star.sh" 390000 >"$tmp/star.graph"
# shellcheck disable=SC2086
if "$bin/fuzz_topo_read" $opts "$tmp/star.graph" >"$tmp/star.log" 2>&1; then
  ok "fuzz_topo_read: star:390000 ($(wc -c <"$tmp/star.graph") bytes)"
else
  tail -30 "$tmp/star.log"; fail "fuzz_topo_read on star:390000"
fi
finish
