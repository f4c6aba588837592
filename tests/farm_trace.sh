#!/bin/sh
# A short farm run with --trace (RMTLB, six workers, results home by
# their origin, so payloads are relayed): the trace tiles every host's
# span with busy, idle and balancing intervals, matches every receipt to
# its send, none before it (tests/trace_check.py, and lbtrace check); its
# Perfetto JSON and its Paje export (read strictly by the format's rules,
# and back by pj_dump where PajeNG is installed) hold the same states and
# messages.  On one machine every
# worker shares lbmaster's clock, and the head says so; each host's
# offset estimated by Cristian's method lies within half its round trip
# of the exact one.
. "${LB_TOP_SRCDIR:-.}/tests/lib.sh"
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
farm_lock
pvm_private
m=$top_builddir/master/lbmaster L=$top_builddir/tools/lbtrace C=$top_srcdir/tests/trace_check.py
tr=$PVM_TMP/farm.csv csv=$PVM_TMP/out.csv

out=$($m --policy rmtlb --hosts 6 --workload primes --size 3000000 --procs 36 --init skewed --speeds 0.30 \
  --results origin --out "$csv" --trace "$tr" 2>&1)
[ "$(col verified)" = yes ] && ok "the traced run is verified" || { printf '%s\n' "$out"; fail "not verified"; }
[ "$(col msgs_CLOCK)" -ge 72 ] && ok "$(col msgs_CLOCK) CLOCK messages: 6 rounds or more each way per worker" ||
  fail "msgs_CLOCK $(col msgs_CLOCK)"
head -1 "$tr" | grep -qx '# lbfarm trace 2' && grep -qx '# hosts: 6' "$tr" && grep -qx '# driver: lbmaster' "$tr" &&
  ok "the head: version, hosts, driver" || fail "head: $(head -3 "$tr")"
grep -q "^# clock: shared: every host runs on lbmaster's machine" "$tr" && ok "one machine: one clock, said so" ||
  fail "clock line: $(grep '^# clock' "$tr")"
# Cristian's estimate against the exact offset, per host.
awk '/^# offset: / { for (i = 3; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
       n++; d = v["estimate_s"] - v["offset_s"]; if (d < 0) d = -d
       if (v["clock"] != "shared" || v["rounds"] < 6 || d > v["rtt_s"] / 2 + 2e-9) bad++
       if (d > w) w = d }
     END { printf "%d %d %.3g\n", n, bad, w; exit !(n == 6 && !bad) }' "$tr" >"$PVM_TMP/off" &&
  ok "6 offsets exact; estimates within half their round trip (at most $(cut -d' ' -f3 "$PVM_TMP/off") s off)" ||
  fail "offsets: $(cat "$PVM_TMP/off"; grep '^# offset' "$tr")"

"$L" check "$tr" >"$PVM_TMP/check" 2>&1 && ok "lbtrace check: $(cat "$PVM_TMP/check")" || fail "lbtrace check: $(cat "$PVM_TMP/check")"
"$L" --perfetto -o "$PVM_TMP/farm.json" "$tr" && "$L" --paje -o "$PVM_TMP/farm.paje" "$tr" || fail "the exports"
dump="--paje $PVM_TMP/farm.paje"
if command -v pj_dump >/dev/null; then
  pj_dump -l 9 "$PVM_TMP/farm.paje" >"$PVM_TMP/farm.dump" 2>"$PVM_TMP/err" && dump="$dump --paje-dump $PVM_TMP/farm.dump" ||
    fail "pj_dump refuses the farm's Paje trace: $(cat "$PVM_TMP/err")"
else
  echo "SKIP (checks): PajeNG's pj_dump is not installed (Debian package pajeng), the Paje file is not read back"
fi
# shellcheck disable=SC2086
python3 "$C" "$tr" --json "$PVM_TMP/farm.json" $dump --each-busy 1 >"$PVM_TMP/out" 2>&1 &&
  ok "trace_check.py: $(cat "$PVM_TMP/out")" || fail "trace_check.py: $(cat "$PVM_TMP/out")"
for k in PAYLOAD LMM; do
  [ "$(awk -F, -v k=$k '$3 == k && $12 == "recv"' "$tr" | wc -l)" -gt 0 ] && ok "$k receipts traced" || fail "no $k receipt"
done
grep -q ',idle,' "$tr" && grep -q ',balancing,' "$tr" && ok "idle and balancing intervals" || fail "no idle or balancing"
finish
