#!/bin/sh
# The installed library: `make install` into a staging directory, then
# every installed header compiles on its own, examples/balance.c builds
# from the installed files alone (pkg-config --static), gives the
# hand-computed answer, and agrees with the installed lbtransport;
# examples/policy.c, a policy written outside the library, builds the
# same way, registers, runs in the installed simulator with no invariant
# violated and balances a skewed start; and `make uninstall` leaves
# nothing behind.
. "${LB_TOP_SRCDIR:-.}/tests/lib.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lbfarm-inst.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
stage=$tmp/stage

# The compiler and sanitizer flags the library was built with.
mkvar() { sed -n "s/^$1 = //p" "$top_builddir/Makefile"; }
CC=$(mkvar CC)
SAN=$(mkvar SAN_CFLAGS)
PKG_CONFIG=$(mkvar PKG_CONFIG)

# A make of its own: not the jobserver of the make check that runs us.
if ! MAKEFLAGS= make -C "$top_builddir" install DESTDIR="$stage" >"$tmp/install.log" 2>&1; then
  cat "$tmp/install.log" >&2
  fail "make install DESTDIR=..."
  finish
fi
pc=$(find "$stage" -name lbfarm.pc)
[ -n "$pc" ] && ok "lbfarm.pc installed" || { fail "no lbfarm.pc in $stage"; finish; }
# DESTDIR moved the tree: --define-prefix takes the prefix from where
# the .pc file is.
PKG_CONFIG_PATH=$(dirname "$pc")
export PKG_CONFIG_PATH
pkg() { "$PKG_CONFIG" --define-prefix "$@" lbfarm; }
[ "$(pkg --modversion)" = "$(mkvar PACKAGE_VERSION)" ] && ok "version" || fail "version $(pkg --modversion)"
cflags=$(pkg --cflags)
libs=$(pkg --libs --static)
inc=$(printf '%s\n' $cflags | sed -n 's/^-I//p' | grep "^$stage/")
[ -d "$inc" ] && [ "$(basename "$inc")" = lbfarm ] && ok "Cflags: -I$inc" || fail "Cflags: $cflags"
printf '%s\n' $libs | grep -qx -- -llb && printf '%s\n' $libs | grep -qx -- -llbsim && printf '%s\n' $libs | grep -qx -- -lgsl \
  && ok "static Libs: $libs" || fail "static Libs: $libs"

# The public headers, and no private one.
public="lb_arrange.h lb_codec.h lb_diffuse.h lb_diffusion.h lb_errno.h lb_hetero.h
lb_hublake.h lb_lease.h lb_load.h lb_mem.h lb_metrics.h lb_node.h lb_optimum.h lb_param.h lb_paths.h lb_policy.h lb_proc.h lb_rmtlb.h
lb_rng.h lb_rt.h lb_share.h lb_sim.h lb_sink.h lb_spectrum.h lb_taskgraph.h lb_topo.h lb_topo_matrix.h lb_trace.h lb_transport.h"
got=$(cd "$inc" && LC_ALL=C ls | tr '\n' ' ')
[ "$got" = "$(echo $public) " ] && ok "installed headers" || fail "installed headers: $got"
# Each alone, both as <lbfarm/X.h> and as <X.h> with Cflags, strict C99.
for h in $public; do
  printf '#include <lbfarm/%s>\n' "$h" >"$tmp/a.c"
  printf '#include <%s>\n' "$h" >"$tmp/b.c"
  if $CC -std=c99 -pedantic -Wall -Wextra -Werror -I"$(dirname "$inc")" -c "$tmp/a.c" -o "$tmp/a.o" &&
     $CC -std=c99 -pedantic -Wall -Wextra -Werror $cflags -c "$tmp/b.c" -o "$tmp/b.o"; then
    ok "$h compiles alone"
  else
    fail "$h does not compile alone"
  fi
done

# Only the headers whose interface is GSL's include GSL: the others
# (graphs, nodes, the runtime, messages, ...) compile where every GSL
# header stops the compiler.
with_gsl="lb_diffusion.h lb_rng.h lb_spectrum.h lb_topo_matrix.h"
mkdir -p "$tmp/nogsl/gsl"
for g in $(ls /usr/include/gsl 2>/dev/null) gsl_matrix.h gsl_rng.h; do echo '#error GSL reached' >"$tmp/nogsl/gsl/$g"; done
for h in $public; do
  case " $with_gsl " in *" $h "*) continue ;; esac
  printf '#include <lbfarm/%s>\n' "$h" >"$tmp/a.c"
  $CC -std=c99 -I"$tmp/nogsl" -I"$(dirname "$inc")" -fsyntax-only "$tmp/a.c" 2>/dev/null &&
    ok "$h needs no GSL" || fail "$h includes GSL"
