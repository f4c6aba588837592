#!/bin/sh
# lbtrace and the space-time diagram on two small hand-written farm
# traces (tests/trace_small.csv of version 1, sends only;
# tests/trace_small2.csv with receipts and states) and on lbsim runs: the
# trace's invariants (tests/trace_check.py), its Perfetto JSON and its
# Paje export (read back by PajeNG's pj_dump where it is installed); no
# PVM.
. "${LB_TOP_SRCDIR:-.}/tests/lib.sh"
L=$top_builddir/tools/lbtrace
P=$top_srcdir/experiments/trace/plot.sh
small=$top_srcdir/tests/trace_small.csv small2=$top_srcdir/tests/trace_small2.csv
C=$top_srcdir/tests/trace_check.py
tmp=$(mktemp -d); at_exit 'rm -rf "$tmp"'
for c in python3 gnuplot; do
  command -v $c >/dev/null || { echo "SKIP: no $c"; exit 77; }
done

"$L" --help | grep -q '^Usage: lbtrace' && ok "--help" || fail "--help"

# info: what the trace holds (its rows come per worker, not in time order).
csv=$tmp/info.csv
"$L" --csv info "$small" >"$csv"
[ "$(col messages),$(col hosts),$(col sink),$(col migrations),$(col process_hops),$(col deliveries)" = 10,3,1,2,2,1 ] &&
  [ "$(col first),$(col last),$(col n_RM),$(col n_AM),$(col types)" = "0.25,1,2,2,RM AM CM LMM DRM PAYLOAD DELIVER" ] &&
  ok "info --csv" || fail "info: $(cat "$csv")"

# json: each message a slice at its send and one at its arrival, joined
# by a flow; microseconds; the hosts and lbmaster named.
# check_json FILE ARRIVAL_OFFSET_US NAME,NAME,... (in send order)
check_json() {
  python3 - "$@" <<'EOF'
import json, sys
path, off, names = sys.argv[1], float(sys.argv[2]), sys.argv[3].split(",")
ev = json.load(open(path))["traceEvents"]
threads = {e["tid"]: e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "thread_name"}
assert threads == {1: "host 0", 2: "host 1", 3: "host 2", 4: "lbmaster"}, threads
out = sorted((e for e in ev if e.get("flow_out")), key=lambda e: (e["ts"], e["bind_id"]))
inn = {e["bind_id"]: e for e in ev if e.get("flow_in")}
assert len([e for e in ev if e["ph"] == "X"]) == 2 * len(names), len(ev)
assert [e["name"] for e in out] == names, [e["name"] for e in out]
assert sorted(inn) == sorted(e["bind_id"] for e in out)
for e in out:
    i = inn[e["bind_id"]]
    assert abs(i["ts"] - e["ts"] - off) < 1e-3, (e, i)
    assert e["tid"] == e["args"]["src"] + 1 and i["name"] == e["name"], (e, i)
    dst = e["args"]["dst"]
    assert i["tid"] == (4 if dst == "lbmaster" else dst + 1), (e, i)
    assert e["ts"] == round(e["args"]["sent_s"] * 1e6, 3), e
lmm = [e for e in out if e["args"]["type"] == "LMM"]
assert all(e["cat"] == "migration" and e["args"]["procs"] == 1 and e["args"]["hv"] == 0 and e["args"]["lv"] == 1
           and e["args"]["tag"] == 1 and e["args"]["bytes"] == 173 for e in lmm), lmm
rm = [e for e in out if e["name"] == "RM"]
assert not rm or (rm[0]["ts"] == 250000.0 and rm[0]["args"]["lv"] is None and rm[0]["args"]["count"] == 4), rm
EOF
}
all=RM,RM,AM,AM,CM,"LMM migration","LMM migration",DRM,PAYLOAD,DELIVER
"$L" -o "$tmp/a.json" json "$small" && python3 -m json.tool "$tmp/a.json" >/dev/null &&
  check_json "$tmp/a.json" 7500 "$all" 2>"$tmp/err" &&
  ok "json: 10 messages, arrivals at the default offset (1% of 0.75 s)" || fail "json: $(cat "$tmp/err")"
