#!/bin/sh
# The README's console recipe: a pvmd started by the PVM console with a
# hostfile whose ep= points at lbmaster; `spawn -> lbmaster` runs it in
# that VM, its output appears in the console, and the VM stays up until
# the console halts it.
. "${LB_TOP_SRCDIR:-.}/tests/lib.sh"
command -v pvm >/dev/null || { echo "SKIP: no pvm console"; exit 77; }
pvm_private
printf '* ep=%s/master\n' "$top_builddir" >"$PVM_TMP/hostfile"
out=$( (echo "spawn -> lbmaster --hosts 4 --policy rmtlb --workload primes --size 1000000 --seed 3"
        i=0
        while [ $i -lt 100 ] && ! grep -q 'finished' "$PVM_TMP/console.out" 2>/dev/null; do
          sleep 0.2; i=$((i + 1))
        done
        echo "conf"; sleep 0.5; echo halt) |
      timeout 60 pvm $(pvm_name_opt) "$PVM_TMP/hostfile" 2>&1 | tee "$PVM_TMP/console.out")
printf '%s\n' "$out"
printf '%s\n' "$out" | grep -q '\[1:t[0-9a-f]*\] lbmaster: .*already running' \
  && ok "lbmaster joined the console's VM, output in the console" || fail "no lbmaster output in the console"
printf '%s\n' "$out" | grep -q '^\[1:t[0-9a-f]*\] rmtlb primes .* results verified: yes' \
  && ok "rmtlb run verified" || fail "run not verified"
printf '%s\n' "$out" | grep -q '^\[1\] finished' && ok "lbmaster finished" || fail "lbmaster did not finish"
# lbmaster waits for its workers to end before it does (their output is
# caught), so what they report at exit is in the console too.
no_sanitizer_report "lbmaster and its workers" "$out"
sleep 0.5
[ -z "$(pvmd_pids)" ] && ok "console halted the VM" || fail "pvmd still running"
finish
