#!/bin/sh
# experiments/report.sh --quick on cached results: the farm and the long
# runs come from tests/report_data (seeds 000, 002 and 004, the simulator
# claims, the paper's four in the tournament's settings), the quick ones run (seeds 001 and 003, seed 002's convergence,
# the worked examples).  No PVM: lbmaster is made unfindable, so a farm
# step that ran would fail.  Checks the report's content: every seed's
# section in Markdown and HTML, known paper and our values in their rows
# with the difference computed, notes, figures in three formats, the
# commands and the machine, each section's data provenance, and --doc
# replacing a document's tables.  Then an incomplete seed 000 result set
# (fig34.sh stopped part-way): the report marks it with the command that
# completes it and exits 1.
. "${LB_TOP_SRCDIR:-.}/tests/lib.sh"
command -v gnuplot >/dev/null || { echo "SKIP: no gnuplot"; exit 77; }
tmp=$(mktemp -d); at_exit 'rm -rf "$tmp"'
cp -r "$top_srcdir/tests/report_data" "$tmp/data"
chmod -R u+w "$tmp/data"
cat >"$tmp/doc.md" <<'DOC'
# Doc
Prose before.
<!-- report seed003 -->
| old | table |
<!-- end report seed003 -->
Prose after.
DOC
rc=0
LBMASTER=/nonexistent/lbmaster "$top_srcdir/experiments/report.sh" --quick --data "$tmp/data" \
  --out "$tmp/report" --doc "$tmp/doc.md" >"$tmp/out" 2>&1 || rc=$?
[ "$rc" = 0 ] && ok "report.sh --quick exits 0" || fail "report.sh --quick exited $rc: $(tail -5 "$tmp/out")"
md=$tmp/report/report.md html=$tmp/report/report.html
for f in "$md" "$html" "$tmp/report/tables.md"; do [ -s "$f" ] && ok "$(basename "$f") written" || fail "no $f"; done
for s in 000 001 002 003 004; do
  grep -q "^## Seed $s: " "$md" && ok "report.md has seed $s" || fail "report.md lacks seed $s"
  grep -q "<h2 id=\"seed-$s-" "$html" && ok "report.html has seed $s" || fail "report.html lacks seed $s"
  grep -q "^<!-- report seed$s -->" "$tmp/report/tables.md" || fail "tables.md lacks seed $s"
done
# A row: | group | item | quantity | paper | ours | ours - paper | relative | note |
has_row() { grep -qF "| $1 |" "$md" && ok "row: $1" || fail "no row '| $1 |' in report.md"; }
# seed 003 (run here, seed 2007): test 1's Q of H, paper 510, ours 585.
has_row "test 1 | Q of H | 510 | 585 | +75 | +14.7%"
has_row "10 processors | loads after T | 100 100 100 100 100 100 100 100 100 97 | 100 100 100 100 100 100 100 100 100 97 | ="
# seed 004 (fixture): k = 2 sharing, the paper's 134.8 / 67.45 = 1.999.
has_row "k = 2 | speedup of sharing | 1.999 | 1.953 | -0.046 | -2.3%"
has_row "lambda = 25 | t* | 10 | 10 | 0 | 0.0%"
# seed 002 (fixture): graph 1's p_min, printed 9.2, ours 16.52.
has_row "graph 1 | p_min | 9.2 | 16.52 | +7.321 | +79.6%"
# seed 000 (fixture): RMTLB fastest at primes 5e6; 134 floods on ring:6.
has_row "to 5e6 | RMTLB makespan / fastest | 1 | 1 | 0 | 0.0%"
has_row "ring:6 EPN 20 (all the room) | RMTLB runs | 1 | 134 | +133 | +13300.0%"
# seed 000 (fixture of four.sh): the best of the four by mean, RMTLB
# against it by the paired test, and RMTLB's mean over the best's.
has_row "ring:6 4/host primes skew | best of the four (mean makespan / ideal; paired test) | RMTLB | DASUD; RMTLB worse (p = 0.0059) | differs"
has_row "ring:6 4/host primes skew | RMTLB's mean makespan / ideal over the best's | 1 | 1.093 | +0.09317 | +9.3%"
has_row "ring:6 32/host matmul skew | best of the four (mean makespan / ideal; paired test) | RMTLB | RMTLB; tied with LOWEST (p = 0.084) | differs"
has_row "complete:6 4/host matmul skew | best of the four (mean makespan / ideal; paired test) | RMTLB | CCHSPMD; RMTLB tied (p = 0.43) | differs"
has_row "complete:6 32/host matmul one | best of the four (mean makespan / ideal; paired test) | RMTLB | RMTLB | ="
has_row "complete:6 32/host matmul one | RMTLB's mean makespan / ideal over the best's | 1 | 1 | 0 | 0.0%"
# seed 001 (run here): first order on the 4x4 mesh, 151 predicted, 140 taken.
has_row "mesh:4x4 | steps of first order | 151 | 140 | -11 | -7.3%"
# Every difference in the tables is ours - paper, recomputed here (ours
# is shown to 4 significant digits, the difference from full precision).
awk -F' \\| ' 'function abs(x) { return x < 0 ? -x : x }
  /^\| / && NF >= 8 && $4 ~ /^-?[0-9.]+$/ && $5 ~ /^-?[0-9.]+$/ && $6 ~ /^[-+]?[0-9.]+$/ {
    n++; if (abs($5 - $4 - $6) > 0.001 * (abs($4) + abs($5)) + 1e-9) { bad++; print > "/dev/stderr" } }
  END { printf "%d %d\n", n, bad }' "$md" >"$tmp/diffs"
