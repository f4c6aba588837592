#!/bin/sh
# lbtopo platform: the SimGrid platform of a graph (simgrid/lbsg_platform.h)
# has a host per node, a link per edge and a route per edge, with the
# costs given; rings and tori become SimGrid's torus cluster, sides in
# the right order; names are escaped; bad input exits 2.  (Whether
# SimGrid loads them: tests/simgrid_cli.sh.)
. "${LB_TOP_SRCDIR:-.}/tests/lib.sh"
T=$top_builddir/tools/lbtopo
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lbfarm-plat.XXXXXX"); at_exit 'rm -rf "$tmp"'
count() { grep -c -- "$1" "$2"; }

"$T" platform ring:6 --zone graph --latency 0.01 --bandwidth 2e6 >"$tmp/r.xml" || fail "ring:6 graph: exit $?"
[ "$(count '<host id="n[0-5]" speed="1f"/>' "$tmp/r.xml")" = 6 ] && [ "$(count '<link id=' "$tmp/r.xml")" = 6 ] \
  && [ "$(count '<route ' "$tmp/r.xml")" = 6 ] && ok "ring:6: 6 hosts, 6 links, 6 routes" || fail "ring:6: $(cat "$tmp/r.xml")"
grep -q '<link id="l0-5" bandwidth="2000000Bps" latency="0.01s" sharing_policy="SPLITDUPLEX"/>' "$tmp/r.xml" \
  && grep -q '<route src="n0" dst="n5"><link_ctn id="l0-5" direction="UP"/></route>' "$tmp/r.xml" \
  && grep -q 'version="4.1"' "$tmp/r.xml" && grep -q 'routing="DijkstraCache"' "$tmp/r.xml" \
  && ok "ring:6: a full-duplex link and its route per edge" || fail "ring:6 links: $(cat "$tmp/r.xml")"

"$T" platform torus:4x6 >"$tmp/t.xml" || fail "torus:4x6: exit $?"
grep -q 'radical="0-23" speed="1f" bw="1e+30Bps" lat="1s" topology="TORUS" topo_parameters="6,4"' "$tmp/t.xml" \
  && grep -q '<prop id="lbfarm/topology" value="torus:4x6"/>' "$tmp/t.xml" \
  && ok "torus:4x6: SimGrid's torus, columns first, infinite bandwidth as 1e30" || fail "torus:4x6: $(cat "$tmp/t.xml")"
"$T" platform ring:5 | grep -q 'topo_parameters="5"' && ok "ring:5: a torus of one side" || fail "ring:5"
"$T" platform mesh:3x3 | grep -q 'routing="DijkstraCache"' && ok "mesh:3x3: the graph form" || fail "mesh:3x3"
"$T" platform torus:2x5 | grep -q 'routing="DijkstraCache"' && ok "torus:2x5: the graph form (a side of 2)" || fail "torus:2x5"

"$T" platform ring:3 --speeds 1,2,0.5 --sharing shared >"$tmp/s.xml" || fail "speeds: exit $?"
grep -q '<host id="n1" speed="2f"/>' "$tmp/s.xml" && grep -q '<host id="n2" speed="0.5f"/>' "$tmp/s.xml" \
  && grep -q 'sharing_policy="SHARED"' "$tmp/s.xml" && ! grep -q 'direction=' "$tmp/s.xml" \
  && ok "speeds per host (the graph form), shared links" || fail "speeds: $(cat "$tmp/s.xml")"

"$T" write ring:3 >"$tmp/a&b.graph"
"$T" platform "$tmp/a&b.graph" | grep -q 'a&amp;b.graph"/>' && ok "a graph file's name escaped" || fail "escaping"

expect_status 2 "is not a torus of SimGrid's" "$T" platform mesh:3x3 --zone torus
expect_status 2 "is not a torus of SimGrid's" "$T" platform torus:3x3 --zone torus --speeds 1,1,1,1,2,1,1,1,1
expect_status 2 "--latency" "$T" platform ring:4 --latency -1
expect_status 2 "--speeds: 2 values for 4 nodes" "$T" platform ring:4 --speeds 1,2
expect_status 2 "--zone: unknown platform form 'star'" "$T" platform ring:4 --zone star
expect_status 2 "--sharing: unknown sharing" "$T" platform ring:4 --sharing half
expect_status 2 "platform writes XML" "$T" platform ring:4 --csv
expect_status 2 "options of platform only" "$T" info ring:4 --latency 1
finish
