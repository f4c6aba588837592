#!/usr/bin/env python3
"""The invariants of a trace (docs/TRACES.md), read here on their own,
apart from lb/lb_trace.c and tools/lbtrace, and of its two exports.

Usage: trace_check.py TRACE [--json FILE] [--paje FILE] [--paje-dump FILE]
                      [--min-busy S] [--each-busy 1]

TRACE: every host has state rows, and they tile its span (first start to
last end) with no gap and no overlap; every receipt matches one send (by
sender and id; a payload, which has no id, by link and process in the
order sent) of the same type and link, and is not before it.
--json: Perfetto's file (lbtrace --perfetto) holds every state interval
as a slice on its host's track, at the trace's times, the slices of a
track never overlap, and every message sent is a flow_out slice whose
flow_in slice is at the receipt, where there is one.
--paje: lbtrace --paje's file, read strictly by the rules of the Paje
trace file format (read_paje below), holds each host's states and a link
per received message, at the trace's times.
--paje-dump: the same of pj_dump -l 9's reading of that file (PajeNG).
--min-busy: at least S busy in all; --each-busy 1: every host busy a while.
Prints one summary line; exits 1 with the first violation."""
import collections, csv, json, sys

EPS = 1.5e-9          # the trace's times have nine decimals


def die(msg):
    print("VIOLATION: " + msg, file=sys.stderr)
    sys.exit(1)


def read_trace(path):
    meta, rows = {}, []
    with open(path) as f:
        lines = f.read().splitlines()
    if lines[0] != "# lbfarm trace 2":
        die("%s: first line %r" % (path, lines[0]))
    k = 1
    while lines[k].startswith("#"):
        key, _, value = lines[k][2:].partition(": ")
        meta[key] = value
        k += 1
    cols = lines[k].split(",")
    for n, line in enumerate(lines[k + 1:], k + 2):
        if line.startswith("#"):
            continue
        v = line.split(",")
        if len(v) != len(cols):
            die("line %d: %d columns" % (n, len(v)))
        r = dict(zip(cols, v))
        r["line"] = n
        rows.append(r)
    return meta, rows


