#!/bin/sh
# One run CSV schema and one set of parameters for the simulator and
# the farm, with no pvmd: lbsim, lbmaster and lbmpi (and lbsimgrid,
# where built) print the same header byte for byte; every column is described in docs/FORMATS.md;
# lbmaster --help and lbmpi --help offer every parameter and shorthand
# that lbsim --help does; a run's row holds the settings it was given;
# out-of-range values exit 2 naming the option and the range.
. "${LB_TOP_SRCDIR:-.}/tests/lib.sh"
sim="$top_builddir/sim/lbsim"
m="$top_builddir/master/lbmaster"
mpi="$top_builddir/mpi/lbmpi"
tmp=$(mktemp -d)
at_exit 'rm -rf "$tmp"'

"$sim" --csv-header >"$tmp/sim.h" && "$m" --csv-header >"$tmp/master.h" || fail "--csv-header failed"
[ "$(wc -l <"$tmp/sim.h")" = 1 ] && [ "$(head -c 7 "$tmp/sim.h")" = "driver," ] \
  && ok "lbsim --csv-header: one line, $(tr , '\n' <"$tmp/sim.h" | wc -l) columns" || fail "lbsim header: $(cat "$tmp/sim.h")"
cmp -s "$tmp/sim.h" "$tmp/master.h" && ok "lbsim and lbmaster print the same header" \
  || fail "headers differ: $(diff "$tmp/sim.h" "$tmp/master.h" | head -5)"
if [ -x "$mpi" ]; then
  "$mpi" --csv-header >"$tmp/mpi.h"
  cmp -s "$tmp/sim.h" "$tmp/mpi.h" && ok "lbmpi prints the same header" || fail "lbmpi's header differs"
fi
if [ -x "$top_builddir/simgrid/lbsimgrid" ]; then
  "$top_builddir/simgrid/lbsimgrid" --csv-header >"$tmp/sg.h"
  cmp -s "$tmp/sim.h" "$tmp/sg.h" && ok "lbsimgrid prints the same header" || fail "lbsimgrid's header differs"
fi
# The header of a run is the header.
"$sim" --csv -p rmtlb -t ring:6 >"$tmp/run.csv" || fail "lbsim --csv"
head -1 "$tmp/run.csv" | cmp -s - "$tmp/sim.h" && ok "lbsim --csv starts with that header" || fail "lbsim --csv header"
[ "$(wc -l <"$tmp/run.csv")" = 2 ] && ok "lbsim --csv: header and one row" || fail "lbsim --csv: $(wc -l <"$tmp/run.csv") lines"

# Every column is described (in backticks) in docs/FORMATS.md.
missing=$(tr , '\n' <"$tmp/sim.h" | while read -r c; do grep -qF "\`$c\`" "$top_srcdir/docs/FORMATS.md" || printf ' %s' "$c"; done)
[ -z "$missing" ] && ok "every column is in docs/FORMATS.md" || fail "columns not in docs/FORMATS.md:$missing"

# The parameters' options: lbsim's, all in lbmaster's and lbmpi's help.
params() { sed -n '/^Parameters of the run/,/^$/p; /^Shorthands:/,/^$/p' | grep -oE -- '--[a-z0-9-]+' | sort -u; }
"$sim" --help | params >"$tmp/sim.opts"
"$m" --help | params >"$tmp/master.opts"
n=$(wc -l <"$tmp/sim.opts")
[ "$n" -ge 30 ] && ok "lbsim --help lists $n parameter options" || fail "lbsim --help lists only $n parameter options"
extra=$(comm -23 "$tmp/sim.opts" "$tmp/master.opts" | tr '\n' ' ')
[ -z "$extra" ] && cmp -s "$tmp/sim.opts" "$tmp/master.opts" && ok "lbmaster --help lists every one of them" \
  || fail "lbmaster --help lacks: $extra"
for o in --rmtlb-tmax --plan --probes --backoff-max --alpha --beta --drain --threshold --rmtlb-estimate --lowest-backoff-max; do
  grep -qx -- "$o" "$tmp/master.opts" || fail "lbmaster --help lacks $o"
