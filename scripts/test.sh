#!/usr/bin/env bash
# scripts/test.sh: set up, build, and run every test (make check).
set -uo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh || exit $?
make -j"$(nproc)" check
rc=$?
# Per-test results, and one closing line any CI can read.
for f in $(find . -name '*.trs' | sort); do
  sed -n 's/^:test-result: \(.*\)/\1/p' "$f" | sed "s|\$| ${f%.trs}|"
done
pass=$(cat $(find . -name '*.trs') 2>/dev/null | grep -c '^:test-result: PASS')
failn=$(cat $(find . -name '*.trs') 2>/dev/null | grep -cE '^:test-result: (FAIL|ERROR|XPASS)')
skip=$(cat $(find . -name '*.trs') 2>/dev/null | grep -c '^:test-result: SKIP')
if [ $rc -ne 0 ]; then
  [ -f test-suite.log ] && cat test-suite.log
  [ "$failn" -eq 0 ] && failn=1
fi
echo "tests: $pass passed, $failn failed, $skip skipped"
exit $rc