"$L" --offset 0 json "$small" >"$tmp/b.json" && check_json "$tmp/b.json" 0 "$all" 2>"$tmp/err" &&
  ok "json --offset 0" || fail "json --offset 0: $(cat "$tmp/err")"
"$L" --from 0.7 --to 0.95 --offset 0.01 json "$small" >"$tmp/c.json" &&
  check_json "$tmp/c.json" 10000 "CM,LMM migration,LMM migration,DRM,PAYLOAD" 2>"$tmp/err" &&
  ok "json --from --to" || fail "json --from --to: $(cat "$tmp/err")"
"$L" --types RM,DELIVER json "$small" >"$tmp/d.json" && check_json "$tmp/d.json" 7500 "RM,RM,DELIVER" 2>"$tmp/err" &&
  ok "json --types" || fail "json --types: $(cat "$tmp/err")"

# Malformed traces and arguments: a message naming the problem, exit 2,
# and no output file left behind.
bad() {   # bad NEEDLE ROW: the small trace with one row replaced
  awk -v r="$2" 'NR == 3 { print r; next } { print }' "$small" >"$tmp/bad.csv"
  expect_status 2 "bad.csv:3: $1" "$L" -o "$tmp/out.json" json "$tmp/bad.csv"
  [ ! -e "$tmp/out.json" ] || fail "an output file was left: $(ls "$tmp")"
}
bad "10 columns, expected 11" "0.9,1,DRM,1,0,0,1,1,7,0"
bad "time 'x' is not a number" "x,1,DRM,1,0,0,1,1,7,0,150"
bad "time '1e999' is not a time >= 0" "1e999,1,DRM,1,0,0,1,1,7,0,150"
bad "time '-1' is not a time >= 0" "-1,1,DRM,1,0,0,1,1,7,0,150"
bad "unknown message type 'FOO'" "0.9,1,FOO,1,0,0,1,1,7,0,150"
bad "procs -1 is below 0" "0.9,1,DRM,1,0,0,1,1,7,-1,150"
bad "hv '01' is not an id (digits, no leading zero)" "0.9,1,DRM,1,0,01,1,1,7,0,150"
bad "count '99999999999999999999' is out of range" "0.9,1,DRM,1,0,0,1,1,99999999999999999999,0,150"
bad "hv 'a' is not an id" "0.9,1,DRM,1,0,a,1,1,7,0,150"
bad "src 2 differs from host 1" "0.9,1,DRM,2,0,0,1,1,7,0,150"
bad "dst -1 is below 0" "0.9,1,DRM,1,-1,0,1,1,7,0,150"
bad "DELIVER to 2: a delivery goes to lbmaster" "0.9,1,DELIVER,1,2,,,,7,0,150"
printf 'time,src,dst,type,bytes\n0.1,0,1,RM,52\n' >"$tmp/old.csv"
expect_status 2 "old.csv:1: header 'time,src,dst,type,bytes', expected '# lbfarm trace 2' then the columns" "$L" info "$tmp/old.csv"
: >"$tmp/empty.csv"
expect_status 2 "empty.csv:1: empty file" "$L" info "$tmp/empty.csv"
expect_status 2 "cannot open trace" "$L" info "$tmp/none.csv"
expect_status 2 "unknown command 'draw'" "$L" draw "$small"
expect_status 2 "--types: unknown message type 'XM'" "$L" --types RM,XM info "$small"
expect_status 2 "--from 2 is after --to 1" "$L" --from 2 --to 1 info "$small"
expect_status 2 "--latency and --bandwidth need --topology" "$L" --latency 2 info "$small"
expect_status 2 "a farm trace" "$L" --topology ring:3 info "$small"
expect_status 2 "host 2 is not in ring:2" "$L" --topology ring:2 info "$small"
expect_status 2 "unknown option '--frob'" "$L" --frob info "$small"

