#!/bin/sh
# Ctrl-C and SIGTERM stop an experiment in the middle of its farm runs:
# SIGINT to the script's process group, as a terminal sends it, and
# SIGTERM to the group, as kill, scancel or a cancelled CI job do.  Each
# time the script must exit 130 or 143 within 5 s and leave nothing: no
# pvmd or worker of its VMs, no cgroup of those workers, nothing in its
# TMPDIR, and its output directory as it was (a result set from before
# is kept, no staging directory stays).  Covered: fig34.sh, faults/run.sh
# (its output directory holds its logs by design: not checked), and the
# tournament's farm runs where experiments/tournament/farm.sh exists.
. "${LB_TOP_SRCDIR:-.}/tests/lib.sh"
farm_lock
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lbfarm-int.XXXXXX")
at_exit 'rm -rf "$tmp"'
LBMASTER="$(cd "$top_builddir" && pwd)/master/lbmaster"
export LBMASTER PVM_ALLOW_ROOT=yes
command -v gnuplot >/dev/null || { echo "SKIP: no gnuplot"; exit 77; }

# Our processes: named $1, with a PVM_TMP under $tmp/t (the scripts make
# their private VMs in TMPDIR).
ours() {
  for p in $(pgrep -x "$1" 2>/dev/null); do
    [ "$(cut -d' ' -f3 "/proc/$p/stat" 2>/dev/null)" = Z ] && continue
    (tr '\0' '\n' <"/proc/$p/environ") 2>/dev/null | grep -q "^PVM_TMP=$tmp/t/" && echo "$p"
  done
}

# interrupt NAME SIG WANT CMD...: run CMD in a process group of its own,
# send SIG to the group 1 s after its six workers are up, and check.
# With strict_out=0 the output directory may hold new files.
strict_out=1
interrupt() {
  name=$1 sig=$2 want=$3
  shift 3
  rm -rf "$tmp/t" "$tmp/out"
  mkdir -p "$tmp/t" "$tmp/out"
  echo "an earlier result" >"$tmp/out/runs.csv"
  cp "$tmp/out/runs.csv" "$tmp/before.csv"
  TMPDIR=$tmp/t perl -e '$SIG{INT} = "DEFAULT"; setpgrp(0, 0); exec @ARGV or die' "$@" >"$tmp/log" 2>&1 &
  job=$!
  i=0 w=""
  while [ $i -lt 1200 ] && kill -0 $job 2>/dev/null; do   # 120 s
    w=$(ours lbworker)
    [ "$(echo $w | wc -w)" -ge 6 ] && break
    sleep 0.1; i=$((i + 1))
  done
  if [ "$(echo $w | wc -w)" -lt 6 ]; then
    kill -KILL -$job 2>/dev/null; wait $job
    fail "$name: no six workers came up: $(tail -5 "$tmp/log")"
    return
  fi
  sleep 1
  w="$w $(ours lbworker)"
  t0=$(date +%s%N)
  kill -$sig -$job
  i=0; while kill -0 $job 2>/dev/null && [ $i -lt 300 ]; do sleep 0.05; i=$((i + 1)); done
  ms=$(( ($(date +%s%N) - t0) / 1000000 ))
  kill -KILL -$job 2>/dev/null
  wait $job
  rc=$?
  [ $rc -eq "$want" ] && ok "$name: SIG$sig: exit $rc" || fail "$name: SIG$sig: exit $rc, wanted $want: $(tail -5 "$tmp/log")"
  [ $ms -le 5000 ] && ok "$name: SIG$sig: ended in $ms ms" || fail "$name: SIG$sig: took $ms ms"
  grep -q "interrupted" "$tmp/log" && ok "$name: says it was interrupted" || fail "$name: no message: $(tail -3 "$tmp/log")"
  left=""
  for p in $(ours pvmd3) $(ours pvmd); do left="$left pvmd:$p"; done
  for p in $(ours lbworker); do left="$left lbworker:$p"; done
  for c in $(worker_cgroups $w); do left="$left cgroup:${c##*/}"; done
  for f in $(ls -A "$tmp/t"); do left="$left tmp:$f"; done
  [ "$strict_out" = 0 ] || for f in $(ls -A "$tmp/out" | grep -v '^runs\.csv$'); do left="$left out:$f"; done
  [ -z "$left" ] && ok "$name: SIG$sig: nothing left" || fail "$name: SIG$sig: left$left"
  for p in $(ours pvmd3) $(ours pvmd) $(ours lbworker); do kill -KILL "$p" 2>/dev/null; done
  cmp -s "$tmp/out/runs.csv" "$tmp/before.csv" && ok "$name: the earlier result is intact" ||
    fail "$name: the earlier result was changed"
}

fig34="$top_srcdir/experiments/seed000/fig34.sh"
# One long run per point: the signal lands in the middle of one.
for s in INT:130 TERM:143; do
  interrupt fig34.sh "${s%:*}" "${s#*:}" "$fig34" -o "$tmp/out" --reps 1 --policies "rmtlb none" \
    --matmul 3000 --primes 30000000 --results direct
done
strict_out=0
for s in INT:130 TERM:143; do
  interrupt faults/run.sh "${s%:*}" "${s#*:}" "$top_srcdir/experiments/faults/run.sh" --out "$tmp/out" \
    -n 1 --cluster 0 --workloads primes
done
farm="$top_srcdir/experiments/tournament/farm.sh"
if [ -x "$farm" ]; then
  for s in INT:130 TERM:143; do
    interrupt tournament/farm.sh "${s%:*}" "${s#*:}" "$farm" --out "$tmp/out" --quick
  done
else
  echo "note: experiments/tournament/farm.sh does not exist: its farm runs are not covered"
fi
finish
