#!/usr/bin/env bash
# scripts/test.sh: set up, build, and run every test (make check, the
# fuzz smoke included); then the unit, simulator and three farm tests
# again, built with AddressSanitizer and UndefinedBehaviorSanitizer in
# build-san/.  Every sanitizer report of any process there (lbmaster,
# the workers PVM spawns, the console's lbmaster, a unit test) goes to a
# file in build-san/reports/, and any report there fails the run.
#
# Usage: scripts/test.sh [TEST]...
#   TEST        run only these tests of make check (e.g. tests/main_job.sh
#               tests/test_cli), not the sanitizer build
#   -h, --help  show this help
# Ends with a line "tests: N passed, N failed, N skipped".  Ctrl-C stops
# it (exit 130; SIGTERM: 143), each test removing what it started.
set -uo pipefail
lb_top=$(cd "$(dirname "$0")/.." && pwd)
. "$lb_top/scripts/lib.sh"
case ${1:-} in
-h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
-*) echo "test.sh: unknown option '$1' (--help)" >&2; exit 2 ;;
esac
lb_init
cd "$(dirname "$0")/.."
scripts/setup.sh || exit $?
if [ $# -gt 0 ]; then
  make -j"$(nproc)" check TESTS="$*"
  exit $?
fi
make -j"$(nproc)" check
rc=$?

# build-san/ is a copy of the release tree (make distdir), since this
# tree is configured in place; the copy keeps the files' times, so make
# there rebuilds only what changed.  A new configure (its flags may have
# changed, which make does not see) starts it afresh.
san=$PWD/build-san
cmp -s configure "$san/configure" || rm -rf "$san"
san_tests="$(ls tests/test_*.c | sed 's/\.c$//' | tr '\n' ' ')tests/farm_run.sh tests/farm_intruder.sh tests/pvm_console.sh"
echo "test.sh: under the sanitizers in build-san/: unit, simulator, farm_run, farm_intruder, pvm_console"
mkdir -p "$san/reports"
rm -rf "$san/.dist" "$san"/reports/*
if make -s distdir distdir="$san/.dist" >"$san/distdir.log" 2>&1 && cp -pR "$san/.dist/." "$san/" &&
   { [ -f "$san/Makefile" ] || (cd "$san" && ./configure -q --enable-sanitizers >configure.log 2>&1); }; then
  ASAN_OPTIONS="log_path=$san/reports/report:detect_leaks=1" UBSAN_OPTIONS=print_stacktrace=1 \
    make -C "$san" -j"$(nproc)" check TESTS="$san_tests" || rc=1
else
  cat "$san/distdir.log" "$san/configure.log" 2>/dev/null
  echo "FAIL: setting up the sanitizer build in $san"
  rc=1
fi
rm -rf "$san/.dist"
reports=$(grep -lE 'ERROR: |runtime error:' "$san"/reports/* 2>/dev/null)
nrep=$(printf '%s' "$reports" | grep -c .)
if [ "$nrep" -gt 0 ]; then
  for f in $reports; do echo "== $f"; cat "$f"; done
  echo "FAIL: $nrep sanitizer report(s) above"
  rc=1
fi

# Per-test results, and one closing line any CI can read.
for f in $(find . -name '*.trs' | sort); do
  sed -n 's/^:test-result: \(.*\)/\1/p' "$f" | sed "s|\$| ${f%.trs}|"
done
pass=$(cat $(find . -name '*.trs') 2>/dev/null | grep -c '^:test-result: PASS')
failn=$(cat $(find . -name '*.trs') 2>/dev/null | grep -cE '^:test-result: (FAIL|ERROR|XPASS)')
skip=$(cat $(find . -name '*.trs') 2>/dev/null | grep -c '^:test-result: SKIP')
failn=$((failn + nrep))
if [ $rc -ne 0 ]; then
  for log in test-suite.log "$san/test-suite.log"; do [ -f "$log" ] && cat "$log"; done
  [ "$failn" -eq 0 ] && failn=1
fi
echo "tests: $pass passed, $failn failed, $skip skipped"
exit $rc
