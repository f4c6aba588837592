# experiments/report/md2html.awk: the Markdown that report.sh writes, as
# one self-contained HTML page (PNG figures embedded, other links kept).
#   awk -v dir=REPORTDIR -v title=TITLE -f md2html.awk report.md > report.html
# The subset: # headings, paragraphs, - lists, | tables |, ``` code
# fences, a figure ![caption](file.png) alone on a line, `code`, **bold**,
# [text](link), and lines of raw HTML (starting with <) kept as they are.
function esc(s) { gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s); gsub(/>/, "\\&gt;", s); return s }
# Inline markup outside code spans: links, then bold.
function span(s,    out, a, t, u) {
  s = esc(s)
  while (match(s, /\[[^]]*\]\([^)]*\)/)) {
    a = substr(s, RSTART, RLENGTH)
    t = substr(a, 2, index(a, "](") - 2)
    u = substr(a, index(a, "](") + 2); u = substr(u, 1, length(u) - 1)
    out = out substr(s, 1, RSTART - 1) "<a href=\"" u "\">" t "</a>"
    s = substr(s, RSTART + RLENGTH)
  }
  s = out s; out = ""
  while (match(s, /\*\*[^*]+\*\*/)) {
    out = out substr(s, 1, RSTART - 1) "<strong>" substr(s, RSTART + 2, RLENGTH - 4) "</strong>"
    s = substr(s, RSTART + RLENGTH)
  }
  return out s
}
function inline(s,    n, p, i, out) {
  n = split(s, p, "`")
  for (i = 1; i <= n; i++) out = out (i % 2 ? span(p[i]) : "<code>" esc(p[i]) "</code>")
  return out
}
function close_blocks() {
  if (para != "") { print "<p>" inline(para) "</p>"; para = "" }
  if (inlist) { print "</ul>"; inlist = 0 }
  if (intable) { print "</tbody></table>"; intable = 0 }
}
function cells(line, tag,    n, c, i, out) {
  sub(/^\|/, "", line); sub(/\|[ \t]*$/, "", line)
  n = split(line, c, "|")
  for (i = 1; i <= n; i++) { gsub(/^ +| +$/, "", c[i]); out = out "<" tag ">" inline(c[i]) "</" tag ">" }
  return "<tr>" out "</tr>"
}
function slug(s) { s = tolower(s); gsub(/[^a-z0-9]+/, "-", s); gsub(/^-|-$/, "", s); return s }
function figure(alt, src,    cmd, data) {
  if (src ~ /\.png$/ && (getline data < (dir "/" src)) >= 0) {
    close(dir "/" src)
    cmd = "base64 -w0 '" dir "/" src "'"
    data = ""; cmd | getline data; close(cmd)
    if (data != "") src = "data:image/png;base64," data
  }
  print "<figure><img src=\"" src "\" alt=\"" esc(alt) "\"><figcaption>" inline(alt) "</figcaption></figure>"
}
BEGIN {
  print "<!DOCTYPE html>"
  print "<html lang=\"en\"><head><meta charset=\"utf-8\">"
  print "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
  print "<title>" esc(title) "</title>"
  print "<style>"
  print "body { font-family: sans-serif; max-width: 80em; margin: 1em auto; padding: 0 1em; line-height: 1.4; color: #222; }"
  print "table { border-collapse: collapse; margin: 0.5em 0 1em; font-size: 0.9em; }"
  print "th, td { border: 1px solid #bbb; padding: 0.15em 0.5em; vertical-align: top; }"
  print "th { background: #eee; } tr:nth-child(even) td { background: #f8f8f8; }"
  print "td:nth-child(n+4):nth-child(-n+7) { text-align: right; white-space: nowrap; }"
  print "code, pre { background: #f3f3f3; } pre { padding: 0.5em; overflow-x: auto; }"
  print "figure { margin: 1em 0; } img { max-width: 100%; } figcaption { font-size: 0.9em; color: #555; }"
  print "</style></head><body>"
}
infence { if ($0 ~ /^```/) { print "</code></pre>"; infence = 0 } else print esc($0); next }
/^```/ { close_blocks(); printf "<pre><code>"; infence = 1; next }
/^#+ / {
  close_blocks()
  n = match($0, /^#+/); n = RLENGTH; t = substr($0, n + 2)
  printf "<h%d id=\"%s\">%s</h%d>\n", n, slug(t), inline(t), n
  next
}
/^!\[[^]]*\]\([^)]*\)[ \t]*$/ {
  close_blocks()
  alt = substr($0, 3, index($0, "](") - 3)
  src = substr($0, index($0, "](") + 2); sub(/\)[ \t]*$/, "", src)
  figure(alt, src)
  next
}
/^\|/ {
  if (!intable) {
    close_blocks()
    print "<table><thead>" cells($0, "th") "</thead><tbody>"
    intable = 1; skipsep = 1
    next
  }
  if (skipsep) { skipsep = 0; if ($0 ~ /^\|[-:| ]+$/) next }
  print cells($0, "td")
  next
}
/^- / { if (!inlist) { close_blocks(); print "<ul>"; inlist = 1 }; print "<li>" inline(substr($0, 3)) "</li>"; next }
/^</ { close_blocks(); print; next }
/^[ \t]*$/ { close_blocks(); next }
inlist && /^  / { sub(/^ +/, ""); print inline($0); next }
{ para = para (para == "" ? "" : "\n") $0 }
END { close_blocks(); print "</body></html>" }
