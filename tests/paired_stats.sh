#!/bin/sh
# The tournament's paired statistics (experiments/tournament/signrank.awk)
# against published values:
#  - Wilcoxon's signed-rank test, exact: Hollander and Wolfe (1973),
#    Nonparametric Statistical Methods, pp. 29f, the Hamilton depression
#    scale of 9 patients at two visits, as R's ?wilcox.test prints it:
#    V = 40, one-sided p = 0.01953 (10 of the 512 sign patterns), so the
#    two-sided p is 0.0390625; R 4 gives 0.04401098 for the same data
#    with exact = FALSE (normal approximation, continuity correction).
#  - with ties and a zero (normal approximation with the tie correction):
#    d = 1 2 2 3 -1 4 4 5 0 6, R 4's wilcox.test(d, exact = FALSE):
#    V = 43.5, p = 0.01488986.
#  - Holm's adjustment: R's p.adjust(c(.01, .02, .03, .04, .05), "holm")
#    = .05 .08 .09 .09 .09, and (.04, .001, .03, .2) -> (.09, .004, .09, .2).
#  - the paired t-test, two-sided: R 4's t.test(x, y, paired = TRUE) on
#    Hollander and Wolfe's data: t = 3.03537541565, p = 0.0161766274349;
#    t.test(c(.012, .03, -.004, .021, .015)): t = 2.63530490824,
#    p = 0.0578639089472.
#  - the median's order-statistic interval: for n = 10 the 2nd and 9th
#    values, coverage 1 - 2 x 11/1024 = 0.978515625 (binomial tails).
. "${LB_TOP_SRCDIR:-.}/tests/lib.sh"
sr=$top_srcdir/experiments/tournament/signrank.awk
check() {   # NAME GOT WANT TOLERANCE
  if awk -v g="$2" -v w="$3" -v t="$4" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(g != "" && d <= t) }'; then
    ok "$1 = $2"
  else
    fail "$1 = $2, wanted $3 (within $4)"
  fi
}
tmp=$(mktemp -d); at_exit 'rm -rf "$tmp"'
cat >"$tmp/t.awk" <<'AWK'
BEGIN {
  split("1.83 0.50 1.62 2.48 1.68 1.88 1.55 3.06 1.30", x, " ")
  split("0.878 0.647 0.598 2.05 1.06 1.29 1.06 3.14 1.29", y, " ")
  for (i = 1; i <= 9; i++) d[i] = x[i] - y[i]
  wsr(d, 9); printf "%s %s %.10f %s\n", WSR_N, WSR_V, WSR_P, WSR_METHOD
  # the same with one zero added: no exact p (as R), the normal one
  d[10] = 0; wsr(d, 10); printf "%s %s %.10f %s\n", WSR_N, WSR_V, WSR_P, WSR_METHOD
  split("1 2 2 3 -1 4 4 5 0 6", e, " "); wsr(e, 10); printf "%s %s %.10f %s\n", WSR_N, WSR_V, WSR_P, WSR_METHOD
  split("0 0 0", z, " "); wsr(z, 3); printf "%s %s %.10f %s\n", WSR_N, WSR_V, WSR_P, WSR_METHOD
  split("0.01 0.02 0.03 0.04 0.05", p, " "); holm(p, 5, a); printf "%g %g %g %g %g\n", a[1], a[2], a[3], a[4], a[5]
  split("0.04 0.001 0.03 0.2", p, " "); holm(p, 4, a); printf "%g %g %g %g\n", a[1], a[2], a[3], a[4]
  split("7 3 9 1 10 2 8 4 6 5", m, " "); medci(m, 10); printf "%g %g %g %.9f\n", MED, MED_LO, MED_HI, MED_CONF
  split("5 1 4 2 3", m, " "); medci(m, 5); printf "%g %g %g %.9f\n", MED, MED_LO, MED_HI, MED_CONF
  for (i = 1; i <= 9; i++) d[i] = x[i] - y[i]
  ttest(d, 9); printf "%.10f %.12f %d\n", TT_T, TT_P, TT_DF
  split("0.012 0.03 -0.004 0.021 0.015", f, " "); ttest(f, 5); printf "%.10f %.12f %d\n", TT_T, TT_P, TT_DF
  split("0 0 0", z, " "); ttest(z, 3); printf "%g %g\n", TT_T, TT_P
}
AWK
out=$(awk -f "$sr" -f "$tmp/t.awk" 2>&1) || fail "awk: $out"
line() { printf '%s\n' "$out" | sed -n "$1p" | cut -d' ' -f"$2"; }
check "Hollander-Wolfe n" "$(line 1 1)" 9 0
check "Hollander-Wolfe V" "$(line 1 2)" 40 0
check "Hollander-Wolfe exact p" "$(line 1 3)" 0.0390625 1e-12
[ "$(line 1 4)" = exact ] && ok "exact method" || fail "method $(line 1 4), wanted exact"
check "Hollander-Wolfe with a zero: V" "$(line 2 2)" 40 0
check "Hollander-Wolfe normal p" "$(line 2 3)" 0.04401098401 1e-6
[ "$(line 2 4)" = normal ] && ok "normal method with a zero" || fail "method $(line 2 4), wanted normal"
check "ties V" "$(line 3 2)" 43.5 0
check "ties n (zero dropped)" "$(line 3 1)" 9 0
check "ties normal p" "$(line 3 3)" 0.01488986083 1e-6
check "all zero p" "$(line 4 3)" 1 0
[ "$(line 5 1-5)" = "0.05 0.08 0.09 0.09 0.09" ] && ok "Holm 1" || fail "Holm 1: $(line 5 1-5)"
[ "$(line 6 1-4)" = "0.09 0.004 0.09 0.2" ] && ok "Holm 2" || fail "Holm 2: $(line 6 1-4)"
[ "$(line 7 1-3)" = "5.5 2 9" ] && ok "median and interval, n = 10" || fail "median n = 10: $(line 7 1-3)"
check "coverage n = 10" "$(line 7 4)" 0.978515625 1e-9
[ "$(line 8 1-3)" = "3 1 5" ] && ok "median and interval, n = 5" || fail "median n = 5: $(line 8 1-3)"
check "coverage n = 5" "$(line 8 4)" 0.9375 1e-9
check "paired t, Hollander-Wolfe: t" "$(line 9 1)" 3.03537541565 1e-9
check "paired t, Hollander-Wolfe: p" "$(line 9 2)" 0.0161766274349 1e-9
check "paired t, df" "$(line 9 3)" 8 0
check "t, n = 5: t" "$(line 10 1)" 2.63530490824 1e-9
check "t, n = 5: p" "$(line 10 2)" 0.0578639089472 1e-9
check "t, all zero: p" "$(line 11 2)" 1 0
finish
