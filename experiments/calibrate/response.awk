# response.awk: RMTLB's one-hop response times in a message trace
# (lbmaster --trace or lbsim --msg-trace, sorted by time): from an RM
# i -> j to j's AM back to i for the same heavy node, i.e. a hop, the
# wait for the quantum running at j to end, and the handling.  Prints
# count, 10th percentile, median and 90th percentile (s), CSV.  Only the
# send rows count (a trace's receipts and states are skipped).
/^#/ { next }
!head { head = 1; for (i = 1; i <= NF; i++) c[$i] = i; next }
("ev" in c) && $c["ev"] != "send" { next }
$c["type"] == "RM" { t[$c["src"], $c["dst"], $c["hv"]] = $c["time"] }
$c["type"] == "AM" && (($c["dst"], $c["src"], $c["hv"]) in t) { k = $c["dst"] SUBSEP $c["src"] SUBSEP $c["hv"]; d[++n] = $c["time"] - t[k]; delete t[k] }
END { for (i = 2; i <= n; i++) { x = d[i]; for (j = i - 1; j >= 1 && d[j] > x; j--) d[j + 1] = d[j]; d[j + 1] = x }
  if (n) printf "%d,%.4f,%.4f,%.4f\n", n, d[int(n * 0.1) + 1], d[int((n + 1) / 2)], d[(int(n * 0.9) > 0 ? int(n * 0.9) : 1)]
  else print "0,,," }
