#!/bin/sh
# Seed 002, Table 1: speeds 1..9 on the nine connection graphs; greedy
# p1 against all 9! arrangements.  Writes table1.csv and table1.md.
# Usage: experiments/seed002/table1.sh [[-o] OUTDIR]
. "$(dirname "$0")/common.sh"
csv=$out/table1.csv
lb_tmp "$csv"; t=$lb_t
for g in 1 2 3 4 5 6 7 8 9; do
  "$LBARRANGE" -m exhaustive --csv "$GRAPHS/seed002-g$g.graph" >"$out/t1.$g"
  if [ "$g" = 1 ]; then sed -n '1s/^/no,/p' "$out/t1.$g" >>"$t"; fi
  sed -n "2s/^/$g,/p" "$out/t1.$g" >>"$t"
  rm -f "$out/t1.$g"
done
awk -F, 'NR == FNR { if (FNR > 1) for (i = 1; i <= NF; i++) P[$1, i] = $i; next }
  FNR == 1 { print "| graph | p1 paper | p1 ours | p_min paper | p_min ours | p_max paper | p_max ours | P_r % paper | P_r % ours | N< paper | N< ours | N= ours | N> paper | N> ours | pct % paper | pct % ours |";
             print "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"; next }
  { g = $1
    printf "| %s | %s | %.2f | %s | %.2f | %s | %.2f | %s | %.2f | %s | %s | %s | %s | %s | %s | %.3g |\n",
      g, P[g,2], $5, P[g,3], $6, P[g,4], $7, P[g,5], $8, P[g,6], $9, $10, P[g,7], $11, P[g,8], $12 }' \
  "$here/paper_table1.csv" "$t" >"$out/table1.md"
lb_commit "$t" "$csv"
lb_provenance "$out" complete
echo "$0: wrote $csv and $out/table1.md"
