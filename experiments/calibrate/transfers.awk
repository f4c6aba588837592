# transfers.awk: the hops of started processes' contexts in traces
# (docs/TRACES.md) of lbmaster or lbsim, one line per hop, and a total per
# trace.  Per hop (a TRANSFER or LMM row with procs > 0 and more than
# MIN bytes, default 1 MB): the sender's time on it (lbmaster: from its
# send row to the end of the balancing interval that holds it, the
# packing and the write into its pvmd; lbsim: the CPU charge that follows
# the send), the receiver's (lbmaster: from the start of its balancing
# interval to the take-in row, the read and unpacking; lbsim: the charge
# after the take-in; a relay's two charges are one interval, shared),
# and the hop's whole time, from the send to the
# receiver's end, whose rest is time in flight or waiting for the
# receiver's quantum to end.  Times in ms of wall time (lbsim's: x UNIT
# seconds, default 0.01, holdout.sh's 10 ms).  Usage:
#   awk -F, -f transfers.awk [-v min=BYTES] [-v unit=S] TRACE...
# (each trace sorted by time: sort -t, -k1,1g)
function flush(   i, j, a, b, c, k, sb, rb, e, key) {
  if (!m) return
  for (i = 1; i <= m; i++) {
    a = b = -1
    for (j = 1; j <= n; j++) if (BH[j] == H[i] && BA[j] <= T[i] + eps && BB[j] >= T[i] - eps) { a = BA[j]; b = BB[j]; if (sim && BA[j] >= T[i] - eps) break }
    key = S[i] SUBSEP I[i]
    # lbsim charges a relay's take and send in one interval: share it
    c = 1; if (sim) { c = 0; for (j = 1; j <= m; j++) if (H[j] == H[i] && T[j] >= T[i] - eps && T[j] <= T[i] + eps) c++ }
    if (E[i] == "send") { send_t[key] = T[i]; send_busy[key] = a < 0 ? 0 : (b - (sim ? a : T[i])) / c }
    else if (key in send_t) {
      rb = a < 0 ? 0 : sim ? (b - a) / c : T[i] - a
      e = (sim ? T[i] + rb : T[i]) - send_t[key]; sb = send_busy[key]
      printf "%s,%s,%d,%d,%d,%.3f,%.1f,%.1f,%.1f,%.1f\n", file, drv, S[i], D[i], P[i], Y[i] / 1e6, 1000 * sb, 1000 * rb, 1000 * (e - sb - rb), 1000 * e
      hops++; mb += Y[i] / 1e6; tsb += sb; trb += rb; te += e
    }
  }
  printf "%s,%s,total,%d hops,,%.3f,%.1f,%.1f,%.1f,%.1f\n", file, drv, hops, mb, 1000 * tsb, 1000 * trb, 1000 * (te - tsb - trb), 1000 * te
}
BEGIN { if (min == "") min = 1e6; if (unit == "") unit = 0.01; eps = 1e-9
  print "trace,driver,from,to,procs,MB,sender_ms,receiver_ms,between_ms,hop_ms" }
FNR == 1 { flush(); delete BH; delete BA; delete BB; delete send_t; delete send_busy; n = m = hops = mb = tsb = trb = te = 0
  file = FILENAME; sub(/.*\//, "", file); sim = 0; drv = "" }
/^# driver:/ { drv = $0; sub(/^# driver: */, "", drv); sim = drv == "lbsim"; next }
/^#/ || $1 == "time" { next }
{ sc = sim ? unit : 1 }
$12 == "state" && $3 == "balancing" { n++; BH[n] = $2; BA[n] = $1 * sc; BB[n] = $14 * sc; next }
($3 == "TRANSFER" || $3 == "LMM") && $10 > 0 && $11 > min { m++; T[m] = $1 * sc; H[m] = $2; E[m] = $12; S[m] = $4; D[m] = $5; P[m] = $10; Y[m] = $11; I[m] = $13 }
END { flush() }
