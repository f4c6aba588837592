#!/bin/sh
# The full tournament's torus:32x32 runs (experiments/tournament/run.sh
# --full; docs/PERFORMANCE.md, "The full tournament"): seed 1 of its
# twelve settings (4, 32 and 80 a host; primes- and matmul-like;
# skewed and all on one), every policy at its default setting, as
# job.sh runs them, this build's lbsim against a reference lbsim (an
# older build, SIM_REF) in pairs, the order turned at every run.  CPU
# seconds (user + system) summed by policy and in all; ratio = the
# reference's / ours.  Each pair's outputs are compared too: a row whose
# lbsim output differs fails.  Not in the default list (some 10 minutes
# with an older reference; TOURN32_LS and TOURN32_POLS take fewer
# sizes or policies):
#   BENCH_LIST=tourn32 SIM_REF=/path/to/old/lbsim make bench
set -eu
. "$(dirname "$0")/lib.sh"
bench_start "$@"
sim=${LB_TOP_BUILDDIR:-.}/sim/lbsim
[ -x "$sim" ] || { echo "tourn32.sh: $sim not built (make)" >&2; exit 2; }
ref=${SIM_REF:-}
[ -n "$ref" ] && [ -x "$ref" ] || { echo "tourn32.sh: SIM_REF must name a reference lbsim ('$ref')" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "tourn32.sh: /usr/bin/time (GNU time) is needed" >&2; exit 2; }
tdir=$lb_top/experiments/tournament
. "$tdir/common.sh"
tmp=$(mktemp -d); lb_on_exit 'rm -rf "$tmp"'
pols=${TOURN32_POLS:-none rmtlb rmtlb-drain lowest dasud dasud-ring cchspmd diffusion diffusion2 steal pool}
for L in ${TOURN32_LS:-4 32 80}; do
  for wl in primes matmul; do
    for load in skew one; do
      tr=$tmp/$L-$wl-$load.tr
      awk -v n=1024 -v np=$((1024 * L)) -v wl="$wl" -v load="$load" -v seed=1 -v w=10 -f "$tdir/trace.awk" >"$tr"
      case $wl in
        primes) sz="--ctx-bytes 64 --result-bytes 32" ;;
        *) sz="--ctx-bytes 16384 --result-bytes 1048576" ;;
      esac
      for pol in $pols; do
        args=$(grid "$pol" "$L" 4 | head -1 | cut -d' ' -f2-)
        [ "$args" = default ] && args=
        echo "$pol --profile farm --results direct -p $(polarg "$pol") -t torus:32x32 -l trace:$tr -s 1 $sz $args --max-events 100000000"
      done
    done
  done
done >"$tmp/runs"
k=0
: >"$tmp/cpu"
while read -r pol args; do
  k=$((k + 1))
  for side in $( [ $((k % 2)) = 0 ] && echo "ours ref" || echo "ref ours"); do
    bin=$sim; [ "$side" = ref ] && bin=$ref
    # shellcheck disable=SC2086
    /usr/bin/time -f '%U %S' -o "$tmp/t" "$bin" $args >"$tmp/$side.out" 2>&1 || true
    echo "$pol $side $(tail -1 "$tmp/t")" >>"$tmp/cpu"
  done
  cmp -s "$tmp/ours.out" "$tmp/ref.out" || { echo "tourn32.sh: outputs differ: lbsim $args" >&2; exit 1; }
done <"$tmp/runs"
for pol in $pols all; do
  awk -v p="$pol" '$1 == p || p == "all" { c[$2] += $3 + $4; n[$2]++ }
    END { printf "%.2f %.2f %d\n", c["ours"], c["ref"], n["ours"] }' "$tmp/cpu" >"$tmp/s"
  read -r ours theirs n <"$tmp/s"
  bench_row "lbsim, the full tournament's torus:32x32 settings, seed 1, default setting: $pol ($n runs; reference $ref)" \
    cpu_s "$ours" "$theirs" "$(bench_div "$theirs" "$ours" %.3f)" 1 \
    "BENCH_LIST=tourn32 SIM_REF=$ref make bench"
done
