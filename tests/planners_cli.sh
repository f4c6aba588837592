#!/bin/sh
# lbtransport, lbshare, lbseed003: worked examples, and bad input gives a
# clear message and exit status 2.
. "${LB_TOP_SRCDIR:-.}/tests/lib.sh"
TR=$top_builddir/tools/lbtransport
SH=$top_builddir/tools/lbshare
S3=$top_builddir/tools/lbseed003

for p in "$TR" "$SH" "$S3"; do
  "$p" --help | grep -q Usage && ok "$p --help" || fail "$p --help"
done

# Seed 003 example: T leaves 97 on processor 10; TB gives 7 x 100, 3 x 99.
out=$("$TR" --example)
printf '%s\n' "$out" | grep -q 'loads after: 100,100,100,100,100,100,100,100,100,97$' \
  && ok "T example" || fail "T example: $out"
printf '%s\n' "$out" | grep -q 'loads after: 99,99,100,100,100,100,100,100,100,99$' \
  && ok "TB example" || fail "TB example: $out"
expect_status 2 "expected T or TB" "$TR" --variant X 1,2
expect_status 2 "expected nwc or vogel" "$TR" --init foo 1,2
expect_status 2 "is not an integer" "$TR" 1,2.5,3
expect_status 2 "3 loads given for a 4-processor graph" "$TR" -g ring:4 1,2,3
expect_status 2 "expected one LOADS list" "$TR"
expect_status 2 "unknown option" "$TR" --frob 1,2

# Seed 004 example: t* = 10, shares 10 + 8 + 3 + 4 = 25.
out=$("$SH" --example)
printf '%s\n' "$out" | grep -q 't\* = 10$' && ok "t* = 10" || fail "t*: $out"
printf '%s\n' "$out" | grep -q 'sum of shares 25$' && ok "shares sum 25" || fail "shares: $out"
expect_status 2 "is reversed or empty" "$SH" 1:5-3
expect_status 2 "overlap" "$SH" 1:0-4,3-6
expect_status 2 "speed 0 is not a positive number" "$SH" 0:0-4
expect_status 2 "speed -1 is not a positive number" "$SH" -- -1:0-4
expect_status 2 "the job size must be > 0" "$SH" --lambda 0 1:0-4
expect_status 2 "is not A-B" "$SH" 1:0
expect_status 2 "'x' is not a time" "$SH" 1:0-x
expect_status 2 "before t0" "$SH" --t0 1 1:0-4
expect_status 1 "can hold only 4" "$SH" --lambda 5 1:0-4
expect_status 2 "no processors given" "$SH"

# Seed 003 experiment, two small tests: TB always ends with max - min <= 1.
csv=$("$S3" --tests 2 --tasks 2000)
printf '%s\n' "$csv" | awk -F, 'NR > 1 && $7 > 1 { bad = 1 } END { exit bad }' \
  && ok "TB balanced" || fail "TB not balanced: $csv"
expect_status 2 "--tests" "$S3" --tests 0
expect_status 2 "too small" "$S3" --tasks 20 --procs 20
finish
