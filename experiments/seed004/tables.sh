#!/usr/bin/env bash
# Seed 004, Tables 1 and 2 and Figs. 1 and 2 on the PVM task farm:
# matrix multiplication on six heterogeneous emulated hosts, the job
# starting on the first, shared by OPT_LOAD_SHARE (lbmaster --init
# share), against the bidding scheme (the whole job on the fastest host)
# and the balance scheme (equal shares); every result verified.
#
# Machines: 4 Ultra1, 1 Ultra E450, 1 SGI O2 of relative speeds 1, 1,
# 1, 1, 2, 1.8 (the paper prints "1, 2, 1, 8"; docs/PLANNERS.md gives
# the reading), emulated at 1.8/7.8 of a core per unit of speed, so the
# six use 1.8 of the 2 cores.  A job is cut into 78 processes (blocks of
# rows), so shares in proportion to speed are exact: 10, 10, 10, 10, 20,
# 18; balance gives each host 13.  Table 1: the first k machines in that
# order, n = 600.  Table 2: all six, n = 100..1000.  Times are lbmaster's
# makespan (first processes sent to last result verified); speedups are
# over the same job on one speed-1 host.
#
# Our hosts compute ~200x faster than an Ultra1 while a PVM message costs
# about what it did on 100 Mbit/s Ethernet, so at the paper's sizes the
# results' way home weighs far more than it did for the authors, and a run
# of a fraction of a second is shorter than the emulation can honour (a
# cgroup quota lets a host run its whole quota of a 10 ms period at full
# speed).  --scale K multiplies every size by K; the default, 4, makes
# the uniprocessor runs last 0.1-22 s.
#
# Usage: experiments/seed004/tables.sh [[-o] OUTDIR] [--scale "K ..."] [--repeat N]
#   OUTDIR default out/seed004; N runs per point (median kept), default 3.
# Run from the build directory.  Writes runs.csv, table1.csv, table2.csv,
# fig1.png, fig2.png and report.md.  A speedup is the median
# uniprocessor time over the scheme's median; the tables' last columns
# (*_lo, *_hi) and the figures' bars give its range over the runs: the
# fastest uniprocessor run over the slowest of the scheme's, and the
# slowest over the fastest.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
lb_top=$(cd "$here/../.." && pwd)
. "$lb_top/scripts/lib.sh"
master=${LBMASTER:-$(lb_built master/lbmaster)} || true
out=out/seed004
scales="4"
repeat=3
while [ $# -gt 0 ]; do
  case $1 in
  -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
  --scale) scales=$2; shift 2 ;;
  --repeat) repeat=$2; shift 2 ;;
  -o|--out) [ $# -ge 2 ] || { echo "$0: $1 wants a directory" >&2; exit 2; }; out=$2; shift 2 ;;
  -*) echo "$0: unknown option '$1'" >&2; exit 2 ;;
  *) out=$1; shift ;;
  esac
done
for k in $scales; do
  case $k in ''|*[!0-9]*|0) echo "$0: --scale wants positive integers, got '$k'" >&2; exit 2 ;; esac
  [ $((1000 * k)) -le 8192 ] || { echo "$0: --scale $k: sizes up to 1000 x $k exceed 8192" >&2; exit 2; }
done
case $repeat in ''|*[!0-9]*|0) echo "$0: --repeat wants a positive integer, got '$repeat'" >&2; exit 2 ;; esac
[ -x "$master" ] || { echo "$0: $master: not built (run scripts/setup.sh, or set LBMASTER)" >&2; exit 2; }
command -v gnuplot >/dev/null || { echo "$0: gnuplot not found" >&2; exit 2; }
lb_init
mkdir -p "$out"
out=$(cd "$out" && pwd)
lb_lock "$out"
lb_private_vm seed004

rel=(1 1 1 1 2 1.8)
procs=78
speed() { awk -v r="$1" 'BEGIN { printf "%.4f", r * 1.8 / 7.8 }'; }
first_speeds() { local s="" i; for ((i = 0; i < $1; i++)); do s="$s${s:+,}$(speed "${rel[i]}")"; done; echo "$s"; }
fastest() { local m=0 i; for ((i = 0; i < $1; i++)); do m=$(awk -v a="$m" -v b="${rel[i]}" 'BEGIN { print (b > a ? b : a) }'); done; echo "$m"; }

# The runs go to a temporary file, runs.csv only when all are done.
lb_tmp "$out/runs.csv"; runs=$lb_t
echo "scale,table,scheme,x,n,rep,makespan_s,verified" > "$runs"
lb_tmp "$out/row.csv"; tmp=$lb_t
lb_on_exit "rm -f '$tmp.log'"
total=0
for k in $scales; do total=$((total + (1 + 12 + 30) * repeat)); done
done_=0
# run SCALE TABLE SCHEME X N HOSTS SPEEDS INIT
run() {
  local r
  for ((r = 1; r <= repeat; r++)); do
    rm -f "$tmp"
    lb_run 900 "$master" --workload matmul --size "$5" --procs "$procs" --hosts "$6" --speeds "$7" --init "$8" \
      --policy none --seed "$r" --out "$tmp" >"$tmp.log" 2>&1 ||
      { tail -5 "$tmp.log" >&2; rm -f "$tmp.log"; lb_die "lbmaster failed: n=$5 hosts=$6 speeds=$7 init=$8 (the last results were kept)"; }
    rm -f "$tmp.log"
    awk -F, -v pre="$1,$2,$3,$4,$5,$r" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
      { print pre "," $c["makespan_s"] "," $c["verified"] }' "$tmp" >> "$runs"
    done_=$((done_ + 1))
    [ -t 2 ] && printf '\r%s: %d/%d runs' "$0" "$done_" "$total" >&2
  done
  return 0
}
for k in $scales; do
  n=$((600 * k))
  run "$k" 1 uni 1 "$n" 1 "$(speed 1)" one
  for h in 1 2 3 4 5 6; do
    run "$k" 1 sharing "$h" "$n" "$h" "$(first_speeds "$h")" share
    run "$k" 1 bidding "$h" "$n" 1 "$(speed "$(fastest "$h")")" one
  done
  for size in 100 200 300 400 500 600 700 800 900 1000; do
    n=$((size * k))
    run "$k" 2 uni "$size" "$n" 1 "$(speed 1)" one
    run "$k" 2 balance "$size" "$n" 6 "$(first_speeds 6)" even
    run "$k" 2 sharing "$size" "$n" 6 "$(first_speeds 6)" share
  done
