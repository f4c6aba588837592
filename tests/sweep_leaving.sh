#!/bin/sh
# The farm's way with contexts under the invariants: 300 randomised
# simulator runs (every policy, graphs, loads, failures in a third)
# where each node keeps a live copy of the processes that ran there and
# saves it into one only when it leaves (lbsim --leaving, the runtime's
# `leaving`, as the worker does).  Every run must keep every invariant,
# and since the runs draw the same numbers, give the same CSV row as the
# run that hands the node the context after every quantum.  The longer
# sweep: experiments/sweep_invariants.sh -n 10000 -L.
. "${LB_TOP_SRCDIR:-.}/tests/lib.sh"
tmp=$(mktemp -d); at_exit 'rm -rf "$tmp"'
sweep=$top_srcdir/experiments/sweep_invariants.sh

"$sweep" -n 300 -s 7 -L -b "$top_builddir" -o "$tmp/leaving" >"$tmp/leaving.txt" 2>&1 &&
  ok "300 runs in leaving mode, no violation" || fail "leaving sweep: $(head -3 "$tmp/leaving.txt")"
"$sweep" -n 300 -s 7 -b "$top_builddir" -o "$tmp/quantum" >"$tmp/quantum.txt" 2>&1 ||
  fail "sweep: $(head -3 "$tmp/quantum.txt")"
# Columns by name; the provenance (commit, time, host, load) differs
# between the two sweeps and is left out of the comparison.
hdr='NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }'
crashed=$(awk -F, "$hdr"' $c["crashed"] > 0 { n++ } END { print n + 0 }' "$tmp/leaving/sweep.csv")
moved=$(awk -F, "$hdr"' $c["migrated_started"] > 0 { n++ } END { print n + 0 }' "$tmp/leaving/sweep.csv")
[ "$crashed" -ge 50 ] && [ "$moved" -ge 100 ] && ok "$crashed runs with failures, $moved that moved started processes" ||
  fail "too few runs that test it: $crashed with failures, $moved that moved started processes"
strip() {
  awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i ~ /^(commit|utc|host|load1|load5|load15)$/) skip[i] = 1 }
    { s = ""; for (i = 1; i <= NF; i++) if (!skip[i]) s = s (s == "" ? "" : ",") $i; print s }' "$1"
}
strip "$tmp/leaving/sweep.csv" >"$tmp/leaving.rows"
strip "$tmp/quantum/sweep.csv" >"$tmp/quantum.rows"
cmp -s "$tmp/leaving.rows" "$tmp/quantum.rows" && ok "the same rows either way" ||
  fail "leaving mode changed results: $(diff "$tmp/quantum.rows" "$tmp/leaving.rows" | head -4)"
finish
