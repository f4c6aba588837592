#!/bin/sh
# sim-scale.sh: the simulator at scale (docs/PERFORMANCE.md, "Simulator
# at scale").  Not a test: times depend on the machine and its load.
#   1. the series: RMTLB on tori of 32x32 to 1024x1024 nodes (10^3 to
#      10^6), each run R times; CPU seconds, user + system (least and
#      median of the R runs) and the largest resident size, by
#      /usr/bin/time, and the growth exponent of CPU time with nodes
#      (least squares on the logs);
#   2. every policy on torus:256x256 (65 536 nodes), R runs each, within
#      a time limit per run; a run that fails or overruns says so.
# Every run: default load (skew, 8 processes a node), seed 1, --no-optimum
# (the transport reference is a separate cost).  The 1-minute load
# average is recorded with every run.
# Usage: experiments/bench/sim-scale.sh [OPTIONS]
#   --builddir DIR   where sim/lbsim is (default: the source tree)
#   --csv FILE       write every run as CSV to FILE (default
#                    out/bench/sim-scale.csv under the build directory)
#   --repeat R       runs per case (default 3)
#   --max-side S     largest torus side in the series (default 1024)
#   --side S         torus side of the policy table (default 256)
#   --policies LIST  comma-separated (default none,lowest,dasud,cchspmd,
#                    diffusion,diffusion2,rmtlb)
#   --timeout SEC    CPU-time limit of one run in the policy table
#                    (default 600)
#   --series-only, --policies-only   one part only
#   --quick          sides up to 128, 1 run, policy table at 64x64
# Progress goes to the terminal (stderr) when it is one; the tables go
# to stdout.  Run by experiments/bench/run.sh (make bench
# BENCH_LIST=sim-scale), it also appends each case's least CPU time and
# the exponent to BENCH_CSV (lib.sh's rows; no reference program).
# sim-targets.sh, in `make bench`'s default list, times the two targets
# alone.
set -eu
lb_top=$(cd "$(dirname "$0")/../.." && pwd)
. "$lb_top/scripts/lib.sh"
lb_init
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
build=${LB_TOP_BUILDDIR:-$src} csv= repeat=3 maxside=1024 side=256 timeout=600 parts=sp
policies=none,lowest,dasud,cchspmd,diffusion,diffusion2,rmtlb
usage() { sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
  case $1 in
  --builddir) build=$(cd "$2" && pwd); shift 2 ;;
  --csv) csv=$2; shift 2 ;;
  --repeat) repeat=$2; shift 2 ;;
  --max-side) maxside=$2; shift 2 ;;
  --side) side=$2; shift 2 ;;
  --policies) policies=$2; shift 2 ;;
  --timeout) timeout=$2; shift 2 ;;
  --series-only) parts=s; shift ;;
  --policies-only) parts=p; shift ;;
  --quick) maxside=128 repeat=1 side=64; shift ;;
  -h|--help) usage; exit 0 ;;
  *) echo "sim-scale.sh: unknown argument '$1' (try --help)" >&2; exit 2 ;;
  esac
done
for v in "$repeat" "$maxside" "$side" "$timeout"; do
  case $v in ''|*[!0-9]*|0) echo "sim-scale.sh: '$v' is not a positive whole number" >&2; exit 2 ;; esac