done

# The example, from its source and the installed files only.
cp "$top_srcdir/examples/balance.c" "$tmp/"
if (cd "$tmp" && $CC $SAN -Wall -Wextra -Werror balance.c $cflags $libs -o balance); then
  ok "balance built against the installed library"
else
  fail "balance does not build against the installed library"; finish
fi
B=$tmp/balance

# ring:6, 12,0,3,9,1,5: total 30, average 5, alpha 1/3 on every link.
# Diffusion, step 1: round((l_i - l_j)/3) over links 1-2 4, 1-6 2,
# 2-3 -1, 3-4 -2, 4-5 3, 5-6 -1 gives 6,5,4,4,5,6 (sum of squares of
# the deviations 110 -> 4); step 2 would move round(1/3) = 0: stop.
# Every mover sends its own tasks, so Q = 13 = task-hops.
# Transport: senders 1 (+7) and 4 (+4), receivers 2 (-5), 3 (-2), 5 (-4);
# the north-west corner start 1->2:5, 1->3:2 (via 2), 4->5:4 costs 13,
# the least possible; 2 passes 2 of 1's tasks on in round 2: Q = 11.
# M2 = sqrt(110/5)/12 before; sqrt(4/5)/6 after diffusion.
cat >"$tmp/want" <<'EOF'
ring:6: 6 processors, 6 links; loads 12,0,3,9,1,5 (total 30, average 5)
diffusion (first order, Boillat's alpha, integer loads): 1 step
  moves: 1->2:4 1->6:2 3->2:1 4->3:2 4->5:3 6->5:1
  loads after: 6,5,4,4,5,6 (total 30)
  task-hops 13 in 1 round; Q (tasks whose processor changed) 13
  M1 (max-min) 12 -> 2, M2 (dev/max) 0.39086798 -> 0.1490711985, M3 (max) 12 -> 6
transport TB (shortest paths, north-west corner start): 1 pass
  moves: 1->2:7 2->3:2 4->5:4
  loads after: 5,5,5,5,5,5 (total 30)
  task-hops 13 in 2 rounds; Q (tasks whose processor changed) 11
  M1 (max-min) 12 -> 0, M2 (dev/max) 0.39086798 -> 0, M3 (max) 12 -> 5
EOF
"$B" ring:6 12,0,3,9,1,5 >"$tmp/got" 2>&1
cmp -s "$tmp/want" "$tmp/got" && ok "ring:6 12,0,3,9,1,5: the hand-computed answer" ||
  fail "ring:6 12,0,3,9,1,5: $(diff "$tmp/want" "$tmp/got")"
"$top_builddir/examples/balance" ring:6 12,0,3,9,1,5 | cmp -s - "$tmp/got" &&
  ok "the same as the in-tree build" || fail "in-tree examples/balance differs"
csv=$tmp/out.csv
"$B" --csv ring:6 12,0,3,9,1,5 >"$csv"
awk -F, 'NR == 2 { d = $13 - sqrt(22) / 12; e = $14 - sqrt(0.8) / 6
  exit !(d < 1e-16 && d > -1e-16 && e < 1e-16 && e > -1e-16) }' "$csv" &&
  ok "M2 to 1e-16" || fail "M2: $(cat "$csv")"

