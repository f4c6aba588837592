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
# The plan, the tasks moved and every metric.  On the complete graph each
# task moves once, so Q = tasks planned = task-hops.  TB from Vogel's
# start: its floor pass sends on one task that arrived in the ceil pass
# (10->3), which therefore moves twice: Q = 11 for 12 task-hops.
printf '%s\n' "$out" | grep -q 'plan (sender->receiver:tasks(hops)): 2->3:4(1) 7->4:3(1) 8->4:1(1) 9->5:1(1) 9->10:1(1)$' \
  && ok "T plan" || fail "T plan: $out"
printf '%s\n' "$out" | grep -q 'tasks planned 10, task-hops 10, rounds 1; Q (tasks whose processor changed) 10$' \
  && ok "T moves" || fail "T moves: $out"
tmp=$(mktemp -d); at_exit 'rm -rf "$tmp"'
csv=$tmp/ex.csv
"$TR" --example --csv >"$csv"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
  { got = got $c["method"] "/" $c["start"] ":" $c["m1"] "," $c["m3"] "," $c["q"] "," $c["planned"] "," $c["task_hops"] " " }
  END { exit got != "T/nwc:3,100,10,10,10 TB/nwc:1,100,12,12,12 TB/vogel:1,100,11,12,12 " }' "$csv" \
  && ok "example CSV: M1, M3, Q, planned, hops" || fail "example CSV: $(cat "$csv")"
# M2 at full precision: TB leaves 99,99,100 x 7,99 (avg 99.7): sqrt(2.1/9)/100.
awk -F, 'NR == 3 { d = $11 - sqrt(2.1 / 9) / 100; exit !(d < 1e-16 && d > -1e-16) }' "$csv" \
  && ok "M2 to 1e-16" || fail "M2: $(sed -n 3p "$csv")"
# Hu-Blake on a 4-ring from 8,0,0,0: the least-squares flow is 3, 1, -1,
# -3 around the ring (f12 = a, f23 = a-2, f34 = a-4, f41 = a-6, sum 0).
# Round 1: node 1 sends 3 each way; round 2: node 2 passes one of them
# on to node 3, so six tasks end away from node 1.
"$TR" --method hublake -g ring:4 --csv 8,0,0,0 >"$csv"
[ "$(col plan)" = "1->2:3 1->4:3 2->3:1 4->3:1" ] && [ "$(col loads_after)" = "2 2 2 2" ] &&
  [ "$(col q),$(col task_hops),$(col rounds),$(col m1)" = "6,8,2,0" ] \
  && ok "Hu-Blake on ring:4" || fail "Hu-Blake ring:4: $(cat "$csv")"
# Any method: the loads after are the loads minus what leaves plus what
# arrives along the reported edge transfers (text output).
for m in transport hublake; do
  for v in T TB; do
    "$TR" --method $m --variant $v -g random:9:4:3 31,0,7,2,0,0,15,4,1 |
    awk '/transfers/ { for (i = 4; i <= NF; i++) { split($i, a, /->|:/); l[a[1]] -= a[3]; l[a[2]] += a[3] } }
      /loads after/ { n = split($3, b, ","); for (i = 1; i <= n; i++) if (l[i] + init[i] != b[i]) bad = 1 }
      BEGIN { split("31,0,7,2,0,0,15,4,1", init, ",") }
      END { exit bad }' && ok "$m $v: transfers give the loads after" || fail "$m $v transfers"
  done
done
"$TR" --method all --csv -g ring:6 10,4,0,0,2,20 >"$csv"
awk -F, 'NR > 1 { n++; if ($10 > 1 && $1 != "T") bad = 1 } END { exit bad || n != 3 }' "$csv" \
  && ok "--method all: T, TB, H rows, TB and H within 1" || fail "--method all: $(cat "$csv")"
expect_status 2 "--method 'x': expected transport, hublake or all" "$TR" --method x 1,2
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
# Fractions wherever a number is taken, full precision: one processor of
# speed 1501/21 from 0 does 25 units by t* = 25 * 21/1501 = 525/1501.
csv=$tmp/share.csv
"$SH" --csv 1501/21:0-inf >"$csv"
awk -F, 'NR == 2 { d = $3 - 525 / 1501; exit !(d < 1e-16 && d > -1e-16) }' "$csv" \
  && ok "t* = 525/1501 to 1e-16" || fail "fraction: $(cat "$csv")"
"$SH" --lambda 1 3:0-inf | grep -q 't\* = 0.3333333333$' && ok "text t* to 10 digits" || fail "text digits"
"$SH" --t0 1/3 --lambda 2/3 2:1/3-inf | grep -q 't\* = 0.6666666667$' && ok "fractions for t0 and windows" || fail "t0 fraction"
# A processor with no window takes no part.
out=$("$SH" 2 1:0-inf)
printf '%s\n' "$out" | grep -q 'p1 .*none (no window: takes no part)$' && printf '%s\n' "$out" | grep -q 't\* = 25$' \
  && ok "processor without window" || fail "no window: $out"
"$SH" --csv 2: 1:0-4,5-inf >"$csv"
[ "$(sed -n 2p "$csv" | cut -d, -f3,7-)" = "26,1,2,,0,0,0,0" ] && [ "$(sed -n 3p "$csv" | cut -d, -f7-)" = "2,1,0-4 5-inf,1,1,25,25" ] \
  && ok "no window in CSV" || fail "no window CSV: $(cat "$csv")"
expect_status 2 "no processor has an availability window" "$SH" 2 3:
expect_status 2 "processor 1: speed 0 is not a positive number" "$SH" 0 1:0-inf
expect_status 2 "'1/0' is not a time" "$SH" 1:0-1/0
"$SH" --csv --example >"$csv"
[ "$(cut -d, -f3 "$csv" | sort -u | head -1)" = 10 ] && [ "$(cut -d, -f13 "$csv" | tr '\n' ' ')" = "share 10 8 3 4 0 " ] \
  && ok "example CSV" || fail "example CSV: $(cat "$csv")"

# Seed 003 experiment, two small tests: TB always ends with max - min <= 1.
csv=$("$S3" --tests 2 --tasks 2000)
printf '%s\n' "$csv" | awk -F, 'NR > 1 && $7 > 1 { bad = 1 } END { exit bad }' \
  && ok "TB balanced" || fail "TB not balanced: $csv"
expect_status 2 "--tests" "$S3" --tests 0
"$S3" --csv --tests 1 --tasks 2000 | awk -F, 'NR == 2 { exit !(length($8) >= 12) }' \
  && ok "lbseed003 --csv, M2 at full precision" || fail "lbseed003 --csv"
expect_status 2 "--out: cannot write '$tmp/no/x.csv'" "$S3" --out "$tmp/no/x.csv"
expect_status 2 "too small" "$S3" --tasks 20 --procs 20
finish
