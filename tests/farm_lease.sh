#!/bin/sh
# Leases, fencing and a master that can restart, on the one-host VM:
# - a worker stopped with SIGSTOP mid-run: its lease runs out, it is
#   fenced and killed, its work runs again, the run is verified well
#   within --timeout, and nothing of it is left;
# - a host that stops once every result is in (--inject-silent): the
#   reports are no longer waited for until --timeout;
# - lbmaster killed with SIGKILL while it journals: its workers exit
#   within 5 s; the journal, cut at a random byte of its last records,
#   resumes to a verified run that takes every whole record and computes
#   none of them again, and ends whole;
# - --timeout measures progress, not results: a round-robin run with no
#   result for far longer than --timeout (every process time-shares one
#   host) is not stopped;
# - bad journals and lease settings are refused (exit 2).
. "${LB_TOP_SRCDIR:-.}/tests/lib.sh"
farm_lock
pvm_private
m="$top_builddir/master/lbmaster"
csv="$PVM_TMP/out.csv"
hosts="$PVM_TMP/hosts.csv"

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

# journal_scan FILE: "records end size" of a journal (farm/farm_journal.h):
# its whole records, where the last one ends, and the file's size.
journal_scan() {
  od -An -tu1 -v "$1" | awk '
    { for (i = 1; i <= NF; i++) b[n++] = $i }
    function u(at, k,   v, j) { v = 0; for (j = k - 1; j >= 0; j--) v = v * 256 + b[at + j]; return v }
    END {
      off = 8 + u(6, 2) + 32; recs = 0
      while (off + 20 <= n) { e = off + 20 + u(off + 12, 8) + 32; if (e > n) break; recs++; off = e }
      print recs, off, n
    }'
}

# 1. A frozen worker.
rm -f "$csv" "$hosts"
t0=$(now)
"$m" --workload primes --size 30000000 --hosts 6 --procs 48 --init one --policy rmtlb --speeds 0.30 --seed 3 \
  --timeout 60 --out "$csv" --hosts-csv "$hosts" >"$PVM_TMP/freeze.out" 2>&1 &
master=$!
pids=$(wait_workers 6) || fail "freeze: the workers did not start"
sleep 1.5
victim=$(printf '%s\n' $pids | sed -n 3p)
kill -STOP "$victim" && ok "freeze: worker $victim stopped (SIGSTOP) mid-run" || fail "freeze: no worker to stop"
wait $master
rc=$?
took=$(elapsed "$t0")
[ $rc -eq 0 ] && ok "freeze: lbmaster exit 0 after $took s (--timeout 60)" || { tail -20 "$PVM_TMP/freeze.out"; fail "freeze: lbmaster exit $rc"; }
awk -v t="$took" 'BEGIN { exit !(t < 40) }' && ok "freeze: well within --timeout" || fail "freeze: took $took s"
[ "$(col verified)" = yes ] && ok "freeze: all 48 results verified" || fail "freeze: not verified"
[ "$(col fenced)" -ge 1 ] && ok "freeze: $(col fenced) host(s) fenced" || fail "freeze: fenced $(col fenced)"
[ "$(col reruns)" -ge 1 ] && ok "freeze: $(col reruns) process(es) ran again" || fail "freeze: nothing ran again"
line=$(grep 'renewed no lease for' "$PVM_TMP/freeze.out" | head -1)
[ -n "$line" ] && ok "freeze: $line" || fail "freeze: no line on the fencing"
secs=$(printf '%s\n' "$line" | sed -n 's/.*renewed no lease for \([0-9.]*\) s.*/\1/p')
awk -v s="${secs:-99}" 'BEGIN { exit !(s >= 2 && s < 5) }' && ok "freeze: fenced $secs s after its last renewal" \
  || fail "freeze: fenced after ${secs:-?} s"
grep -q 'FENCED' "$PVM_TMP/freeze.out" && ok "freeze: the table marks it FENCED" || fail "freeze: no FENCED in the table"
[ "$(hostcol fenced | tr ' ' '\n' | grep -c yes)" -eq "$(col fenced)" ] && ok "freeze: --hosts-csv agrees" \
  || fail "freeze: --hosts-csv says $(hostcol fenced)"
kill -0 "$victim" 2>/dev/null && fail "freeze: the stopped worker $victim still runs" || ok "freeze: the stopped worker was killed"
[ ! -d "/sys/fs/cgroup/cpu/lbfarm-$victim" ] && ok "freeze: no cgroup of it" || fail "freeze: cgroup lbfarm-$victim left"
left=$(ls "$PVM_TMP" | grep "pvmtmp0*$victim\.")
[ -z "$left" ] && ok "freeze: no socket of it" || fail "freeze: sockets left: $left"
nothing_left

# 2. reports(): a host that stops itself with every result in.
rm -f "$csv"
t0=$(now)
"$m" --workload primes --size 10000000 --hosts 6 --procs 24 --policy dasud --speeds 0.30 --seed 2 --timeout 60 \
  --inject-silent 4 --out "$csv" >"$PVM_TMP/silent.out" 2>&1
rc=$?
took=$(elapsed "$t0")
[ $rc -eq 0 ] && ok "reports: lbmaster exit 0 after $took s (--timeout 60)" || { tail -20 "$PVM_TMP/silent.out"; fail "reports: exit $rc"; }
awk -v t="$took" 'BEGIN { exit !(t < 30) }' && ok "reports: not waited for until --timeout" || fail "reports: took $took s"
grep -q 'host 4: stopping itself at STOP' "$PVM_TMP/silent.out" && ok "reports: host 4 stopped itself at STOP" \
  || fail "reports: host 4 did not stop itself"
grep -q 'host 4 (t[0-9a-f]*) renewed no lease .* with every result in' "$PVM_TMP/silent.out" \
  && ok "reports: host 4 fenced, with every result in" || fail "reports: no fencing line for host 4"
