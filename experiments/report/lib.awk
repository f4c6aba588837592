# experiments/report/lib.awk: helpers for the per-seed compare.awk
# scripts of experiments/report.sh (awk -f lib.awk -f seedNNN/compare.awk).
# A compare script reads the cached CSV files named by -v variables in
# BEGIN and prints comparison rows with row(); it reads no input.

# csv(FILE, T): read a CSV file with a header line ('#' lines skipped)
# into T[r, column name] for rows r = 1..n; T[r, 0] is the whole line.
# Returns n, or -1 when FILE cannot be read.  Fields must hold no commas.
function csv(file, T,    line, n, nh, h, f, i, got) {
  n = 0; nh = 0
  while ((got = (getline line < file)) > 0) {
    if (line ~ /^#/ || line == "") continue
    if (!nh) { nh = split(line, h, ","); continue }
    split(line, f, ",")
    n++
    for (i = 1; i <= nh; i++) T[n, h[i]] = f[i]
    T[n, 0] = line
  }
  close(file)
  return got < 0 && !nh ? -1 : n
}

# has(T, n, name): whether the CSV read into T has a column name.
function has(T, n, name) { return n > 0 && ((1, name) in T) }

# row(PART, GROUP, ITEM, QUANTITY, PAPER, OURS, KEY): one comparison row.
# PART is main (the seed's table, docs/SEEDS.md) or detail (every row);
# PAPER or OURS may be text (an order, a load vector); KEY names the
# explanation in the seed's explain.csv.
function row(part, group, item, qty, paper, ours, key,    s) {
  s = part "," group "," item "," qty "," paper "," ours "," key
  if (split(s, _row_f, ",") != 7) {
    printf "compare: a field holds a comma: %s\n", s > "/dev/stderr"; exit 1
  }
  print s
}

# median(V, n): the median of V[1..n] (sorts V).
function median(V, n,    i, j, t) {
  for (i = 2; i <= n; i++) for (j = i; j > 1 && V[j - 1] > V[j]; j--) { t = V[j]; V[j] = V[j - 1]; V[j - 1] = t }
  return n % 2 ? V[(n + 1) / 2] : (V[n / 2] + V[n / 2 + 1]) / 2
}

# num(x): x with a fixed number of significant digits, for derived values.
function num(x) { return sprintf("%.6g", x) }

# near(a, b, tol): whether a and b differ by at most tol relatively.
function near(a, b, tol) { return b == 0 ? a == 0 : (a - b) / b <= tol && (b - a) / b <= tol }
