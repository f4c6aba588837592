#!/bin/sh
# Bad input gives a clear message naming the problem and exit status 2.
. "${LB_TOP_SRCDIR:-.}/tests/lib.sh"
T=$top_builddir/tools/lbtopo
M=$top_builddir/master/lbmaster
W=$top_builddir/worker/lbworker
tmp=$(mktemp -d); at_exit 'rm -rf "$tmp"'

for p in "$T" "$M" "$W"; do
  "$p" --help | grep -q Usage && ok "$p --help" || fail "$p --help"
done
expect_status 2 "unknown option '--frobnicate'" "$T" --frobnicate info ring:4
expect_status 2 "unknown command 'blah'" "$T" blah ring:4
expect_status 2 "expected COMMAND and TOPOLOGY" "$T" info
expect_status 2 "unknown topology 'blob:3'" "$T" info blob:3
expect_status 2 "ring needs 1.." "$T" info ring:0

printf 'nodes 3\n1: 2 3\n2: 1\n3: 2\n' >"$tmp/asym.graph"
expect_status 2 "asym.graph:2: node 1 lists 3, but node 3 (line 4) does not list 1" "$T" check "$tmp/asym.graph"
printf 'nodes 4\n1: 2\n2: 1\n3: 4\n4: 3\n' >"$tmp/split.graph"
expect_status 2 "split.graph:4: the graph is not connected" "$T" check "$tmp/split.graph"
printf 'nodes 3\n1: 2 x\n' >"$tmp/junk.graph"
expect_status 2 "junk.graph:2: 'x' is not a node id" "$T" check "$tmp/junk.graph"
printf '\001\002\377binary' >"$tmp/bin.graph"
expect_status 2 "bin.graph:1:" "$T" check "$tmp/bin.graph"
expect_status 2 "cannot open" "$T" check "$tmp/missing.graph"
expect_status 0 "" "$T" check "$top_srcdir/data/graphs/seed002-g6.graph"

# Values that look negative are bad values, not unknown options, and
# every message names the program by its short name, not its path.
TR=$top_builddir/tools/lbtransport
SH=$top_builddir/tools/lbshare
expect_status 2 "lbtransport: bad value '-1,2': a negative number is not allowed here" "$TR" -1,2
expect_status 2 "lbtransport: bad value '-1,2': a negative number" "$TR" -g ring:2 -1,2
expect_status 2 "lbshare: bad value '-1:0-1': a negative number is not allowed here" "$SH" -1:0-1
expect_status 2 "lbtransport: unknown option '-x'" "$TR" -x 1,2
expect_status 2 "lbtransport: option '--help' takes no argument" "$TR" --help=3
expect_status 2 "lbtransport: option '-g' needs an argument" "$TR" 1,2 -g
expect_status 2 "lbtransport: LOADS value 2: '-2' is not a number in [0, 1e+15] (it is negative)" "$TR" -- 1,-2
err=$("$TR" -1,2 2>&1 >/dev/null; "$T" -q info ring:3 2>&1 >/dev/null)
case $err in
  *"$top_builddir"*|*tools/*) fail "a message names the program's path: $err" ;;
  *) ok "messages name the program, not its path" ;;
esac

# lbtopo --csv: known answers at full precision.  torus:8x8 has
# lambda_2 = 2 - 2 cos(2 pi / 8) = 2 - sqrt(2).
csv=$tmp/info.csv
"$T" --csv info torus:8x8 >"$csv"
[ "$(col nodes),$(col edges),$(col diameter)" = 64,128,8 ] && ok "info torus:8x8" || fail "info: $(cat "$csv")"
awk -F, 'NR == 2 { d = $9 - (2 - sqrt(2)); exit !(d < 1e-14 && d > -1e-14 && length($9) >= 16) }' "$csv" \
  && ok "lambda_2 to 1e-14" || fail "lambda_2: $(cat "$csv")"
"$T" --csv info star:40000 >"$csv"
[ "$(col diameter),$(col diameter_lo),$(col diameter_hi)" = ",1,2" ] \
  && ok "info on a large graph gives diameter bounds" || fail "big info: $(cat "$csv")"
"$T" --csv paths ring:4 >"$csv"
[ "$(wc -l <"$csv")" = 17 ] && grep -qx '1,3,2' "$csv" && ok "paths --csv" || fail "paths: $(cat "$csv")"
"$T" --csv write ring:4 | diff - "$(printf 'from,to\n1,2\n1,4\n2,3\n3,4\n' >"$tmp/w"; echo "$tmp/w")" >/dev/null \
  && ok "write --csv" || fail "write --csv"
[ "$("$T" --csv check ring:4 | tail -1)" = "ring:4,4,4" ] && ok "check --csv" || fail "check --csv"

expect_status 2 "option '--hosts' needs an argument" "$M" --hosts
expect_status 2 "--inject-wrong: host 6 of 6" "$M" --inject-wrong 6
expect_status 2 "--hosts: '0' is not an integer in 1..256" "$M" --hosts 0
expect_status 2 "--hosts: 'six' is not an integer" "$M" --hosts six
expect_status 2 "--timeout: 'nan'" "$M" --timeout nan
expect_status 2 "unexpected argument 'extra'" "$M" extra
expect_status 2 "unknown option '--bogus'" "$M" --bogus
printf 'policy,workload,makespan_s\nnone,primes,1\n' >"$tmp/old.csv"
expect_status 2 "old.csv has other columns" "$M" --out "$tmp/old.csv"
expect_status 2 "expected two arguments" "$W"
expect_status 2 "expected two arguments" "$W" 5
expect_status 2 "RUN-ID: 'x'" "$W" x 00
expect_status 2 "KEY-COMMITMENT: a key commitment is 64 hexadecimal digits" "$W" 5 abc
expect_status 2 "KEY-COMMITMENT" "$W" 5 "$(printf '%064d' 0 | sed 's/0$/g/')"
finish