def check_trace(meta, rows, min_busy, each_busy):
    hosts = int(meta["hosts"])
    states = collections.defaultdict(list)
    sends, recvs = {}, []
    payload_sends = collections.defaultdict(list)
    for r in rows:
        h = int(r["host"])
        if not 0 <= h < hosts:
            die("line %d: host %d of %d" % (r["line"], h, hosts))
        if r["ev"] == "state":
            if any(r[c] for c in ("src", "dst", "hv", "lv", "tag", "count", "procs", "bytes", "id")):
                die("line %d: a state row with message columns" % r["line"])
            states[h].append((float(r["time"]), float(r["end"]), r["type"], r["line"]))
        elif r["end"]:
            die("line %d: an end on a message row" % r["line"])
        elif r["ev"] == "send":
            if r["src"] != r["host"]:
                die("line %d: a send written by host %s from %s" % (r["line"], r["host"], r["src"]))
            if r["id"]:
                key = (r["src"], r["id"])
                if key in sends:
                    die("line %d: id %s of host %s sent twice" % (r["line"], r["id"], r["src"]))
                sends[key] = r
            else:
                payload_sends[(r["src"], r["dst"], r["count"])].append(r)
        elif r["ev"] == "recv":
            if r["dst"] != r["host"]:
                die("line %d: a receipt written by host %s for %s" % (r["line"], r["host"], r["dst"]))
            recvs.append(r)
        else:
            die("line %d: ev %r" % (r["line"], r["ev"]))
    busy = collections.Counter()
    spans = {}
    for h in range(hosts):
        v = sorted(states[h])
        if not v:
            die("host %d has no state rows" % h)
        for a, b in zip(v, v[1:]):
            if b[0] != a[1]:
                die("host %d: %s %.9f..%.9f (line %d), then %s from %.9f (line %d): %s" %
                    (h, a[2], a[0], a[1], a[3], b[2], b[0], b[3], "a gap" if b[0] > a[1] else "an overlap"))
        mine = collections.Counter()
        for s in v:
            if s[1] < s[0] or s[2] not in ("busy", "idle", "balancing"):
                die("host %d: state %r %.9f..%.9f (line %d)" % (h, s[2], s[0], s[1], s[3]))
            mine[s[2]] += s[1] - s[0]
        if each_busy and not mine["busy"] > 0:
            die("host %d is never busy" % h)
        busy.update(mine)
        spans[h] = (v[0][0], v[-1][1])
    if busy["busy"] < min_busy:
        die("%.6g s busy in all, fewer than %g" % (busy["busy"], min_busy))
    matched = {}
    payload_recvs = collections.defaultdict(list)
    for r in sorted(recvs, key=lambda r: r["line"]):
        if r["id"]:
            s = sends.get((r["src"], r["id"]))
        else:
            payload_recvs[(r["src"], r["dst"], r["count"])].append(r)
            continue
        if s is None:
            die("line %d: a receipt of %s %s from host %s that no send matches" % (r["line"], r["type"], r["id"], r["src"]))
        if (s["type"], s["dst"], s["procs"], s["count"]) != (r["type"], r["dst"], r["procs"], r["count"]):
            die("line %d: receipt differs from its send (line %d)" % (r["line"], s["line"]))
        if float(r["time"]) < float(s["time"]):
            die("line %d: received at %s, before its send at %s (line %d)" % (r["line"], r["time"], s["time"], s["line"]))
        if s["line"] in matched:
            die("line %d: message %s of host %s received twice" % (r["line"], r["id"], r["src"]))
        matched[s["line"]] = r
    for key, rs in payload_recvs.items():
        ss = sorted(payload_sends.get(key, []), key=lambda r: r["line"])
        if len(rs) > len(ss):
            die("line %d: %d payload receipts of %s, %d sends" % (rs[0]["line"], len(rs), key, len(ss)))
        for s, r in zip(ss, sorted(rs, key=lambda r: r["line"])):
            if float(r["time"]) < float(s["time"]):
                die("line %d: payload received before its send (line %d)" % (r["line"], s["line"]))
            matched[s["line"]] = r
    for r in rows:   # every message row inside its host's span
        if r["ev"] != "state":
            a, b = spans[int(r["host"])]
            if not a - EPS <= float(r["time"]) <= b + EPS:
                die("line %d: %s at %s outside host %s's span %.9f..%.9f" % (r["line"], r["ev"], r["time"], r["host"], a, b))
    nsend = len(sends) + sum(len(v) for v in payload_sends.values())
    return states, matched, nsend, busy


def check_json(path, states, matched, nsend, rows_by_line):
    ev = json.load(open(path))["traceEvents"]
    names = {e["tid"]: e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "thread_name"}
    slices = collections.defaultdict(list)
    outs, ins = {}, {}
    for e in ev:
        if e["ph"] != "X":
            continue
        if e["cat"] == "state":
            slices[e["tid"]].append((round(e["ts"] * 1000), round((e["ts"] + e["dur"]) * 1000), e["name"]))
        elif e.get("flow_out"):
            if e["bind_id"] in outs:
                die("json: flow %d leaves twice" % e["bind_id"])
            outs[e["bind_id"]] = e
        elif e.get("flow_in"):
            if e["bind_id"] in ins:
                die("json: flow %d arrives twice" % e["bind_id"])
            ins[e["bind_id"]] = e
    if sorted(outs) != sorted(ins):
        die("json: flows without both ends")
    if len(outs) != nsend:
        die("json: %d flows for %d messages sent" % (len(outs), nsend))
    for h, v in states.items():
        if names.get(h + 1) != "host %d" % h:
            die("json: track %d is %r" % (h + 1, names.get(h + 1)))
        want = [(round(a * 1e9), round(b * 1e9), s) for a, b, s, _ in sorted(v)]
        got = sorted(slices[h + 1])
        if got != want:
            die("json: host %d's state slices differ from its rows (%d, %d)" % (h, len(got), len(want)))
        for a, b in zip(got, got[1:]):
            if b[0] < a[1]:
                die("json: host %d's slices overlap at %d ns" % (h, b[0]))
    received = 0
    for k, o in outs.items():
        i = ins[k]
        line = o["args"]["line"]
        if o["tid"] != o["args"]["src"] + 1:
            die("json: message of line %d on track %d" % (line, o["tid"]))
        r = matched.get(line)
        if r is not None:
            received += 1
            if abs(i["ts"] - float(r["time"]) * 1e6) > 1e-3 or i["args"]["arrival"] != "recv" or i["tid"] != int(r["host"]) + 1:
                die("json: the receipt of line %d at %s on track %d, not %s on %d" % (line, i["ts"], i["tid"], r["time"], int(r["host"]) + 1))
        if abs(o["ts"] - float(rows_by_line[line]["time"]) * 1e6) > 1e-3:
            die("json: the send of line %d at %s" % (line, o["ts"]))
    return received


