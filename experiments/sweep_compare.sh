#!/bin/sh
# Compare two sweep CSVs (experiments/sweep_invariants.sh) of two builds,
# cell by cell, by column name: every column both files have, less the
# provenance ones (commit, utc, host, load1, load5, load15), which differ
# between any two runs.  Columns only one file has (a parameter or a
# message type added since) are listed, and in the newer file they must
# hold the same value on every row (their default, or 0), or the rows
# that say otherwise are listed too.  Rows are matched by run number.
# Exit status 0 when every row matches, 1 otherwise, 2 on bad input.
#
# Usage: experiments/sweep_compare.sh OLD.csv NEW.csv
set -eu
case ${1:-} in -h|--help) sed -n '2,/^# Usage/p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
[ $# -eq 2 ] || { echo "usage: $0 OLD.csv NEW.csv" >&2; exit 2; }
for f in "$1" "$2"; do [ -r "$f" ] || { echo "$0: cannot read $f" >&2; exit 2; }; done
# Cells hold no commas but in quoted provenance (none in lbsim's rows):
# a plain split by comma.
awk -F, -v old="$1" '
  BEGIN { skip["commit"] = skip["utc"] = skip["host"] = skip["load1"] = skip["load5"] = skip["load15"] = 1 }
  FILENAME == old && FNR == 1 { for (i = 1; i <= NF; i++) { oc[$i] = i; on[i] = $i }; onf = NF; next }
  FILENAME == old { rows[$1] = $0; next }
  FNR == 1 {
    for (i = 1; i <= NF; i++) { nc[$i] = i; if (!($i in oc)) { extra[i] = $i; listed = listed " " $i } }
    for (i = 1; i <= onf; i++) if (!(on[i] in nc)) gone = gone " " on[i]
    printf "columns only in the old file:%s\ncolumns only in the new file:%s\n", gone ? gone : " none", listed ? listed : " none"
    next
  }
  {
    n++
    if (!($1 in rows)) { printf "run %s: not in the old file\n", $1; bad++; next }
    split(rows[$1], o, ",")
    d = ""
    for (i = 1; i <= onf; i++) {
      c = on[i]
      if (c in skip || !(c in nc)) continue
      if (o[i] != $(nc[c])) d = d sprintf(" %s: %s -> %s", c, o[i], $(nc[c]))
    }
    for (i in extra) {
      if (!(i in first)) first[i] = $i
      else if ($i != first[i]) d = d sprintf(" %s: %s (others %s)", extra[i], $i, first[i])
    }
    if (d != "") { bad++; if (bad <= 20) printf "run %s:%s\n", $1, d }
    delete rows[$1]
  }
  END {
    for (r in rows) { printf "run %s: not in the new file\n", r; bad++ }
    printf "%d rows compared, %d differ\n", n, bad
    exit bad > 0
  }' "$1" "$2"
