#!/bin/sh
# lbtrace and the space-time diagram on a small hand-written farm trace
# (tests/trace_small.csv) and on an lbsim run; no PVM.
. "${LB_TOP_SRCDIR:-.}/tests/lib.sh"
L=$top_builddir/tools/lbtrace
P=$top_srcdir/experiments/trace/plot.sh
small=$top_srcdir/tests/trace_small.csv
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
expect_status 2 "old.csv:1: header 'time,src,dst,type,bytes', expected 'time,host,type," "$L" info "$tmp/old.csv"
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

# lbsim: arrivals computed from the topology are exact, so every answer
# leaves after the message it answers has arrived: an AM leaves lv after
# the RM, a relay after the AM from below; a CM leaves after an AM of its
# transaction (hv confirms, a relay aborts) or a CM from above.  With a
# wrong latency the same check fails.
"$top_builddir/sim/lbsim" -p rmtlb -t ring:6 -l one --msg-trace "$tmp/sim.csv" >/dev/null
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
"$L" --topology ring:6 segments "$tmp/sim.csv" >"$tmp/sim.seg"
set -- $(causal "$tmp/sim.seg")
[ "$1" -ge 20 ] && [ "$2" = 0 ] && ok "lbsim arrivals: $1 answers, each after its cause" ||
  fail "lbsim arrivals: $2 of $1 answers before their cause"
"$L" --topology ring:6 --latency 2 segments "$tmp/sim.csv" >"$tmp/sim2.seg"
set -- $(causal "$tmp/sim2.seg")
[ "$2" -gt 0 ] && ok "a wrong latency is caught ($2 of $1)" || fail "latency 2 not caught: $2 of $1"

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
  [ "$(wc -l <"$tmp/paths")" = 4 ] && grep -qx "$tmp/fig/small.svg" "$tmp/paths" &&
  ok "plot.sh: PNG, SVG, PDF" || fail "plot.sh: $(cat "$tmp/err" "$tmp/paths")"
expect_status 2 "no message to draw" "$P" -b "$top_builddir" --from 5 "$small" "$tmp/fig/none"
expect_status 2 "unknown option '--frob'" "$P" --frob "$small" "$tmp/fig/none"
expect_status 2 "expected TRACE and PREFIX" "$P" -b "$top_builddir" "$small"

# The experiment's simulator half, from another directory.
(cd "$tmp" && "$top_srcdir/experiments/trace/spacetime.sh" -n -b "$top_builddir" -o st) >"$tmp/st.out" 2>&1 &&
  check_fig "$tmp/st/sim-spacetime" "host 5" RM AM CM LMM DRM exact &&
  python3 -m json.tool "$tmp/st/sim.json" >/dev/null && grep -qx "$tmp/st/sim.json" "$tmp/st.out" &&
  ok "spacetime.sh -n" || fail "spacetime.sh -n: $(cat "$tmp/st.out")"
finish