# lbsim: its trace records each receipt, and so do arrivals computed
# from the topology for a trace of sends only (version 1): every answer
# leaves after the message it answers has arrived: an AM leaves lv after
# the RM, a relay after the AM from below; a CM leaves after an AM of its
# transaction (hv confirms, a relay aborts) or a CM from above.  Computed
# with the run's latency they are the recorded receipts, one for one;
# with a wrong latency the same check fails.
"$top_builddir/sim/lbsim" -p rmtlb -t ring:6 -l one --msg-trace "$tmp/sim.csv" >/dev/null
awk -F, 'NR == 1 || /^#/ { next } !h { print "time,host,type,src,dst,hv,lv,tag,count,procs,bytes"; h = 1 }
  $12 == "send" { NF = 11; print }' OFS=, "$tmp/sim.csv" >"$tmp/sim1.csv"
causal() {   # prints "answers violations" for a segments CSV
  awk -F, 'function got(k, t) { return (k in a) && a[k] <= t }
    NR == FNR { if (FNR > 1) { k = $5 "|" $4 "|" $9 "|" ($5 == "RM" ? "" : $10 "|" $11)
                               if (!(k in a) || $2 + 0 < a[k]) a[k] = $2 + 0 }; next }
    FNR > 1 && ($5 == "AM" || $5 == "CM") {
      n++; x = "|" $3 "|" $9 "|" $10 "|" $11
      if ($5 == "AM") ok = $3 == $10 ? got("RM|" $3 "|" $9 "|", $1 + 0) : got("AM" x, $1 + 0)
      else ok = got("AM" x, $1 + 0) || got("CM" x, $1 + 0)
      if (!ok) v++ }
    END { print n + 0, v + 0 }' "$1" "$1"
}
"$L" segments "$tmp/sim.csv" >"$tmp/simr.seg"
set -- $(causal "$tmp/simr.seg")
[ "$1" -ge 20 ] && [ "$2" = 0 ] && ok "lbsim receipts: $1 answers, each after its cause" ||
  fail "lbsim receipts: $2 of $1 answers before their cause"
"$L" --topology ring:6 segments "$tmp/sim1.csv" >"$tmp/sim.seg"
set -- $(causal "$tmp/sim.seg")
[ "$1" -ge 20 ] && [ "$2" = 0 ] && ok "lbsim arrivals computed: $1 answers, each after its cause" ||
  fail "lbsim arrivals computed: $2 of $1 answers before their cause"
[ "$(cut -d, -f1-12 "$tmp/sim.seg")" = "$(cut -d, -f1-12 "$tmp/simr.seg")" ] &&
  [ "$(grep -c ',exact$' "$tmp/sim.seg")" = "$(grep -c ',recv$' "$tmp/simr.seg")" ] &&
  ok "computed arrivals are the recorded receipts ($(grep -c ',recv$' "$tmp/simr.seg") messages)" ||
  fail "computed arrivals differ from the receipts: $(diff "$tmp/sim.seg" "$tmp/simr.seg" | head -4)"
"$L" --topology ring:6 --latency 2 segments "$tmp/sim1.csv" >"$tmp/sim2.seg"
set -- $(causal "$tmp/sim2.seg")
[ "$2" -gt 0 ] && ok "a wrong latency is caught ($2 of $1)" || fail "latency 2 not caught: $2 of $1"

# Version 2, by hand: 8 messages sent, 7 received (the delivery to
# lbmaster is not), a payload matched by its link and process; 15 state
# intervals tile the three hosts' spans [0, 1].
csv=$tmp/info2.csv
"$L" --csv info "$small2" >"$csv"
[ "$(col messages),$(col received),$(col unmatched_recv),$(col before_send),$(col arrival),$(col arr_recv),$(col arr_offset)" = 8,7,0,0,mixed,7,1 ] &&
  [ "$(col state_hosts),$(col gaps),$(col overlaps),$(col busy_s),$(col idle_s)" = "3,0,0,0.59999999999999998,2.2000000000000002" ] &&
  ok "info --csv of a trace with receipts and states" || fail "info: $(cat "$csv")"
