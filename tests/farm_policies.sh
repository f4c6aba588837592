#!/bin/sh
# Every policy of lb/ (the library's registered ones, steal, pool and
# dasud-ring among them) driving the real PVM workers: for each workload
# and policy, all processes start on host 0 of six; the master verifies every
# result, each process comes back exactly once (the verifier refuses a
# second result), and processes migrated (none: not one).  Odd runs send
# the results' bytes straight to the master, even ones along the path.
. "${LB_TOP_SRCDIR:-.}/tests/lib.sh"
farm_lock
pvm_private
csv="$PVM_TMP/out.csv"
for pol in none rmtlb lowest dasud cchspmd diffusion diffusion2 steal pool dasud-ring; do
  # matmul at 2000: at 1200 a fast run (0.12 s) could end before the
  # periodic policies (period 0.05 s) had planned once.
  for wl in "primes --size 3000000" "matmul --size 2000"; do
    rm -f "$csv"
    n=$((${n:-0} + 1)); mode=origin; [ $((n % 2)) -eq 1 ] && mode=direct
    err=$("$top_builddir/master/lbmaster" --workload $wl --hosts 6 --procs 24 --init one --policy $pol \
      --results $mode --seed 4 --timeout 60 --out "$csv" 2>&1 >/dev/null)
    rc=$?
    what="$pol, ${wl%% *}, $mode"
    if [ $rc -ne 0 ] || [ "$(col verified)" != yes ]; then
      printf '%s\n' "$err" | grep -v 'BEGIN\|EOF' | tail -5
      fail "$what: exit $rc, verified $(col verified)"
      continue
    fi
    r=$(col msgs_RESULT) m=$(col migrated)
    [ "$r" = 24 ] && ok "$what: 24 results, each once, verified" || fail "$what: $r results"
    if [ $pol = none ]; then
      [ "$m" = 0 ] && ok "$what: nothing moved" || fail "$what: $m migrations"
    else
      [ "$m" -gt 0 ] && ok "$what: $m migrations ($(col migrated_started) started), $(col invocations) invocations" \
        || fail "$what: no migration"
    fi
    # the policies that speak in their own messages (lb/lb_policy.h)
    case $pol in steal|pool|dasud-ring)
      [ "$(col lb_POLICY)" -gt 0 ] && ok "$what: $(col lb_POLICY) policy messages" || fail "$what: no policy message" ;;
    esac
    printf '%s\n' "$err" | grep -q 'policy step' && fail "$what: a policy step failed: $(printf '%s\n' "$err" | grep -m1 'policy step')"
  done
done
# One more RMTLB run to look at its own messages: requests, answers,
# confirmations, LMMs carrying the contexts, DRMs bringing results home.
rm -f "$csv"
"$top_builddir/master/lbmaster" --workload primes --size 3000000 --hosts 6 --procs 24 --policy rmtlb \
  --seed 4 --out "$csv" >/dev/null 2>&1
[ "$(col lb_RM)" -gt 0 ] && [ "$(col lb_AM)" -gt 0 ] && [ "$(col lb_CM)" -gt 0 ] && [ "$(col lb_LMM)" -gt 0 ] \
  && ok "rmtlb: RM $(col lb_RM), AM $(col lb_AM), CM $(col lb_CM), LMM $(col lb_LMM), DRM $(col lb_DRM)" \
  || fail "rmtlb message counts: RM $(col lb_RM) AM $(col lb_AM) CM $(col lb_CM) LMM $(col lb_LMM)"
[ "$(col lb_DRM)" -gt 0 ] && ok "rmtlb: results came home by DRM" || fail "no DRM"
finish
