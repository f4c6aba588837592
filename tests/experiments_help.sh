#!/bin/sh
# Every script (scripts/, experiments/ and the fuzzing scripts) answers
# --help with its usage and exit 0 within 10 s, starts no work and
# creates nothing (--help is never taken for an output directory).
# Files without a #! line are sourced, not run.
. "${LB_TOP_SRCDIR:-.}/tests/lib.sh"
tmp=$(mktemp -d); at_exit 'rm -rf "$tmp"'
n=0
for s in $(find "$top_srcdir/scripts" "$top_srcdir/experiments" "$top_srcdir/tests/fuzz" -name '*.sh' \
             ! -name common.sh ! -name lib.sh | sort); do
  [ "$(head -c 2 "$s")" = '#!' ] || continue
  n=$((n + 1))
  mkdir "$tmp/run"
  out=$(cd "$tmp/run" && timeout 10 "$s" --help 2>&1 </dev/null); rc=$?
  if [ "$rc" != 0 ]; then fail "$s --help exited $rc: $out"
  elif ! printf '%s' "$out" | grep -qi usage; then fail "$s --help shows no usage: $out"
  elif [ -n "$(ls -A "$tmp/run")" ]; then fail "$s --help created $(ls -A "$tmp/run")"
  else ok "$s --help"
  fi
  rm -rf "$tmp/run"
done
[ "$n" -ge 30 ] && ok "$n scripts" || fail "only $n scripts found"
finish
