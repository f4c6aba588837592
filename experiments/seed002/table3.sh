#!/bin/sh
# Seed 002, Table 3: the nine speed sets of Table 2 on the nine graphs;
# P_r and pct of the greedy p1 among all 9! arrangements.
# Writes table3.csv and table3.md.  Usage: experiments/seed002/table3.sh [[-o] OUTDIR]
. "$(dirname "$0")/common.sh"
csv=$out/table3.csv
lb_tmp "$csv"; t=$lb_t
echo "set,graph,p1,p_min,p_max,P_r_pct,N_below,N_equal,N_above,pct" >"$t"
tail -n +2 "$here/paper_table2.csv" | while IFS=, read -r set speeds; do
  s=$(echo "$speeds" | tr ' ' ',')
  for g in 1 2 3 4 5 6 7 8 9; do
    "$LBARRANGE" -m exhaustive --csv -s "$s" "$GRAPHS/seed002-g$g.graph" |
      awk -F, -v set="$set" -v g="$g" 'NR == 2 { print set "," g "," $4 "," $5 "," $6 "," $7 "," $8 "," $9 "," $10 "," $11 }' >>"$t"
  done
done
awk -F, 'NR == FNR { if (FNR > 1) { R[$1, $2] = $3; C[$1, $2] = $4 } next }
  FNR == 1 { print "| set | graph | P_r % paper | P_r % ours | pct % paper | pct % ours |"; print "|---|---|---|---|---|---|"; next }
  { printf "| %s | %s | %s | %.2f | %s | %.3g |\n", $1, $2, R[$1, $2], $6, C[$1, $2], $10 }' \
  "$here/paper_table3.csv" "$t" >"$out/table3.md"
# The pipes above hide a failed lbarrange: every set and graph must be there.
[ "$(wc -l <"$t")" -eq $(( ($(wc -l <"$here/paper_table2.csv") - 1) * 9 + 1 )) ] || lb_die "$csv: rows missing (an lbarrange run failed)"
lb_commit "$t" "$csv"
lb_provenance "$out" complete
echo "$0: wrote $csv and $out/table3.md"