done
if [ -x "$mpi" ]; then
  "$mpi" --help | params >"$tmp/mpi.opts"
  cmp -s "$tmp/sim.opts" "$tmp/mpi.opts" && ok "lbmpi --help lists every one of them" || fail "lbmpi --help differs"
fi

# A row holds the settings it was given, by name.
csv="$tmp/set.csv"
"$sim" --csv -p rmtlb -t ring:6 -n 30 -s 9 -C 7 -A 1.5 --rmtlb-tmax 3.25 --rmtlb-backoff-max 2 --lowest-probes 5 \
  --period 2.5 --results origin --sched fifo --route direct --rmtlb-drain 2 --rmtlb-estimate oracle \
  --speeds 1,1,1,1,1,0.5 --rates 1,1,1,0.5,1,0.5 --host-setup 0.75 --latency 0.5 --cost-msg 0.01 >"$csv" ||
  fail "lbsim with settings"
got=$(for c in driver policy topology nodes procs seed capacity capacities threshold rmtlb.tmax rmtlb.backoff_max \
  lowest.probes dasud.period cchspmd.period diffusion.period results sched route rmtlb.drain rmtlb.estimate \
  lowest.backoff_max speeds rates host_setup latency cost_msg load; do printf '%s=%s ' "$c" "$(col "$c")"; done)
want="driver=lbsim policy=rmtlb topology=ring:6 nodes=6 procs=30 seed=9 capacity=7 capacities=7 threshold=1.5 \
rmtlb.tmax=3.25 rmtlb.backoff_max=2 lowest.probes=5 dasud.period=2.5 cchspmd.period=2.5 diffusion.period=2.5 \
results=origin sched=fifo route=direct rmtlb.drain=2 rmtlb.estimate=oracle lowest.backoff_max=0 speeds=1;1;1;1;1;0.5 \
rates=1;1;1;0.5;1;0.5 host_setup=0.75 latency=0.5 cost_msg=0.01 load=skew "
[ "$got" = "$want" ] && ok "the row holds every setting given" || fail "row: $got"
# The work mean RMTLB-drain took from the load (its mean work, 10), and
# provenance: a commit, a UTC time, a host, a load average.
[ "$(col rmtlb.work_mean)" = 10 ] && ok "RMTLB-drain's mean process: the load's declared mean" \
  || fail "rmtlb.work_mean $(col rmtlb.work_mean)"
printf '%s' "$(col utc)" | grep -qE '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$' \
  && [ -n "$(col commit)" ] && [ "$(col host)" = "$(hostname)" ] && [ -n "$(col load1)" ] \
  && ok "provenance: $(col commit), $(col utc), $(col host), load $(col load1)" \
  || fail "provenance: commit '$(col commit)' utc '$(col utc)' host '$(col host)' load '$(col load1)'"
# The farm's cells stay empty in the simulator's row.
[ -z "$(col makespan_s)$(col verified)$(col msgs_SETUP)$(col workload)" ] && [ -n "$(col makespan)" ] \
  && ok "lbsim leaves the farm's cells empty" || fail "lbsim filled farm cells"

# Bad values: exit 2, the option and what it allows named; in both drivers.
for p in "$sim" "$m"; do
  expect_status 2 "--rmtlb-tmax: -1 is outside [0,1e+12]" "$p" --rmtlb-tmax -1
  expect_status 2 "--diffusion-beta: 2 is outside [0,2)" "$p" --diffusion-beta 2
  expect_status 2 "--lowest-probes: 0 is outside 1..1000000" "$p" --lowest-probes 0
  expect_status 2 "--rmtlb-estimate: unknown value 'guess' (mean, declared, oracle)" "$p" --rmtlb-estimate guess
  expect_status 2 "--period: 0 is outside (0,1e+12]" "$p" --period 0
  expect_status 2 "-C: '2.5' is not a whole number" "$p" -C 2.5
  expect_status 2 "--results: unknown value 'up'" "$p" --results up
done
expect_status 2 "--capacity and --capacities" "$m" --capacity 3 --capacities 4
finish
