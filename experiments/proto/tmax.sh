#!/bin/sh
# RMTLB across the whole range of its answer window Tmax: 5 graphs of
# 64 to 1024 nodes x 17 windows from 0.2 to 100 time units (85 runs),
# skewed load, no jitter (every copy of a flood arrives at once: the
# case that once kept floods going after the work was done).  Each run
# must end with every invariant holding; a run that has not ended after
# --max-events events is a violation ("no termination").
#
# Writes OUT/tmax.csv and prints: runs, runs with a violation, and the
# ratio (makespan / ideal) per graph at each window.
# Usage: experiments/proto/tmax.sh [-o OUTDIR] [-b BUILDDIR] [-e MAXEVENTS] [--csv]
set -eu
out=out/proto build= maxev=20000000 csvout=0
usage() { sed -n '2,11p' "$0"; }
for a in "$@"; do case $a in --help) usage; exit 0 ;; esac; done
for a in "$@"; do
  shift
  case $a in --csv) csvout=1 ;; *) set -- "$@" "$a" ;; esac
done
while getopts o:b:e:h opt; do
  case $opt in
    o) out=$OPTARG ;; b) build=$OPTARG ;; e) maxev=$OPTARG ;;
    h) usage; exit 0 ;;
    *) echo "usage: $0 [-o OUTDIR] [-b BUILDDIR] [-e MAXEVENTS] [--csv]" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || { echo "$0: unexpected argument '$1' (see --help)" >&2; exit 2; }
case $maxev in ''|*[!0-9]*) echo "$0: -e wants a number of events, not '$maxev'" >&2; exit 2 ;; esac
lb_top=$(cd "$(dirname "$0")/../.." && pwd)
. "$lb_top/scripts/lib.sh"
if [ -n "$build" ]; then sim=$build/sim/lbsim; else sim=$(lb_built sim/lbsim) || true; fi
[ -x "$sim" ] || { echo "$0: $sim: not built (run scripts/setup.sh, or use -b BUILDDIR)" >&2; exit 2; }
lb_init
mkdir -p "$out"
csv=$out/tmax.csv
graphs="torus:8x8 hypercube:7 random:256:256:1 torus:16x16 torus:32x32"
windows="0.2 0.3 0.5 0.75 1 1.5 2 3 5 7.5 10 15 20 30 50 75 100"
echo "topology,tmax,rc,makespan,ratio,messages,violations" >"$csv"
k=0
for g in $graphs; do
  for w in $windows; do
    k=$((k + 1))
    [ -t 2 ] && printf '\r%s: run %d of 85 (%s, Tmax %s)   ' "${0##*/}" "$k" "$g" "$w" >&2
    rc=0
    lines=$("$sim" --csv --no-optimum -p rmtlb -t "$g" -l skew -C 4 --jitter 0 \
           --tmax "$w" -s 1 --max-events "$maxev" 2>/dev/null) || rc=$?
    # lbsim's header and row, by column name; a run that errs before its
    # row still counts, as a failure.
    printf '%s\n' "$lines" | awk -F, -v g="$g" -v w="$w" -v rc="$rc" '
      NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
      { row = 1; printf "%s,%s,%s,%s,%s,%s,%s\n", g, w, rc, $c["makespan"], $c["ratio"], $c["messages"], $c["violations"] }
      END { if (!row) printf "%s,%s,%s,,,,1\n", g, w, rc }' >>"$csv"
  done
done
[ -t 2 ] && printf '\r%60s\r' '' >&2
if [ "$csvout" = 1 ]; then cat "$csv"; exit 0; fi
awk -F, 'NR > 1 { n++; if ($7 > 0 || $3 != 0) bad++; r[$1] = r[$1] sprintf(" %5.2f", $5)
                   if (!($1 in seen)) { seen[$1] = 1; order[++g] = $1 } }
  END { printf "%d runs, %d with a violation or no end\n", n, bad
        printf "ratio (makespan/ideal) at Tmax = 0.2 0.3 0.5 0.75 1 1.5 2 3 5 7.5 10 15 20 30 50 75 100:\n"
        for (i = 1; i <= g; i++) printf "%-18s%s\n", order[i], r[order[i]]
        exit bad > 0 }' "$csv"
