# experiments/report/render.awk: one seed's comparison rows as a Markdown
# table, the paper's value beside ours, their difference (ours - paper)
# and its size relative to the paper's, and for each row a note that
# explains it; the notes follow the table, numbered in order of first use.
#   awk -F, -v part=main -f render.awk seedNNN/explain.csv rows.csv
# explain.csv: '#' comments, then KEY,TEXT lines (the text runs to the end
# of the line and may hold commas).  rows.csv: compare.awk's rows
# (part,group,item,quantity,paper,ours,key); only those of -v part are
# shown.  A key missing from explain.csv is an error (exit 3).
function isnum(x) { return x ~ /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/ }
function abs(x) { return x < 0 ? -x : x }
function fmt(x) {
  if (!isnum(x)) return x
  x += 0
  if (x == int(x) && abs(x) < 1e15) return sprintf("%d", x)
  return abs(x) >= 1000 ? sprintf("%.1f", x) : sprintf("%.4g", x)
}
function diff(p, o,    d) {
  if (isnum(p) && isnum(o)) {
    d = o - p
    if (d == 0) return "0"
    if (d == int(d)) return sprintf("%+d", d)
    return sprintf("%+.4g", d)
  }
  if (p == "" || p == "-" || o == "" || o == "-") return "-"
  return p == o ? "=" : "differs"
}
function rel(p, o,    r) {
  if (!isnum(p) || !isnum(o)) return ""
  if (p + 0 == 0) return o + 0 == 0 ? "0.0%" : "-"
  r = 100 * (o - p) / abs(p)
  return abs(r) < 0.05 ? "0.0%" : sprintf("%+.1f%%", r)
}
FNR == NR {
  if ($0 ~ /^#/ || $0 == "") next
  i = index($0, ",")
  text[substr($0, 1, i - 1)] = substr($0, i + 1)
  next
}
$1 != part { next }
{
  if (!n++) {
    print "| table | item | quantity | paper | ours | ours - paper | relative | note |"
    print "|---|---|---|---|---|---|---|---|"
  }
  g = $2 == lastg ? "" : $2
  note = ""
  if ($7 != "" && !($7 in text)) { printf "render: no explanation '%s' in %s\n", $7, ARGV[1] > "/dev/stderr"; bad = 1; note = "?" }
  else if ($7 != "") { if (!($7 in num)) { num[$7] = ++notes; used[notes] = $7 }; note = "(" num[$7] ")" }
  printf "| %s | %s | %s | %s | %s | %s | %s | %s |\n", g, $3, $4, $5, fmt($6), diff($5, $6), rel($5, $6), note
  lastg = $2
}
END {
  if (notes) print ""
  for (i = 1; i <= notes; i++) printf "%s(%d) %s\n", (i > 1 ? "\n" : ""), i, text[used[i]]
  exit bad ? 3 : 0
}
