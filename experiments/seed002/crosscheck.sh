#!/bin/sh
# Table 1 by a second route: numpy's LAPACK eigvalsh over all 9!
# arrangements of each graph must give our p_min, p_max, N<, N= and N>.
# Needs table1.csv (run table1.sh first).  Writes crosscheck.csv.
# Usage: experiments/seed002/crosscheck.sh [[-o] OUTDIR]
. "$(dirname "$0")/common.sh"
[ -f "$out/table1.csv" ] || { echo "$0: $out/table1.csv missing: run table1.sh first" >&2; exit 2; }
/usr/bin/python3 -c 'import numpy' 2>/dev/null || { echo "$0: /usr/bin/python3 has no numpy (Debian: python3-numpy)" >&2; exit 2; }
lb_tmp "$out/crosscheck.csv"; t=$lb_t
PYTHONDONTWRITEBYTECODE=1 /usr/bin/python3 "$here/crosscheck.py" "$out/table1.csv" "$GRAPHS" >"$t" && rc=0 || rc=$?
# A DISAGREEMENT (exit 1) is a result, kept; anything else is a failure.
[ "$rc" -le 1 ] || lb_die "crosscheck.py failed (exit $rc)"
lb_commit "$t" "$out/crosscheck.csv"
[ "$rc" = 0 ] && lb_provenance "$out" complete
cat "$out/crosscheck.csv"
[ "$rc" = 0 ] && echo "$0: numpy agrees with every row of table1.csv" || echo "$0: DISAGREEMENT, see $out/crosscheck.csv" >&2
[ "$rc" = 0 ] || lb__said=1
exit "$rc"