"$L" check "$small2" >"$tmp/out" && grep -q "^ok: 7 receipts" "$tmp/out" && ok "check: the hand trace holds" ||
  fail "check: $(cat "$tmp/out")"
python3 "$C" "$small2" >"$tmp/out" 2>&1 && ok "trace_check.py: $(cat "$tmp/out")" || fail "trace_check.py: $(cat "$tmp/out")"
"$L" --perfetto -o "$tmp/s2.json" "$small2" && python3 "$C" "$small2" --json "$tmp/s2.json" >"$tmp/out" 2>&1 &&
  ok "perfetto: $(cat "$tmp/out")" || fail "perfetto: $(cat "$tmp/out")"
# The same by the command's name, and the version-1 options still apply.
"$L" -o "$tmp/s2b.json" json "$small2" && cmp -s "$tmp/s2.json" "$tmp/s2b.json" && ok "json is --perfetto" ||
  fail "json and --perfetto differ"

# Paje: read strictly by the format's rules (trace_check.py), and back by
# PajeNG where it is installed, the states and links must be the trace's.
"$L" --paje -o "$tmp/s2.paje" "$small2" || fail "--paje"
grep -q '^%EventDef PajeSetState ' "$tmp/s2.paje" && grep -q '^%EventDef PajeStartLink ' "$tmp/s2.paje" &&
  grep -q '^%EventDef PajeDestroyContainer ' "$tmp/s2.paje" && ok "paje: a header of %EventDef blocks" ||
  fail "paje header: $(head -5 "$tmp/s2.paje")"
python3 "$C" "$small2" --paje "$tmp/s2.paje" >"$tmp/out" 2>&1 && ok "paje read strictly: $(cat "$tmp/out")" ||
  fail "paje read strictly: $(cat "$tmp/out")"
# The strict reading is a real judge: each of these breaks one rule.
pbad() {   # pbad NEEDLE SED-SCRIPT
  sed "$2" "$tmp/s2.paje" >"$tmp/bad.paje"
  python3 "$C" "$small2" --paje "$tmp/bad.paje" >/dev/null 2>"$tmp/err" && fail "paje: took '$2'" ||
    { grep -qF -- "$1" "$tmp/err" && ok "paje: '$2' refused: $1" || fail "paje: '$2': $(cat "$tmp/err")"; }
}
pbad "links never end" '/^9 .* m3$/d'
pbad "is not defined" 's/ S_idle$/ S_sleep/'
pbad "lacks ['Key']" '/^%       Key string/d'
pbad "does not exist" 's/^7 \(.*\) h2 S_/7 \1 h9 S_/'
pbad "before" '$s/^\([0-9]*\) [0-9.]*/\1 0.000000001/'
pbad "fields" 's/^5 \(.*\) CT_Host farm /5 \1 CT_Host /'
pbad "is a CT_Farm, not a CT_Host" 's/^8 \(.*\) LT_Msg farm L_RM h0 /8 \1 LT_Msg farm L_RM farm /'
if command -v pj_dump >/dev/null; then
  pj_dump -l 9 "$tmp/s2.paje" >"$tmp/s2.dump" 2>"$tmp/err" && python3 "$C" "$small2" --paje-dump "$tmp/s2.dump" >"$tmp/out" 2>&1 &&
    [ "$(grep -c '^Link' "$tmp/s2.dump"),$(grep -c '^State' "$tmp/s2.dump"),$(grep -c '^Event' "$tmp/s2.dump")" = 7,15,1 ] &&
    ok "pj_dump reads it: $(cat "$tmp/out")" || fail "pj_dump: $(cat "$tmp/err" "$tmp/out")"
  # pj_dump is a real judge: a link whose end is missing is refused.
  grep -v '^9 .* m3$' "$tmp/s2.paje" >"$tmp/bad.paje"
  ! pj_dump "$tmp/bad.paje" >/dev/null 2>&1 && ok "pj_dump refuses a link without its end" || fail "pj_dump took a broken file"
