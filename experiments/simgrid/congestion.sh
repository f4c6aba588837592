#!/bin/sh
# What lbsim's network leaves out: the same runs in lbsim and in
# lbsimgrid (SimGrid's flows share each link's bandwidth, and a link's
# messages arrive in the order they were sent), from links that idle to
# links that cannot carry what the run sends.
#
# torus:8x8 at the farm's costs (--profile farm), results of 1 MB sent
# back to each process's origin (--results origin, the paper's path:
# they converge on the loaded nodes), the links' bandwidth from the
# farm's 2e6 bytes per time unit down to 5e4; RMTLB, DASUD, CCHSPMD and
# first-order diffusion, seeds 1-5.  Each run three times: lbsim,
# lbsimgrid, and lbsimgrid with its actors made in reverse order (the
# same SimGrid run but for the order it takes simultaneous events in:
# how far two runs differ by ties alone).  From lbsim's own message
# trace, the demand on its busiest link: the time that link needs to
# carry its bytes one after another, over the run's makespan (above 1,
# lbsim's run sends more than its links can carry in its time).
#
# Writes OUT/congestion.csv (one row per run), congestion_summary.csv
# and congestion.md (per policy and bandwidth: demand, makespans, the
# ratio lbsimgrid / lbsim, the spread of the reversed runs), and
# congestion.png, .svg and .pdf.  About a minute at a load of 8.
# Usage: experiments/simgrid/congestion.sh [-o OUTDIR] [-b BUILDDIR] [--seeds N] [--quick]
#   --quick: two bandwidths, two policies, two seeds (seconds).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=out/simgrid build= seeds=5
bws="2e6 1e6 5e5 3e5 2e5 1e5 5e4" pols="rmtlb dasud cchspmd diffusion"
usage() { sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
  case $1 in
  -o) [ $# -ge 2 ] || { echo "$0: -o needs a directory" >&2; exit 2; }; out=$2; shift 2 ;;
  -b) [ $# -ge 2 ] || { echo "$0: -b needs a directory" >&2; exit 2; }; build=$2; shift 2 ;;
  --seeds) [ $# -ge 2 ] || { echo "$0: --seeds needs a number" >&2; exit 2; }; seeds=$2; shift 2 ;;
  --quick) bws="2e6 1e5" pols="rmtlb dasud" seeds=2; shift ;;
  -h|--help) usage; exit 0 ;;
  *) echo "$0: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
case $seeds in ''|*[!0-9]*|0) echo "$0: --seeds wants a positive whole number, not '$seeds'" >&2; exit 2 ;; esac
lb_top=$(cd "$here/../.." && pwd)
. "$lb_top/scripts/lib.sh"
if [ -n "$build" ]; then sim=$build/sim/lbsim sg=$build/simgrid/lbsimgrid
else sim=$(lb_built sim/lbsim) || true; sg=$(lb_built simgrid/lbsimgrid) || true; fi
[ -x "$sim" ] || { echo "$0: $sim: not built (run scripts/setup.sh, or use -b BUILDDIR)" >&2; exit 2; }
[ -x "$sg" ] || { echo "$0: $sg: not built (configure found no SimGrid: apt-get install libsimgrid-dev g++)" >&2; exit 2; }
command -v gnuplot >/dev/null || { echo "$0: gnuplot not found (apt-get install gnuplot-nox)" >&2; exit 2; }
lb_init
mkdir -p "$out"
lb_lock "$out"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lbfarm-congestion.XXXXXX") || lb_die "cannot create a temporary directory"
lb_on_exit "rm -rf '$tmp'"
# makespan of the CSV row in file $1
makespan() { awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "makespan") c = i; next } { print $c }' "$1"; }
# the demand on the busiest link of trace $1 at bandwidth $2 over makespan $3
demand() {
  awk -F, -v bw="$2" -v ms="$3" '$12 == "send" { b[$4 ">" $5] += $11 } END { for (l in b) if (b[l] > m) m = b[l]; printf "%.6g", m / bw / ms }' "$1"
}