# ---- the Paje trace file format, strictly ----
# Each event's fields by name: those it must define (any order), and the
# kind of each (date, string, color, ...).
PAJE_FIELDS = {
    "PajeDefineContainerType": ["Alias", "Type", "Name"],
    "PajeDefineStateType": ["Alias", "Type", "Name"],
    "PajeDefineEventType": ["Alias", "Type", "Name"],
    "PajeDefineVariableType": ["Alias", "Type", "Name", "Color"],
    "PajeDefineLinkType": ["Alias", "Type", "StartContainerType", "EndContainerType", "Name"],
    "PajeDefineEntityValue": ["Alias", "Type", "Name", "Color"],
    "PajeCreateContainer": ["Time", "Alias", "Type", "Container", "Name"],
    "PajeDestroyContainer": ["Time", "Type", "Name"],
    "PajeSetState": ["Time", "Type", "Container", "Value"],
    "PajePushState": ["Time", "Type", "Container", "Value"],
    "PajePopState": ["Time", "Type", "Container"],
    "PajeResetState": ["Time", "Type", "Container"],
    "PajeNewEvent": ["Time", "Type", "Container", "Value"],
    "PajeStartLink": ["Time", "Type", "Container", "Value", "StartContainer", "Key"],
    "PajeEndLink": ["Time", "Type", "Container", "Value", "EndContainer", "Key"],
    "PajeSetVariable": ["Time", "Type", "Container", "Value"],
    "PajeAddVariable": ["Time", "Type", "Container", "Value"],
    "PajeSubVariable": ["Time", "Type", "Container", "Value"],
}
PAJE_KINDS = ("date", "int", "double", "hex", "string", "color")


def paje_split(line, n):
    """Fields of a body line: words, or "quoted strings" without quotes."""
    out, k = [], 0
    while k < len(line):
        if line[k] in " \t":
            k += 1
        elif line[k] == '"':
            e = line.find('"', k + 1)
            if e < 0:
                die("paje line %d: an unterminated string" % n)
            out.append(line[k + 1:e])
            k = e + 1
        else:
            e = k
            while e < len(line) and line[e] not in " \t":
                e += 1
            out.append(line[k:e])
            k = e
    return out