done
[ -t 2 ] && echo >&2
lb_commit "$runs" "$out/runs.csv"; runs=$out/runs.csv
if awk -F, 'NR > 1 && $8 != "yes" { bad++ } END { exit bad ? 0 : 1 }' "$runs"; then
  lb_die "some runs were not verified (see $runs)"
fi

# Medians per (scale, table, scheme, x), with the fastest and slowest
# run, then one row per table line.
awk -F, 'NR > 1 { key = $1 "," $2 "," $3 "," $4; v[key, ++n[key]] = $7; nn[key] = $5 }
  END { for (key in n) { m = n[key]; for (a = 1; a <= m; a++) w[a] = v[key, a]
          for (a = 1; a <= m; a++) for (b = a + 1; b <= m; b++) if (w[b] < w[a]) { t = w[a]; w[a] = w[b]; w[b] = t }
          printf "%s,%s,%.6f,%.6f,%.6f,%d\n", key, nn[key], m % 2 ? w[(m + 1) / 2] : (w[m / 2] + w[m / 2 + 1]) / 2,
                 w[1], w[m], m } }' "$runs" |
  sort -t, -k1,1n -k2,2n -k3,3 -k4,4n > "$out/medians.csv" || lb_die "writing $out/medians.csv failed"
# table line: med[] the medians, lo[] and hi[] the fastest and slowest run
awk -F, 'BEGIN { print "scale,k,n,uni,bidding,sharing,speedup_bidding,speedup_sharing," \
                       "speedup_bidding_lo,speedup_bidding_hi,speedup_sharing_lo,speedup_sharing_hi,runs" }
  $2 == 1 { k = $1 SUBSEP $3 SUBSEP $4; t[k] = $6; lo[k] = $7; hi[k] = $8; r[$1] = $9; nn[$1] = $5
            if ($4 > km) km = $4; sc[$1] = 1 }
  END { for (s in sc) for (k = 1; k <= km; k++) { u = s SUBSEP "uni" SUBSEP 1; b = s SUBSEP "bidding" SUBSEP k
          h = s SUBSEP "sharing" SUBSEP k
          printf "%s,%d,%s,%.6f,%.6f,%.6f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%d\n", s, k, nn[s], t[u], t[b], t[h],
                 t[u] / t[b], t[u] / t[h], lo[u] / hi[b], hi[u] / lo[b], lo[u] / hi[h], hi[u] / lo[h], r[s] } }' \
  "$out/medians.csv" | sort -t, -k1,1n -k2,2n > "$out/table1.csv.tmp" && lb_commit "$out/table1.csv.tmp" "$out/table1.csv"
awk -F, 'BEGIN { print "scale,size,n,uni,balance,sharing,speedup_balance,speedup_sharing," \
                       "speedup_balance_lo,speedup_balance_hi,speedup_sharing_lo,speedup_sharing_hi,runs" }
  $2 == 2 { k = $1 SUBSEP $3 SUBSEP $4; t[k] = $6; lo[k] = $7; hi[k] = $8; r[$1] = $9; nn[$1, $4] = $5
            sz[$4] = 1; sc[$1] = 1 }
  END { for (s in sc) for (z in sz) { u = s SUBSEP "uni" SUBSEP z; b = s SUBSEP "balance" SUBSEP z
          h = s SUBSEP "sharing" SUBSEP z
          printf "%s,%s,%s,%.6f,%.6f,%.6f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%d\n", s, z, nn[s, z], t[u], t[b], t[h],
                 t[u] / t[b], t[u] / t[h], lo[u] / hi[b], hi[u] / lo[b], lo[u] / hi[h], hi[u] / lo[h], r[s] } }' \
  "$out/medians.csv" | sort -t, -k1,1n -k2,2n > "$out/table2.csv.tmp" && lb_commit "$out/table2.csv.tmp" "$out/table2.csv"
grep -v '^#' "$here/paper_table1.csv" > "$out/paper_table1.csv"
grep -v '^#' "$here/paper_table2.csv" > "$out/paper_table2.csv"
for fmt in png svg pdf; do lb_plot "$out" "$here/figs.gp" "outdir='$out'" "scales='$scales'" "fmt='$fmt'"; done
awk -F, -v scales="$scales" -f "$here/report.awk" "$out/paper_table1.csv" "$out/paper_table2.csv" \
  "$out/table1.csv" "$out/table2.csv" > "$out/report.md"
lb_provenance "$out" complete "$total runs"
echo "$0: wrote $runs, $out/table1.csv, $out/table2.csv, $out/fig1.png, $out/fig2.png, $out/report.md"
