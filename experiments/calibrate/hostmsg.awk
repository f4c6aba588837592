# hostmsg.awk: one farm run's message trace (lbmaster --trace) and
# per-host table (--hosts-csv) -> one row per host: messages handled
# (sent or taken, results to the master included), bytes between
# workers, bytes delivered to the master, msg_s (wall time with
# messages), share (CPU share received while computing).
# A DRM or RESULT row counts as a small message: its result's bytes, if
# it carries any, are the PAYLOAD row beside it.  Only the trace's send
# rows count (its receipts and states are skipped; docs/TRACES.md).
# Usage: awk -F, -v tag=NAME -f hostmsg.awk TRACE HOSTS
FNR == 1 { f++; head = 0 }
/^#/ { next }
!head { head = 1; for (i = 1; i <= NF; i++) c[f, $i] = i; next }
f == 1 && (f, "ev") in c && $c[1, "ev"] != "send" { next }
f == 1 {
  t = $c[1, "type"]; s = $c[1, "src"]; d = $c[1, "dst"]; b = $c[1, "bytes"]
  if (t == "DRM" || t == "RESULT") b = 64
  if (t == "DELIVER") { n[s]++; db[s] += b; next }
  n[s]++; n[d]++; wb[s] += b; wb[d] += b
  next
}
{ h = $c[2, "host"]; printf "%s,%d,%d,%d,%d,%s,%s\n", tag, h, n[h], wb[h], db[h], $c[2, "msg_s"], $c[2, "share"] }