else
  echo "SKIP (checks): PajeNG's pj_dump is not installed (Debian package pajeng), the Paje file is not read back"
fi

# What check and the parser catch: each a one-row change of the hand trace.
bad2() {   # bad2 STATUS NEEDLE LINE ROW: line LINE of the hand trace replaced by ROW
  awk -v n="$3" -v r="$4" 'NR == n { print r; next } { print }' "$small2" >"$tmp/bad2.csv"
  expect_status "$1" "$2" "$L" check "$tmp/bad2.csv"
  python3 "$C" "$tmp/bad2.csv" >/dev/null 2>&1 && fail "trace_check.py took line $3: $4" ||
    ok "trace_check.py refuses line $3: $4"
}
bad2 1 "1 receipts match no send" 14 "0.700000000,0,AM,1,0,0,1,1,2,0,60,recv,9,"
bad2 1 "1 messages received before they were sent" 26 "0.200000000,1,RM,0,1,0,,,4,0,60,recv,1,"
bad2 1 "0 gaps and 1 overlaps" 33 "0.000000000,2,idle,,,,,,,,,state,,0.405000000"
bad2 1 "1 gaps and 0 overlaps" 34 "0.400000000,2,balancing,,,,,,,,,state,,0.405000000"
bad2 2 "end 0.410000000 before time 0.420000000" 34 "0.420000000,2,balancing,,,,,,,,,state,,0.410000000"
bad2 2 "host 0 sent id 1 twice" 13 "0.260000000,0,RM,0,2,0,,,4,0,60,send,1,"
bad2 2 "the receipt differs from its send" 14 "0.700000000,0,CM,1,0,0,1,1,2,0,60,recv,5,"
bad2 2 "message 1 of host 0 received twice" 28 "0.790000000,1,RM,0,1,0,,,4,0,60,recv,1,"
bad2 2 "dst 0 differs from host 1: a receipt is written by its receiver" 26 "0.300000000,1,RM,0,0,0,,,4,0,60,recv,1,"
bad2 2 "src '1' on a state row" 7 "0.000000000,0,busy,1,,,,,,,,state,,0.250000000"
bad2 2 "unknown state 'sleeping'" 7 "0.000000000,0,sleeping,,,,,,,,,state,,0.250000000"
bad2 2 "ev 'sent' is not send, recv or state" 12 "0.250000000,0,RM,0,1,0,,,4,0,60,sent,1,"
bad2 2 "id '01' is not an id" 12 "0.250000000,0,RM,0,1,0,,,4,0,60,send,01,"
bad2 2 "end '1' on a message row" 12 "0.250000000,0,RM,0,1,0,,,4,0,60,send,1,1"
bad2 2 "host 3 is not in the trace's 3 hosts" 12 "0.250000000,0,RM,0,3,0,,,4,0,60,send,1,"
bad2 2 "13 columns, expected 14" 12 "0.250000000,0,RM,0,1,0,,,4,0,60,send,1"
printf '# lbfarm trace 2\n# hosts: 2\n' >"$tmp/nocols.csv"
expect_status 2 "nocols.csv:2: no column line" "$L" info "$tmp/nocols.csv"
printf 'time,host,type,src,dst,hv,lv,tag,count,procs,bytes,ev,id,end\n' >"$tmp/nomagic.csv"
expect_status 2 "expected '# lbfarm trace 2'" "$L" info "$tmp/nomagic.csv"
expect_status 2 "--perfetto and --paje: one output at a time" "$L" --perfetto --paje "$small2"
expect_status 2 "expected TRACE" "$L" --paje info "$small2"