read -r nd bad <"$tmp/diffs" || true
[ "${nd:-0}" -gt 100 ] && [ "${bad:-0}" = 0 ] && ok "$nd differences recomputed" || fail "differences: $(cat "$tmp/diffs")"
# Each row's note exists below its table.
grep -q '^(1) ' "$md" && ! grep -q '| ? |$' "$md" && ok "notes" || fail "a row without its note"
grep -qF "Known cause" "$md" || grep -qF "Agrees" "$md" || fail "no explanation text"
for f in seed001/speedup seed003/fig2 seed004/fig1 seed000/received; do
  for e in png svg pdf; do [ -s "$tmp/report/fig/$f.$e" ] || fail "no figure $f.$e"; done
done
ok "figures in PNG, SVG and PDF"
grep -q 'src="data:image/png;base64,' "$html" && ok "HTML embeds the PNG figures" || fail "no embedded figure"
grep -q '<table>' "$html" && grep -q '</html>' "$html" && ok "HTML tables" || fail "HTML incomplete"
grep -q '| 000 | Figs. 3 and 4 on six PVM hosts, one run per point | `[^`]*experiments/seed000/fig34.sh .*` | reused' "$md" &&
  grep -q '| 004 | Tables 1 and 2 on six PVM hosts | .* | reused' "$md" && ok "farm results reused" || fail "farm steps not reused"
grep -q '| 000 | the four policies on six hosts, tournament settings (simulator) | `[^`]*experiments/seed000/four.sh .*` | reused' "$md" &&
  ok "the tournament's results reused" || fail "four.sh not reused"
grep -q '| 003 | Tables 1 and 2, Fig. 2 | `[^`]*experiments/seed003/run.sh .*` | ran |' "$md" && ok "missing results run" || fail "seed 003 not run"
for k in "load average" "PVM:" "compiler:" "commit"; do grep -q "$k" "$md" || fail "Machine lacks $k"; done
ok "machine recorded"
if grep -q '^Prose before\.$' "$tmp/doc.md" && grep -q '^Prose after\.$' "$tmp/doc.md" &&
   ! grep -q '| old | table |' "$tmp/doc.md" && grep -qF "| loads after TB |" "$tmp/doc.md" &&
   ! grep -qF "| test 1 | Q of H |" "$tmp/doc.md"; then
  ok "--doc replaced the table with the main rows, kept the prose"
  grep -q '^- Tables 1 and 2, Fig. 2: `experiments/seed003/run.sh .*` at commit .*, load .* before and .* after\.$' "$tmp/doc.md" &&
    ok "--doc: the table says which runs made it (commit, times, load)" || fail "--doc: no provenance: $(cat "$tmp/doc.md")"
else
  fail "--doc: $(cat "$tmp/doc.md")"
fi
grep -q "^- Figs. 3 and 4 on six PVM hosts, one run per point: \`(a fixture" "$md" && grep -q "load 2.00 2.00 2.00 before" "$md" &&
  ok "sections name their data's provenance and load" || fail "no provenance in the seed 000 section"

# fig34.sh stopped at 34 of 72 runs: not reused, marked, exit 1.
sed -i 's/^status: .*/status: incomplete (34 of 72 runs; failed: primes-...)/' "$tmp/data/seed000/provenance-fig34.txt"
rc=0
LBMASTER=/nonexistent/lbmaster "$top_srcdir/experiments/report.sh" --quick --data "$tmp/data" \
  --out "$tmp/report2" >"$tmp/out2" 2>&1 || rc=$?
[ "$rc" = 1 ] && ok "an incomplete result set: exit 1" || fail "incomplete set: exit $rc: $(tail -3 "$tmp/out2")"
grep -q "34 of 72 runs" "$tmp/out2" && ok "it says why it runs fig34.sh again" || fail "no word on the incomplete set: $(cat "$tmp/out2")"
grep -q '^- \*\*Figs. 3 and 4 on six PVM hosts, one run per point: INCOMPLETE (34 of 72 runs.*complete them with `.*experiments/seed000/fig34.sh' \
  "$tmp/report2/report.md" && ok "report.md marks it with the command" || fail "not marked: $(grep -n 'Figs. 3' "$tmp/report2/report.md")"
expect_status 2 "unknown argument" "$top_srcdir/experiments/report.sh" --bogus
finish