csv=$out/congestion.csv
echo "policy,bandwidth,seed,demand,lbsim,lbsimgrid,reversed,violations" >"$tmp/runs.csv"
total=$(( $(echo $bws | wc -w) * $(echo $pols | wc -w) * seeds )) k=0
for bw in $bws; do
  for pol in $pols; do
    s=1
    while [ $s -le "$seeds" ]; do
      k=$((k + 1))
      [ -t 2 ] && printf '\r%s: run %d of %d (%s, bandwidth %s, seed %d)   ' "${0##*/}" $k $total $pol $bw $s >&2
      run="-p $pol -s $s -t torus:8x8 --profile farm --results origin --result-bytes 1000000 --bandwidth $bw --csv"
      lb_run 0 "$sim" $run --msg-trace "$tmp/trace.csv" >"$tmp/a.csv"
      lb_run 0 "$sg" $run >"$tmp/b.csv"
      lb_run 0 "$sg" $run --reverse-actors >"$tmp/c.csv"
      v=$(cat "$tmp/a.csv" "$tmp/b.csv" "$tmp/c.csv" | awk -F, '$1 == "driver" { for (i = 1; i <= NF; i++) if ($i == "violations") c = i; next } { v += $c } END { print v + 0 }')
      a=$(makespan "$tmp/a.csv")
      echo "$pol,$bw,$s,$(demand "$tmp/trace.csv" "$bw" "$a"),$a,$(makespan "$tmp/b.csv"),$(makespan "$tmp/c.csv"),$v" >>"$tmp/runs.csv"
      s=$((s + 1))
    done
  done
done
[ -t 2 ] && printf '\r%70s\r' '' >&2
lb_commit "$tmp/runs.csv" "$csv"

# Per policy and bandwidth: means over the seeds; ratio lbsimgrid/lbsim
# (mean, least, largest), and the reversed runs' largest difference from
# the forward ones (the ties' share).
summary() {
  awk -F, 'NR > 1 { k = $1 "," $2; if (!(k in n)) order[++m] = k
      n[k]++; d[k] += $4; a[k] += $5; b[k] += $6; r = $6 / $5; q[k] += r
      if (!(k in lo) || r < lo[k]) lo[k] = r; if (!(k in hi) || r > hi[k]) hi[k] = r
      t = $7 / $6 - 1; if (t < 0) t = -t; if (t > tie[k]) tie[k] = t; viol += $8 }
    END { print "policy,bandwidth,runs,demand,lbsim,lbsimgrid,ratio,ratio_min,ratio_max,ties"
          for (i = 1; i <= m; i++) { k = order[i]
            printf "%s,%d,%.4g,%.6g,%.6g,%.4f,%.4f,%.4f,%.4f\n", k, n[k], d[k] / n[k], a[k] / n[k], b[k] / n[k], q[k] / n[k], lo[k], hi[k], tie[k] }
          if (viol) { print "violations: " viol > "/dev/stderr"; exit 1 } }' "$csv"
}
lb_write "$out/congestion_summary.csv" summary
report() {
  echo "# lbsim and lbsimgrid under congestion"
  echo
  echo "torus:8x8, --profile farm, --results origin, 1 MB results, $seeds seeds; load average $lb_load0 before, $(cut -d' ' -f1-3 /proc/loadavg) after."
  echo "demand: lbsim's busiest link, its bytes / bandwidth / makespan (mean over the seeds);"
  echo "ratio: lbsimgrid / lbsim makespan, mean (least - largest); ties: the largest |difference| of a reversed-actors run."
  echo
  echo "| policy | bandwidth | demand | lbsim | lbsimgrid | ratio | ties |"
  echo "|---|---|---|---|---|---|---|"
  awk -F, 'NR > 1 { printf "| %s | %g | %.3g | %.1f | %.1f | %.3f (%.3f - %.3f) | %.1f %% |\n", $1, $2, $4, $5, $6, $7, $8, $9, $10 * 100 }' \
    "$out/congestion_summary.csv"
}
lb_write "$out/congestion.md" report
cat "$out/congestion.md"
for ext in png svg pdf; do lb_plot1 "$out/congestion.$ext" "$here/congestion.gp" "data='$csv'"; done
lb_provenance "$out" complete
echo "$0: wrote $csv, $out/congestion_summary.csv, $out/congestion.md and $out/congestion.{png,svg,pdf}" >&2
