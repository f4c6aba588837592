#!/bin/sh
# A real pvmd on a private PVM_VMID/PVM_TMP: lbmaster starts it, spawns
# six workers, each sums a packed int array, the master checks the sums
# and halts the VM; nothing may be left behind.
. "${LB_TOP_SRCDIR:-.}/tests/lib.sh"
pvm_private
out=$("$top_builddir/master/lbmaster" --selftest --hosts 6 --ints 5000 --seed 11 --timeout 60 2>&1)
rc=$?
printf '%s\n' "$out"
[ $rc -eq 0 ] && ok "lbmaster exit 0" || fail "lbmaster exited $rc"
printf '%s\n' "$out" | grep -q "started here" && ok "master started its own pvmd" || fail "no private pvmd started"
printf '%s\n' "$out" | grep -q "selftest: 6/6 workers returned the right sum" && ok "6/6 sums" || fail "sums wrong"
[ "$(printf '%s\n' "$out" | grep -c ' yes$')" -eq 6 ] && ok "six verified rows" || fail "not six verified rows"
sleep 0.5
[ -z "$(pvmd_pids)" ] && ok "pvmd halted" || fail "pvmd still running: $(pvmd_pids)"
# The daemon's address file must go with it (the pvml.* log may stay,
# as with any pvmd; the private PVM_TMP is removed on exit).
left=$(find "$PVM_TMP" -name 'pvmd.*' 2>/dev/null | head -5)
[ -z "$left" ] && ok "no pvmd address file left" || fail "left behind in PVM_TMP: $left"
# Only this VM's workers: other tests may run theirs in parallel.
[ -z "$(pvm_task_pids lbworker)" ] && ok "no workers left" || fail "workers still running: $(pvm_task_pids lbworker)"
finish