def read_paje(path):
    """The Paje file's states per container name and its links, as
    pj_dump gives them, after checking every rule on the way: the
    header's event definitions (known events, every field they need, of
    a known kind), each line's field count and values (dates, colours),
    times that never go back, types and values defined before use and of
    the right kind of type, containers created once in a parent of their
    type's parent type and alive when used, and links whose start and end
    pair by key with containers of the link type's ends."""
    defs, body = {}, []
    cur = None
    with open(path) as f:
        for n, line in enumerate(f.read().splitlines(), 1):
            if line.startswith("%"):
                w = line[1:].split()
                if w and w[0] == "EventDef":
                    if cur or len(w) != 3 or w[1] not in PAJE_FIELDS or w[2] in defs:
                        die("paje line %d: %r" % (n, line))
                    cur = (w[2], w[1], [])
                elif w and w[0] == "EndEventDef":
                    if not cur:
                        die("paje line %d: EndEventDef outside a definition" % n)
                    names = [x for x, _ in cur[2]]
                    missing = [x for x in PAJE_FIELDS[cur[1]] if x not in names]
                    if missing or len(set(names)) != len(names):
                        die("paje line %d: %s lacks %s or repeats a field" % (n, cur[1], missing))
                    defs[cur[0]] = (cur[1], cur[2])
                    cur = None
                else:
                    if not cur or len(w) != 2 or w[1] not in PAJE_KINDS:
                        die("paje line %d: %r" % (n, line))
                    cur[2].append((w[0], w[1]))
            elif line.startswith("#") or not line.strip():
                continue
            else:
                if cur:
                    die("paje line %d: an event inside a definition" % n)
                body.append((n, line))
    ctype = {"0": None}          # container type -> its parent type
    stype, etype, ltype, value = {}, {}, {}, {}
    cont = {"0": ["0", None, True, "0"]}   # alias -> [type, parent, alive, name]
    byname = {}
    states = collections.defaultdict(list)  # container name -> [start, end, value]
    open_links, links, last_t = {}, [], float("-inf")
    for n, line in body:
        v = paje_split(line, n)
        if v[0] not in defs:
            die("paje line %d: event %r is not defined" % (n, v[0]))
        ev, fields = defs[v[0]]
        if len(v) - 1 != len(fields):
            die("paje line %d: %d fields, %s has %d" % (n, len(v) - 1, ev, len(fields)))
        e = {}
        for (name, kind), x in zip(fields, v[1:]):
            if kind in ("date", "double"):
                try:
                    x = float(x)
                except ValueError:
                    die("paje line %d: %s %r is not a number" % (n, name, x))
            elif kind == "color":
                c = x.split()
                if len(c) != 3 or any(not 0 <= float(y) <= 1 for y in c):
                    die("paje line %d: colour %r" % (n, x))
            e[name] = x
        if "Time" in e:
            if e["Time"] < last_t:
                die("paje line %d: time %.9f before %.9f" % (n, e["Time"], last_t))
            last_t = e["Time"]

        def container(c, typ):
            if c not in cont or not cont[c][2]:
                die("paje line %d: container %r does not exist (or is destroyed)" % (n, c))
            if typ is not None and cont[c][0] != typ:
                die("paje line %d: container %r is a %s, not a %s" % (n, c, cont[c][0], typ))
            return cont[c]

        if ev == "PajeDefineContainerType":
            if e["Type"] not in ctype or e["Alias"] in ctype:
                die("paje line %d: container type %r in %r" % (n, e["Alias"], e["Type"]))
            ctype[e["Alias"]] = e["Type"]
        elif ev in ("PajeDefineStateType", "PajeDefineEventType"):
            if e["Type"] not in ctype or e["Type"] == "0":
                die("paje line %d: %s in %r" % (n, ev, e["Type"]))
            (stype if ev == "PajeDefineStateType" else etype)[e["Alias"]] = e["Type"]
        elif ev == "PajeDefineLinkType":
            for k in ("Type", "StartContainerType", "EndContainerType"):
                if e[k] not in ctype:
                    die("paje line %d: link type's %s %r" % (n, k, e[k]))
            ltype[e["Alias"]] = (e["Type"], e["StartContainerType"], e["EndContainerType"])
        elif ev == "PajeDefineEntityValue":
            if e["Type"] not in stype and e["Type"] not in etype and e["Type"] not in ltype:
                die("paje line %d: a value of %r" % (n, e["Type"]))
            value[(e["Type"], e["Alias"])] = value[(e["Type"], e["Name"])] = e["Name"]
        elif ev == "PajeCreateContainer":
            if e["Type"] not in ctype or e["Alias"] in cont:
                die("paje line %d: container %r of type %r" % (n, e["Alias"], e["Type"]))
            container(e["Container"], ctype[e["Type"]] if ctype[e["Type"]] != "0" else "0")
            cont[e["Alias"]] = [e["Type"], e["Container"], True, e["Name"]]
            byname[e["Name"]] = e["Alias"]
        elif ev == "PajeDestroyContainer":
            c = e["Name"] if e["Name"] in cont else byname.get(e["Name"], e["Name"])
            x = container(c, e["Type"])
            s = states.get(x[3])
            if s and s[-1][1] is None:
                s[-1][1] = e["Time"]
            x[2] = False
        elif ev == "PajeSetState":
            if e["Type"] not in stype:
                die("paje line %d: state type %r" % (n, e["Type"]))
            x = container(e["Container"], stype[e["Type"]])
            if (e["Type"], e["Value"]) not in value:
                die("paje line %d: value %r of %r is not defined" % (n, e["Value"], e["Type"]))
            s = states[x[3]]
            if s and s[-1][1] is None:
                s[-1][1] = e["Time"]
            s.append([e["Time"], None, value[(e["Type"], e["Value"])]])
        elif ev == "PajeNewEvent":
            if e["Type"] not in etype:
                die("paje line %d: event type %r" % (n, e["Type"]))
            container(e["Container"], etype[e["Type"]])
        elif ev in ("PajeStartLink", "PajeEndLink"):
            if e["Type"] not in ltype or (e["Type"], e["Value"]) not in value:
                die("paje line %d: link type %r, value %r" % (n, e["Type"], e["Value"]))
            lt = ltype[e["Type"]]
            container(e["Container"], lt[0])
            start = ev == "PajeStartLink"
            end = container(e["StartContainer" if start else "EndContainer"], lt[1] if start else lt[2])
            key = (e["Type"], e["Key"])
            if start:
                if key in open_links:
                    die("paje line %d: link key %r started twice" % (n, e["Key"]))
                open_links[key] = (e["Time"], e["Value"], end[3])
            else:
                if key not in open_links:
                    die("paje line %d: link key %r ends before it starts" % (n, e["Key"]))
                t0, val, src = open_links.pop(key)
                links.append((t0, e["Time"], value[(e["Type"], val)], src, end[3]))
        else:
            die("paje line %d: %s is not used here" % (n, ev))
    if open_links:
        die("paje: %d links never end" % len(open_links))
    for c, s in states.items():
        if s and s[-1][1] is None:
            die("paje: container %r is never destroyed" % c)
    return {c: [tuple(x) for x in s] for c, s in states.items()}, links


