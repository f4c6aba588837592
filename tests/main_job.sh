#!/bin/sh
# The README's main job (scripts/main.sh), small: every policy it runs
# verifies, the table, CSV and chart in three formats are written under
# absolute paths, a bad policy exits 2, and Ctrl-C (SIGINT to its process
# group, as a terminal sends it) exits 130 leaving no pvmd, worker or
# PVM file, after which the job runs again.  A second main job on the
# same directory is refused at once, changes nothing, and the first one
# ends with all its rows.
. "${LB_TOP_SRCDIR:-.}/tests/lib.sh"
farm_lock
pvm_private
main="$top_srcdir/scripts/main.sh"
LBMASTER="$(cd "$top_builddir" && pwd)/master/lbmaster" LBFARM_SKIP_SETUP=1
export LBMASTER LBFARM_SKIP_SETUP
o="$PVM_TMP/out"
small="--size 2000000 --procs 60 --capacities 2"

out=$("$main" --outdir "$o" --policies none,dasud,rmtlb $small 2>"$PVM_TMP/err")
rc=$?
[ $rc -eq 0 ] && ok "main job exit 0" || { cat "$PVM_TMP/err"; fail "main job exit $rc"; }
csv="$o/main.csv"
[ "$(hostcol policy "$csv")" = "none dasud rmtlb " ] && ok "a row per policy, in order" \
  || fail "policies: $(hostcol policy "$csv")"
[ "$(hostcol verified "$csv")" = "yes yes yes " ] && ok "every run verified" || fail "verified: $(hostcol verified "$csv")"
[ "$(hostcol procs "$csv")" = "60 60 60 " ] && ok "arguments change the job" || fail "procs: $(hostcol procs "$csv")"
[ "$(wc -l <"$o/main.txt")" = 4 ] && grep -q '^rmtlb ' "$o/main.txt" && ok "table" || fail "table: $(cat "$o/main.txt")"
for ext in png svg pdf; do
  [ -s "$o/main.$ext" ] && ok "chart .$ext" || fail "no main.$ext"
done
printf '%s\n' "$out" | grep -q "^CSV: *$o/main.csv$" && ok "absolute CSV path printed" || fail "paths: $out"
printf '%s\n' "$out" | grep -q '^ideal: ' && ok "ideal explained" || fail "no explanation of ideal"

# Two main jobs on one directory: the second is refused and deletes nothing.
cp "$o/main.csv" "$PVM_TMP/first.csv"
"$main" --outdir "$o" --policies none,dasud,rmtlb $small >"$PVM_TMP/job1.out" 2>&1 &
job1=$!
i=0; until grep -q '^\[1/3\]' "$PVM_TMP/job1.out" || [ $i -ge 300 ]; do sleep 0.1; i=$((i + 1)); done
t0=$(date +%s%N)
"$main" --outdir "$o" --policies rmtlb $small >/dev/null 2>"$PVM_TMP/job2.err"
rc=$?
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
[ $rc -eq 1 ] && grep -q "another main job is writing to $o" "$PVM_TMP/job2.err" && [ $ms -lt 2000 ] &&
  ok "a second main job is refused in $ms ms" || fail "second job: exit $rc after $ms ms: $(cat "$PVM_TMP/job2.err")"
cmp -s "$o/main.csv" "$PVM_TMP/first.csv" && ok "the refused job changed nothing" || fail "main.csv changed by the refused job"
wait $job1
rc=$?
[ $rc -eq 0 ] && [ "$(hostcol policy "$csv")" = "none dasud rmtlb " ] && [ "$(hostcol verified "$csv")" = "yes yes yes " ] &&
  ok "the first job ends with its three rows" || fail "first job: exit $rc, policies $(hostcol policy "$csv"): $(tail -5 "$PVM_TMP/job1.out")"

expect_status 2 "unknown policy 'fastest'" "$main" --policies none,fastest
expect_status 2 "writes its own files" "$main" --out x.csv

# Ctrl-C in the middle of the second policy's run.
perl -e '$SIG{INT} = "DEFAULT"; setpgrp(0, 0); exec @ARGV or die' \
  "$main" --outdir "$o" --policies none,rmtlb --size 30000000 --procs 60 >"$PVM_TMP/int.out" 2>&1 &
job=$!
i=0; until grep -q '^\[2/2\]' "$PVM_TMP/int.out" || [ $i -ge 600 ]; do sleep 0.1; i=$((i + 1)); done
sleep 1
kill -INT -$job
i=0; while kill -0 $job 2>/dev/null && [ $i -lt 150 ]; do sleep 0.1; i=$((i + 1)); done
wait $job
rc=$?
[ $rc -eq 130 ] && ok "interrupted main job exits 130" || { cat "$PVM_TMP/int.out"; fail "interrupted job exited $rc"; }
grep -q 'interrupted' "$PVM_TMP/int.out" && ok "it says so" || fail "no message"
nothing_left
"$main" --outdir "$o" --policies rmtlb $small >/dev/null 2>"$PVM_TMP/err" && [ "$(col verified)" = yes ] \
  && ok "the next main job succeeds" || { cat "$PVM_TMP/err"; fail "main job after an interrupt"; }
finish