# lbsim's traces hold the same: with message costs (balancing intervals)
# and polling, with jitter (messages overtake), and with a node that
# fails (its lane ends there); Perfetto and Paje exports of each.
n=0
for args in "-p rmtlb -t ring:6 -l one" "--profile farm -p dasud -t torus:3x3 -l random --poll 1" \
    "-p rmtlb -t hypercube:3 -l one --jitter 0.8 --seed 4" "-p lowest -t ring:6 -l random --crash 30:2"; do
  n=$((n + 1))
  # shellcheck disable=SC2086
  "$top_builddir/sim/lbsim" $args --msg-trace "$tmp/run$n.csv" >"$tmp/run$n.txt" 2>&1 || { fail "lbsim $args: $(cat "$tmp/run$n.txt")"; continue; }
  "$L" --perfetto -o "$tmp/run$n.json" "$tmp/run$n.csv" && "$L" --paje -o "$tmp/run$n.paje" "$tmp/run$n.csv" &&
    "$L" check "$tmp/run$n.csv" >/dev/null || { fail "lbsim $args: lbtrace: $("$L" check "$tmp/run$n.csv")"; continue; }
  dump="--paje $tmp/run$n.paje"
  if command -v pj_dump >/dev/null; then
    pj_dump -l 9 "$tmp/run$n.paje" >"$tmp/run$n.dump" 2>"$tmp/err" || fail "lbsim $args: pj_dump: $(cat "$tmp/err")"
    dump="$dump --paje-dump $tmp/run$n.dump"
  fi
  # shellcheck disable=SC2086
  python3 "$C" "$tmp/run$n.csv" --json "$tmp/run$n.json" $dump --min-busy 1 >"$tmp/out" 2>&1 &&
    ok "lbsim $args: $(cat "$tmp/out")" || fail "lbsim $args: $(cat "$tmp/out")"
done
grep -q ',balancing,' "$tmp/run2.csv" && ok "message costs give balancing intervals" || fail "no balancing interval with costs"
! grep -q ',balancing,' "$tmp/run1.csv" && ok "without costs a node is busy or idle" || fail "balancing without costs"

# The diagram: PNG, SVG (XML that names the lanes and types) and PDF.
check_fig() {   # check_fig PREFIX WORD...
  p=$1; shift
  head -c 8 "$p.png" | grep -q PNG && head -c 5 "$p.pdf" | grep -q '%PDF-' || return 1
  python3 - "$p.svg" "$@" <<'EOF'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag.endswith("svg"), root.tag
text = " ".join(t for t in root.itertext())
missing = [w for w in sys.argv[2:] if w not in text]
assert not missing, missing
EOF
}
"$P" -b "$top_builddir" --title "small trace" "$small" "$tmp/fig/small" >"$tmp/paths" 2>"$tmp/err" &&
  check_fig "$tmp/fig/small" "host 2" lbmaster RM LMM DELIVER migration "result delivered" "send + 0.0075" &&
  [ "$(wc -l <"$tmp/paths")" = 5 ] && grep -qx "$tmp/fig/small.svg" "$tmp/paths" &&
  ok "plot.sh: PNG, SVG, PDF" || fail "plot.sh: $(cat "$tmp/err" "$tmp/paths")"
expect_status 2 "no message to draw" "$P" -b "$top_builddir" --from 5 "$small" "$tmp/fig/none"
expect_status 2 "unknown option '--frob'" "$P" --frob "$small" "$tmp/fig/none"
expect_status 2 "expected TRACE and PREFIX" "$P" -b "$top_builddir" "$small"

# The experiment's simulator half, from another directory.
(cd "$tmp" && "$top_srcdir/experiments/trace/spacetime.sh" -n -b "$top_builddir" -o st) >"$tmp/st.out" 2>&1 &&
  check_fig "$tmp/st/sim-spacetime" "host 5" RM AM CM LMM DRM idle "to its receipt" &&
  python3 -m json.tool "$tmp/st/sim.json" >/dev/null && grep -qx "$tmp/st/sim.json" "$tmp/st.out" &&
  ok "spacetime.sh -n" || fail "spacetime.sh -n: $(cat "$tmp/st.out")"
finish