def read_paje_dump(path):
    got = collections.defaultdict(list)
    links = []
    with open(path) as f:
        for line in f:
            v = [x.strip() for x in line.split(",")]
            if v[0] == "State":
                got[v[1]].append((float(v[3]), float(v[4]), v[7]))
            elif v[0] == "Link":
                links.append((float(v[3]), float(v[4]), v[6], v[7], v[8]))
    return got, links


def check_paje(got, links, states, matched, rows_by_line):
    for h, st in states.items():
        want = sorted((a, b, s) for a, b, s, _ in st)
        have = sorted(got.get("host %d" % h, []))
        if len(have) != len(want) or any(abs(x[0] - y[0]) > EPS or abs(x[1] - y[1]) > EPS or x[2] != y[2]
                                         for x, y in zip(have, want)):
            die("paje: host %d: %d states, the trace %d, or at other times" % (h, len(have), len(want)))
    want = sorted((round(float(rows_by_line[l]["time"]), 9), round(float(r["time"]), 9), r["type"],
                   "host " + r["src"], "host " + r["dst"]) for l, r in matched.items())
    have = sorted((round(a, 9), round(b, 9), y, s, d) for a, b, y, s, d in links)
    if have != want:
        die("paje: %d links, %d messages received" % (len(have), len(want)))
    return len(links)


def main(argv):
    args = {"--json": None, "--paje": None, "--paje-dump": None, "--min-busy": "0", "--each-busy": "0"}
    path = argv[1]
    for k in range(2, len(argv), 2):
        if argv[k] not in args:
            die("unknown option " + argv[k])
        args[argv[k]] = argv[k + 1]
    meta, rows = read_trace(path)
    states, matched, nsend, busy = check_trace(meta, rows, float(args["--min-busy"]), args["--each-busy"] == "1")
    by_line = {r["line"]: r for r in rows}
    out = "%d hosts tile their spans (%d intervals; busy %.6g s, idle %.6g s, balancing %.6g s); " \
          "%d messages sent, %d received, each after its send" % (
              len(states), sum(len(v) for v in states.values()), busy["busy"], busy["idle"], busy["balancing"],
              nsend, len(matched))
    if args["--json"]:
        n = check_json(args["--json"], states, matched, nsend, by_line)
        out += "; json: %d flows end at their receipt" % n
    if args["--paje"]:
        n = check_paje(*read_paje(args["--paje"]), states, matched, by_line)
        out += "; paje (read strictly): %d links" % n
    if args["--paje-dump"]:
        n = check_paje(*read_paje_dump(args["--paje-dump"]), states, matched, by_line)
        out += "; pj_dump: %d links" % n
    print(out)


if __name__ == "__main__":
    main(sys.argv)
