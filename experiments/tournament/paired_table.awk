# paired_table.awk: paired.csv (paired.awk) as Markdown: per setting the
# winner, the policies the paired test cannot tell from it (Holm-adjusted
# p >= 0.05), and the nearest other policy's effect: its median per-seed
# makespan ratio to the winner's, with the interval and its coverage;
# then per policy the settings it won and those where it tied the
# winner.  awk -F, -f paired_table.awk paired.csv
NR == 1 { next }
{
  s = $1
  if (!(s in seen)) { seen[s] = 1; S[++ns] = s; W[s] = $2; WM[s] = $3; pol[$2] = 1; if (!($2 in po)) { po[$2] = ++npo; PO[npo] = $2 } }
  if (!($4 in po)) { po[$4] = ++npo; PO[npo] = $4 }
  if ($16 == "tie") { T[s] = T[s] (T[s] == "" ? "" : ", ") $4; tie[$4]++ }
  if (!(s in best) || $12 + 0 < BM[s]) { best[s] = $4; BM[s] = $12 + 0; BL[s] = $13; BH[s] = $14; BC[s] = $15; BP[s] = $11; BN[s] = $6 }
}
END {
  print "| setting | winner (mean ratio) | not told apart (Holm p >= 0.05) | nearest other: median ratio to the winner [interval, coverage], Holm p | seeds |"
  print "|---|---|---|---|---|"
  for (i = 1; i <= ns; i++) { s = S[i]; win[W[s]]++
    printf "| %s | **%s** (%.3f) | %s | %s %.3f [%.3f, %.3f; %.0f %%], p = %.3g | %d |\n", s, W[s], WM[s], T[s] == "" ? "-" : T[s],
      best[s], BM[s], BL[s], BH[s], 100 * BC[s], BP[s], BN[s] }
  print ""
  print "| policy | wins | ties with the winner | wins or ties (of " ns ") |"
  print "|---|---|---|---|"
  for (j = 1; j <= npo; j++) { p = PO[j]; printf "| %s | %d | %d | %d |\n", p, win[p], tie[p], win[p] + tie[p] }
}