done
sim=$build/sim/lbsim
[ -x "$sim" ] || { echo "sim-scale.sh: $sim not built (make, or --builddir DIR)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "sim-scale.sh: /usr/bin/time (GNU time) is needed" >&2; exit 2; }
csv=${csv:-${BENCH_OUT:-$build/out/bench}/sim-scale.csv}
mkdir -p "$(dirname "$csv")"
tmp=$(mktemp -d); lb_on_exit 'rm -rf "$tmp"'
tty=; [ -t 2 ] && tty=1
progress() { [ -z "$tty" ] || printf '\r%-72s' "$*" >&2; }
load1() { cut -d' ' -f1 /proc/loadavg; }

# run PART POLICY SIDE K: one timed run, one CSV row.
run() {
  part=$1 pol=$2 s=$3 k=$4
  la=$(load1)
  status=ok
  # ulimit -t: a CPU-time limit, so a loaded machine does not cut a run short.
  if ! ( ulimit -t "$timeout"; exec /usr/bin/time -f '%U %S %M' -o "$tmp/time" \
         "$sim" -p "$pol" -t "torus:${s}x$s" --no-optimum ) >"$tmp/out" 2>"$tmp/err"; then
    status=$(grep -v '^Command' "$tmp/err" | tail -1 | tr ',' ';')
    grep -q 'signal 9\|Killed\|signal 24' "$tmp/time" "$tmp/err" 2>/dev/null && status="over ${timeout} s of CPU"
    [ -n "$status" ] || status=failed
  fi
  tm=$(tail -1 "$tmp/time" 2>/dev/null || echo '- - -')
  set -- $tm
  ev=$(awk '$1 == "events" { print $2 }' "$tmp/out")
  msg=$(awk '$1 == "messages" { print $2 }' "$tmp/out")
  ratio=$(awk '$1 == "ratio" { print $2 }' "$tmp/out")
  echo "$part,$pol,torus:${s}x$s,$((s * s)),$k,${1:-},${2:-},${3:-},${ev:-},${msg:-},${ratio:-},$la,$status" >>"$csv"
}

echo "part,policy,topology,nodes,run,user_s,sys_s,max_rss_kb,events,messages,ratio,load1,status" >"$csv"
echo "# $(date '+%Y-%m-%d %H:%M'), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
if [ "${parts#*s}" != "$parts" ]; then
  s=32
  while [ "$s" -le "$maxside" ]; do
    k=1
    while [ "$k" -le "$repeat" ]; do
      progress "series: rmtlb torus:${s}x$s run $k/$repeat"
      run series rmtlb "$s" "$k"
      k=$((k + 1))
    done
    s=$((s * 2))
  done
fi
if [ "${parts#*p}" != "$parts" ]; then
  for pol in $(echo "$policies" | tr ',' ' '); do
    k=1
    while [ "$k" -le "$repeat" ]; do
      progress "policies: $pol torus:${side}x$side run $k/$repeat"
      run policy "$pol" "$side" "$k"
      k=$((k + 1))
      # a failed or overrun run is not repeated
      [ "$(tail -1 "$csv" | awk -F, '{ print $13 }')" = ok ] || break
    done
  done
fi
[ -z "$tty" ] || printf '\r%-72s\r' '' >&2

# Per case: least and median CPU time (user + system), largest RSS, load range.
summary() {
  awk -F, -v part="$1" '$1 == part {
      key = $2 "," $3; if (!(key in n)) order[++nk] = key
      n[key]++; st[key] = $13
      if ($13 == "ok") { t[key, ++m[key]] = $6 + $7; if ($8 > rss[key]) rss[key] = $8 }
      ev[key] = $9; msg[key] = $10; ratio[key] = $11; nodes[key] = $4
      if (!(key in lo) || $12 < lo[key]) lo[key] = $12; if ($12 > hi[key]) hi[key] = $12 }
    END {
      for (i = 1; i <= nk; i++) {
        k = order[i]; c = m[k]
        for (a = 1; a <= c; a++) for (b = a + 1; b <= c; b++) if (t[k, b] < t[k, a]) { x = t[k, a]; t[k, a] = t[k, b]; t[k, b] = x }
        split(k, kk, ",")
        if (c) printf "| %s | %s | %d | %.2f | %.2f | %.0f | %s | %s | %s | %s-%s |\n", kk[1], kk[2], nodes[k], t[k, 1],
                      t[k, int((c + 1) / 2)], rss[k] / 1024, ev[k], msg[k], ratio[k], lo[k], hi[k]
        else printf "| %s | %s | %d | - | - | - | - | - | - | %s-%s | %s\n", kk[1], kk[2], nodes[k], lo[k], hi[k], st[k]
      }
    }' "$csv"
}
head='| policy | topology | nodes | CPU s (least) | CPU s (median) | max RSS MB | events | messages | ratio | load |'
rule='|---|---|---|---|---|---|---|---|---|---|'
if [ "${parts#*s}" != "$parts" ]; then
  echo; echo "Series (RMTLB):"; echo "$head"; echo "$rule"; summary series
  # Growth exponent: slope of log(least CPU time) on log(nodes).
  awk -F, '$1 == "series" && $13 == "ok" { k = $4; c = $6 + $7; if (!(k in t) || c < t[k]) t[k] = c }
    END { for (k in t) if (t[k] > 0) { x = log(k); y = log(t[k]); n++; sx += x; sy += y; sxx += x * x; sxy += x * y }
          if (n >= 2) printf "\nGrowth exponent of time with nodes (least squares, %d sizes): %.3f\n", n,
                             (n * sxy - sx * sy) / (n * sxx - sx * sx) }' "$csv"
fi
if [ "${parts#*p}" != "$parts" ]; then
  echo; echo "Policies at $((side * side)) nodes:"; echo "$head"; echo "$rule"; summary policy
fi
echo; echo "CSV: $csv"

# Under run.sh: one bench row per case and the exponent.
[ -n "${BENCH_CSV:-}" ] || exit 0
. "$here/lib.sh"
awk -F, '$13 == "ok" { k = $1 "," $2 "," $3; c = $6 + $7; if (!(k in t) || c < t[k]) t[k] = c; n[k] = $4 }
  END { for (k in t) print k "," t[k] "," n[k] }' "$csv" | sort -t, -k1,1 -k5,5n |
while IFS=, read -r part pol topo t n; do
  bench_row "lbsim $part $pol $topo" cpu_s "$t" - - 1 "sim/lbsim -p $pol -t $topo --no-optimum"
done
x=$(awk -F, '$1 == "series" && $13 == "ok" { k = $4; c = $6 + $7; if (!(k in t) || c < t[k]) t[k] = c }
  END { for (k in t) if (t[k] > 0) { a = log(k); b = log(t[k]); n++; sx += a; sy += b; sxx += a * a; sxy += a * b }
        if (n >= 2) printf "%.3f", (n * sxy - sx * sy) / (n * sxx - sx * sx) }' "$csv")
[ -z "$x" ] || bench_row "lbsim rmtlb torus series" growth_exponent "$x" - - 1 "experiments/bench/sim-scale.sh --series-only"
