#!/bin/sh
# lbsimgrid as a user runs it: lbsim's options and CSV schema, bad input
# (exit 2), every policy under every kind of option with no violation and
# lbsim's workload, repeatable runs, and the platform: lbtopo's file gives
# the run its default, both forms of a torus agree, the links' latency is
# what the run pays.  SKIP (77) where SimGrid is not installed.
. "${LB_TOP_SRCDIR:-.}/tests/lib.sh"
S=$top_builddir/sim/lbsim
G=$top_builddir/simgrid/lbsimgrid
T=$top_builddir/tools/lbtopo
[ -x "$G" ] || { echo "SKIP: lbsimgrid not built (configure found no SimGrid: apt-get install libsimgrid-dev g++)"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lbfarm-sgcli.XXXXXX"); at_exit 'rm -rf "$tmp"'
cell() { awk -F, -v k="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == k) c = i; next } { print $c }' "$2"; }

"$G" --help | grep -q '^Usage: lbsimgrid' && "$G" --help | grep -q -- '--platform F' && ok "--help" || fail "--help"
[ "$("$G" --csv-header)" = "$("$S" --csv-header)" ] && ok "lbsim's CSV header" || fail "CSV header differs"
"$G" -t ring:6 --csv >"$tmp/one.csv" && [ "$(cell driver "$tmp/one.csv")" = lbsimgrid ] \
  && ok "the row names its driver" || fail "driver column: $(cat "$tmp/one.csv")"

expect_status 2 "does not simulate failures" "$G" --crash 5:1
expect_status 2 "does not simulate wrong results" "$G" --corrupt 1:0.5
"$G" --version | grep -q '^lbsimgrid (lbfarm) ' && ok "--version is lbfarm's" || fail "--version: $("$G" --version 2>&1 | head -2)"
expect_status 2 "unknown policy 'fastest'" "$G" --policy fastest
expect_status 2 "unknown option '--frob'" "$G" --frob
expect_status 2 "Unable to open" "$G" --platform "$tmp/none.xml"
echo '<platform' >"$tmp/bad.xml"
expect_status 2 "bad.xml" "$G" --platform "$tmp/bad.xml"
"$T" platform ring:5 >"$tmp/r5.xml"
expect_status 2 "has 5 hosts, the graph 6 nodes" "$G" -t ring:6 --platform "$tmp/r5.xml"
"$T" platform ring:5 --speeds 1,2,1,1,1 >"$tmp/r5s.xml"
expect_status 2 "host n1 has speed 2" "$G" -t ring:5 --platform "$tmp/r5s.xml"
"$T" platform torus:3x3 --zone graph >"$tmp/t33.xml"
sed 's/value="torus:3x3"/value="mesh:3x3"/' "$tmp/t33.xml" >"$tmp/m33.xml"
expect_status 2 "is of the graph mesh:3x3, not torus:3x3" "$G" -t torus:3x3 --platform "$tmp/m33.xml"
expect_status 2 "is not a torus of SimGrid's" "$G" -t mesh:3x3 --zone torus
expect_status 2 "--sharing: unknown sharing" "$G" --sharing half
expect_status 2 "--zone needs a value" "$G" --zone
expect_status 2 "contexts/factory:thread" "$G" --cfg=contexts/factory:thread

# Every policy under every kind of option: no violation, lbsim's workload.
printf '0 0 5\n0.5 1 3\n1 2 7 6\n1 0 2\n3 3 4\n' >"$tmp/trace.txt"
pols=$("$S" --help | sed -n '/^Policies/,/^$/p' | awk '/^  [a-z]/ { print $1 }')
for pol in $pols; do
  for args in "-t ring:6" "-t torus:6x6 --profile farm" "-t torus:6x6 --jitter 0.7 --leaving" \
      "-t random:40:20:3 --poll 1 --cost-msg 0.01 --zone graph" "-t mesh:4x5 --route direct --sched fifo --results origin" \
      "-t ring:4 --load trace:$tmp/trace.txt" "-t hypercube:5 --bandwidth 100 --ctx-bytes 300 --result-bytes 1000" \
      "-t star:7 --no-codec --results origin --sharing shared"; do
    "$G" -p $pol $args --csv >"$tmp/g.csv" 2>"$tmp/g.err"
    rc=$?
    sargs=$(printf '%s' "$args" | sed 's/--zone graph//; s/--sharing shared//')
    "$S" -p $pol $sargs --csv >"$tmp/s.csv" 2>/dev/null
    if [ $rc -ne 0 ] || [ "$(cell violations "$tmp/g.csv")" != 0 ]; then
      fail "$pol $args: exit $rc, violations $(cell violations "$tmp/g.csv") ($(head -c 300 "$tmp/g.err"))"
    elif [ "$(cell ideal "$tmp/g.csv")" != "$(cell ideal "$tmp/s.csv")" ]; then
      fail "$pol $args: another workload than lbsim's"
    else
      echo "$pol $args" >>"$tmp/passed"
    fi
  done
done
want=$(( $(echo $pols | wc -w) * 8 ))
[ "$want" -ge 56 ] && [ "$(wc -l <"$tmp/passed")" = "$want" ] && ok "$want runs: 0 violations, lbsim's workload" \
  || fail "$(wc -l <"$tmp/passed") of $want runs passed"

"$G" -p rmtlb -t torus:6x6 -s 3 --jitter 1 >"$tmp/a.txt" && "$G" -p rmtlb -t torus:6x6 -s 3 --jitter 1 >"$tmp/b.txt" \
  && cmp -s "$tmp/a.txt" "$tmp/b.txt" && ok "same command, same output" || fail "runs differ"
"$G" -p dasud -t torus:4x4 --load-csv "$tmp/l.csv" --sample 5 --msg-trace "$tmp/m.csv" >/dev/null \
  && [ "$(head -1 "$tmp/l.csv")" = "time,queued,max,min,heavy,light" ] && [ "$(sed -n 2p "$tmp/l.csv" | cut -d, -f1,2)" = 0,128 ] \
  && [ "$(head -1 "$tmp/m.csv")" = "$(head -1 "$("$S" -p dasud -t torus:4x4 --msg-trace "$tmp/m2.csv" >/dev/null; echo "$tmp/m2.csv")")" ] \
  && [ "$(wc -l <"$tmp/m.csv")" -gt 100 ] && "$top_builddir/tools/lbtrace" check "$tmp/m.csv" >/dev/null \
  && ok "load CSV and trace (every receipt matched, each host's states tiled)" || fail "load CSV or trace: $(head -3 "$tmp/l.csv")"

# The platform: lbtopo's is the default; the graph and torus forms of a
# torus are one network; the links' latency is what the run pays.
run="-p rmtlb -t torus:4x4 --latency 0.3 --jitter 0.5 -s 2"
"$G" $run >"$tmp/d.txt"
"$T" platform torus:4x4 --latency 0.3 >"$tmp/t44.xml"
"$G" $run --platform "$tmp/t44.xml" >"$tmp/p.txt"
cmp -s "$tmp/d.txt" "$tmp/p.txt" && ok "lbtopo's platform is the default" || fail "--platform differs from the default"
"$G" $run --zone graph >"$tmp/g.txt"
cmp -s "$tmp/d.txt" "$tmp/g.txt" && ok "the graph form of torus:4x4 runs as its torus form" || fail "graph and torus forms differ"
"$T" platform torus:4x4 --latency 3 >"$tmp/slow.xml"
a=$(grep '^makespan' "$tmp/d.txt" | awk '{ print $2 }')
b=$("$G" $run --platform "$tmp/slow.xml" | awk '$1 == "makespan" { print $2 }')
awk -v a="$a" -v b="$b" 'BEGIN { exit !(b > a * 1.05) }' && ok "links of 10 x the latency: makespan $a -> $b" \
  || fail "the platform's latency did not count: $a -> $b"
c=$("$G" -p none -t torus:4x4 --latency 0.3 --platform "$tmp/slow.xml" | awk '$1 == "makespan" { print $2 }')
d=$("$S" -p none -t torus:4x4 --latency 0.3 | awk '$1 == "makespan" { print $2 }')
[ "$c" = "$d" ] && ok "none pays no link: $c" || fail "none: $c, lbsim $d"
finish
