#!/usr/bin/env bash
# How long a pvmd holds messages between live hosts once one of its
# packets goes to a host whose pvmd is dead: the cause of the results
# held up after a pvmd was killed (docs/FARM.md).  On a six-namespace
# cluster of its own, pvmd_hol on h1 gets a small message every 0.1 s
# from a task on h2, through the pvmds; h3's pvmd is killed (SIGKILL) at
# KILL s, the h2 task sends one message to a task on h3 at POKE s, and
# with --delete S, h3 is deleted from the virtual machine at S s (by
# pvmd_hol, with pvm_delhosts, as lbmaster does for a fenced host).  Writes
# DIR/latency.csv (t_s,latency_s per message) and prints the median and
# largest latency before the kill, between the poke and the deletion
# (or the end), and after the deletion.
#
# Usage: experiments/faults/hol.sh [OPTION]...   (from the build directory, as root)
#   --secs S      how long the h2 task sends (default 60)
#   --kill S      when h3's pvmd is killed (default 3)
#   --poke S      when the h2 task sends to h3 (default 5)
#   --delete S    delete h3 from the virtual machine at S s (default: never)
#   --out DIR     default out/faults-hol
#   -h, --help    show this help
# Holds /tmp/lbfarm-cluster6.lock while its cluster stands.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(pwd)
secs=60 kill=3 poke=5 del="" out=out/faults-hol
while [ $# -gt 0 ]; do
  case $1 in
  --secs) secs=$2; shift 2 ;;
  --kill) kill=$2; shift 2 ;;
  --poke) poke=$2; shift 2 ;;
  --delete) del=$2; shift 2 ;;
  --out) out=$2; shift 2 ;;
  -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
  *) echo "$0: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
for v in "$secs" "$kill" "$poke" ${del:+"$del"}; do
  case $v in ''|*[!0-9]*) echo "$0: times are whole seconds" >&2; exit 2 ;; esac
done
[ "$kill" -lt "$poke" ] && [ "$poke" -lt "$secs" ] || { echo "$0: need KILL < POKE < SECS" >&2; exit 2; }
prog=$top/experiments/faults/pvmd_hol
[ -f "$top/Makefile" ] || { echo "$0: run from the build directory" >&2; exit 2; }
[ -x "$prog" ] || make -s experiments/faults/pvmd_hol >&2 || { echo "$0: cannot build $prog" >&2; exit 1; }
[ "$(id -u)" = 0 ] || { echo "$0: needs root (network namespaces)" >&2; exit 2; }
mkdir -p "$out" && out=$(cd "$out" && pwd)
ns=lzh
cstate="" mpid=""
cleanup() {
  [ -n "$mpid" ] && kill -9 "$mpid" 2>/dev/null
  [ -n "$cstate" ] && "$top/scripts/cluster-down.sh" --state "$cstate" >/dev/null 2>&1 && rm -rf "$cstate"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
exec 8>/tmp/lbfarm-cluster6.lock
flock 8
cstate=$(mktemp -d /tmp/lbfarm-hol.XXXXXX)
"$top/scripts/cluster-up.sh" --ns "$ns" --builddir "$top" --state "$cstate" >"$out/up.log" 2>&1 ||
  { echo "$0: cluster-up.sh failed (see $out/up.log)" >&2; exit 1; }
"$cstate/in-host" h1 "$prog" "$secs" "$poke" $del >"$out/latency.csv" 2>"$out/hol.err" &
mpid=$!
t0=$(date +%s.%N)
at() { sleep "$(awk -v t="$1" -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { w = t - (b - a); print (w > 0 ? w : 0) }')"; }
at "$kill"
for p in $(ip netns pids "${ns}h3"); do [ "$(cat "/proc/$p/comm" 2>/dev/null)" = pvmd ] && kill -9 "$p"; done
wait "$mpid"
mpid=""
cleanup
cstate=""
awk -F, -v k="$kill" -v p="$poke" -v d="${del:-1e9}" '
  function show(name, n, a,   i, j, t) {
    for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
    if (n) printf "%-34s %4d messages, latency median %7.3f s, largest %7.3f s\n", name, n, a[int((n + 1) / 2)], a[n]
    else printf "%-34s    0 messages\n", name
  }
  /^[0-9]/ { if ($1 < k) b[++nb] = $2; else if ($1 >= p && $1 < d) h[++nh] = $2; else if ($1 >= d + 1) f[++nf] = $2 }
  END { show("before the kill", nb, b); show("from the poke to the deletion/end", nh, h); show("from 1 s after the deletion", nf, f) }
' "$out/latency.csv"