# Any input: the total is kept, the moves give the loads after, the
# task-hops are their sum; and Q, task-hops and rounds of the transport
# policy equal the installed lbtransport's (which counts tasks by
# origin, not one by one).
TR=$(find "$stage" -type f -name lbtransport)
for run in "torus:3x4 40,0,0,7,0,3,0,0,12,0,1,0" "random:9:4:3 31,0,7,2,0,0,15,4,1" \
           "hypercube:4 100,0,0,0,0,0,0,0,0,0,0,0,0,0,0,7" "star:5 0,9,0,0,1"; do
  set -- $run
  for v in T TB; do
    "$B" --csv --variant $v "$1" "$2" >"$csv"
    awk -F, -v l0="$2" 'NR > 1 { n = split(l0, b, ","); split($7, a, " "); hops = t0 = t1 = 0
        for (i = 1; i <= n; i++) { c[i] = b[i]; t0 += b[i]; t1 += a[i] }
        m = split($8, mv, " ")
        for (k = 1; k <= m; k++) { split(mv[k], x, /->|:/); c[x[1]] -= x[3]; c[x[2]] += x[3]; hops += x[3] }
        for (i = 1; i <= n; i++) if (c[i] != a[i]) bad = 1
        if (t0 != t1 || $4 != t0 || hops != $9) bad = 1 }
      END { exit bad || NR != 3 }' "$csv" &&
      ok "$1 $v: total kept, moves give the loads after" || fail "$1 $v: $(cat "$csv")"
    mine=$(awk -F, 'NR == 3 { print $10, $9, $6 }' "$csv")
    theirs=$("$TR" --csv --variant $v -g "$1" "$2" | awk -F, 'NR == 2 { print $13, $15, $16 }')
    [ -n "$mine" ] && [ "$mine" = "$theirs" ] && ok "$1 $v: Q, task-hops, rounds as lbtransport ($mine)" ||
      fail "$1 $v: Q, task-hops, rounds $mine; lbtransport $theirs"
  done
done

"$B" --help | grep -q '^Usage: balance' && ok "--help" || fail "--help"

# A policy of one's own: examples/policy.c from the installed files.
cp "$top_srcdir/examples/policy.c" "$tmp/"
if (cd "$tmp" && $CC $SAN -Wall -Wextra -Werror policy.c $cflags $libs -o policy); then
  ok "policy built against the installed library"
  P=$tmp/policy
  if "$P" torus:4x4 >"$tmp/pol" 2>"$tmp/pol.err"; then ok "policy runs (exit 0)"; else fail "policy: $(cat "$tmp/pol.err")"; fi
  # none's ratio is the skew; halve, registered at start-up, brings it
  # near 1 with no invariant violated, as the library's diffusion does
  awk '$1 == "none" { n = $3 } $1 == "halve" { h = $3; v = $6; m = $5 }
    END { exit !(n > 4 && h < 1.3 && v == 0 && m > 0) }' "$tmp/pol" &&
    ok "halve balances a skewed start: $(awk '$1 == "none" || $1 == "halve" { printf "%s %s ", $1, $3 }' "$tmp/pol")" ||
    fail "halve: $(cat "$tmp/pol")"
  awk 'NR > 1 && $6 != 0 { bad = 1 } END { exit bad || NR != 4 }' "$tmp/pol" && ok "no invariant violated" ||
    fail "violations: $(cat "$tmp/pol")"
  "$top_builddir/examples/policy" torus:4x4 | cmp -s - "$tmp/pol" && ok "policy: the same as the in-tree build" ||
    fail "in-tree examples/policy differs"
  "$P" ring:7 halve.period=2 halve.gap=3 >"$tmp/pol2" 2>&1 && awk '$1 == "halve" { exit !($6 == 0 && $3 < 1.6) }' "$tmp/pol2" &&
    ok "its parameters through the registry: $(awk '$1 == "halve" { print $3 }' "$tmp/pol2")" || fail "halve.period=2: $(cat "$tmp/pol2")"
  expect_status 2 "halve.gap: 1 is outside 2..1000000000" "$P" ring:5 halve.gap=1
  expect_status 2 "not NAME=VALUE of a parameter" "$P" ring:5 frob=1
else
  fail "policy does not build against the installed library"
fi
expect_status 2 "expected TOPOLOGY and LOADS" "$B" ring:3
expect_status 2 "3 loads given for the 4 processors of ring:4" "$B" ring:4 1,2,3
expect_status 2 "'1.5' is not a non-negative integer" "$B" ring:3 1,1.5,2
expect_status 2 "a load cannot be negative" "$B" ring:3 -1,2,3
expect_status 2 "TOPOLOGY: unknown topology 'bogus:3'" "$B" bogus:3 1,2,3
expect_status 2 "the total load is more than 10000" "$B" ring:2 10000,1
expect_status 2 "--variant 'X': expected T or TB" "$B" --variant X ring:3 1,2,3
expect_status 2 "unknown option '--frob'" "$B" --frob ring:3 1,2,3

if MAKEFLAGS= make -C "$top_builddir" uninstall DESTDIR="$stage" >"$tmp/uninstall.log" 2>&1; then
  left=$(find "$stage" -type f)
  [ -z "$left" ] && ok "make uninstall leaves no file" || fail "left after uninstall: $left"
else
  cat "$tmp/uninstall.log" >&2
  fail "make uninstall DESTDIR=..."
fi
finish