[ "$(col verified)" = yes ] && [ "$(col reruns)" = 0 ] && ok "reports: verified, nothing ran again" \
  || fail "reports: verified $(col verified), reruns $(col reruns)"
nothing_left

# 3. lbmaster killed while it journals; its workers exit.
j="$PVM_TMP/run.journal"
"$m" --workload primes --size 30000000 --hosts 6 --procs 48 --init even --policy none --speeds 0.30 --seed 4 \
  --timeout 60 --journal "$j" >"$PVM_TMP/killed.out" 2>&1 &
master=$!
wait_workers 6 >/dev/null || fail "journal: the workers did not start"
i=0
while [ $i -lt 300 ]; do
  [ -s "$j" ] && [ "$(journal_scan "$j" | cut -d' ' -f1)" -ge 12 ] && break
  sleep 0.1; i=$((i + 1))
done
kill -9 $master
t0=$(now)
wait $master 2>/dev/null
i=0
while [ -n "$(pvm_task_pids lbworker)" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
[ -z "$(pvm_task_pids lbworker)" ] && ok "journal: the workers left $(elapsed "$t0") s after lbmaster was killed" \
  || fail "journal: workers still there 10 s after lbmaster was killed: $(pvm_task_pids lbworker)"
set -- $(journal_scan "$j")
recs=$1 size=$3
[ "$recs" -ge 12 ] && [ "$recs" -lt 48 ] && ok "journal: $recs whole records when lbmaster died" \
  || fail "journal: $recs records"
# Cut at a random byte of the last three records' span: what is whole
# before the cut is what the resumed run takes.
cp "$j" "$j.full"
lo=$(awk -v s="$size" -v r="$recs" 'BEGIN { print int(s - 3 * (s / (r + 1))) }')
cut=$(awk -v lo="$lo" -v hi="$size" -v seed="$$" 'BEGIN { srand(seed); print lo + int(rand() * (hi - lo)) }')
head -c "$cut" "$j.full" >"$j"
set -- $(journal_scan "$j")
whole=$1 end=$2
ok "journal: cut at byte $cut of $size: $whole whole records, $((cut - end)) torn byte(s)"
rm -f "$csv" "$hosts"
"$m" --workload primes --size 30000000 --hosts 6 --procs 48 --init even --policy none --speeds 0.30 --seed 4 \
  --timeout 60 --resume "$j" --out "$csv" --hosts-csv "$hosts" >"$PVM_TMP/resume.out" 2>&1
rc=$?
[ $rc -eq 0 ] && ok "resume: exit 0" || { tail -20 "$PVM_TMP/resume.out"; fail "resume: exit $rc"; }
[ "$(col verified)" = yes ] && ok "resume: all 48 results verified" || fail "resume: not verified"
[ "$(col journalled)" = "$whole" ] && ok "resume: $whole results taken from the journal" \
  || fail "resume: $(col journalled) from the journal, $whole whole records"
if [ "$cut" -gt "$end" ]; then
  grep -q "a torn last record skipped ($((cut - end)) byte" "$PVM_TMP/resume.out" && ok "resume: the torn record skipped with a line" \
    || fail "resume: no line on the torn record"
fi
done_sum=$(hostcol done | tr ' ' '\n' | awk '{ s += $1 } END { print s }')
[ "$done_sum" -eq $((48 - whole)) ] && ok "resume: the hosts ran $done_sum processes, none journalled" \
  || fail "resume: the hosts ran $done_sum processes, 48 - $whole were left"
set -- $(journal_scan "$j")
[ "$1" -eq 48 ] && [ "$2" -eq "$3" ] && ok "resume: the journal ends whole with 48 records" \
  || fail "resume: the journal has $1 records, ends at $2 of $3"
nothing_left

# 4. Progress, not results: 48 processes of matmul 4000 round robin on
# host 0 alone (none) hand in their first result after several seconds,
# far beyond --timeout 2; the heartbeats' quanta keep it going.
rm -f "$csv"
"$m" --workload matmul --size 4000 --procs 48 --policy none --init one --speeds 0.30 --timeout 2 \
  --out "$csv" >"$PVM_TMP/progress.out" 2>&1
rc=$?
first=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "makespan_s") c = i } END { print $c }' "$csv")
[ $rc -eq 0 ] && [ "$(col verified)" = yes ] && ok "progress: verified in $first s with --timeout 2" \
  || { tail -5 "$PVM_TMP/progress.out"; fail "progress: exit $rc"; }
grep -q 'no progress' "$PVM_TMP/progress.out" && fail "progress: stopped for no progress" || ok "progress: never taken for stalled"
nothing_left

# 5. Bad input: exit 2, before any pvmd starts.
expect_status 2 "the file exists" "$m" --workload primes --size 30000000 --procs 48 --journal "$j"
expect_status 2 "a journal of another run" "$m" --workload primes --size 20000000 --procs 48 --seed 4 --resume "$j"
expect_status 2 "cannot open" "$m" --resume "$PVM_TMP/no-such-journal"
cp "$j.full" "$j.bad"
printf 'X' | dd of="$j.bad" bs=1 seek=200 conv=notrunc 2>/dev/null
expect_status 2 "damaged before its end" "$m" --workload primes --size 30000000 --procs 48 --seed 4 --resume "$j.bad"
expect_status 2 "give one of them" "$m" --journal "$j.new" --resume "$j"
expect_status 2 "outlast two renewal periods" "$m" --lease-period 1 --lease 1.5
expect_status 2 "--lease: 0 is outside" "$m" --lease 0
[ -z "$(pvmd_pids)" ] && ok "bad input starts no pvmd" || fail "a pvmd after bad input"
finish
