#!/bin/sh
# The hops of started processes' contexts on both drivers, run by run.
# Runs experiments/tournament/farm.sh --traces on matmul's all-on-one
# start (ring:6 and complete:6, 4 processes per host, LOWEST and CCHSPMD at
# their default settings, seeds 1..K, processes as points.sh sizes them:
# 400 ms by farm.sh's model, ~200 ms measured), then replays every run in
# lbsim with holdout.sh --msg-traces at two settings of the model:
#   before  what the calibration of 2026-11-26 16:03 chose (set-up 25 ms,
#           1 ns a byte, a transit of 50 MB/s; the replayed shares as the
#           speeds the policies know: holdout.sh --known replay)
#   rates   as before, with lbmaster's speeds as the policies' (holdout.sh
#           --known nominal: the shares are only lbsim --rates)
#   after   AFTER (default "25 3 pack": holdout.sh --setups, --bytes,
#           --bandwidths; --known nominal)
# and sets each hop of a started context (more than 1 MB) in the farm's
# trace beside lbsim's (transfers.awk): the sender's time on it, the
# receiver's, the rest (in flight, or waiting for a quantum's end), the
# hop's whole time.
# Usage: experiments/calibrate/transfers.sh [OPTION]...
#   -o, --out DIR   output directory (default out/transfers)
#   --seeds K       seeds per cell (default 4)
#   --after "S B W" the model after (default "25 3 pack")
#   --policies LIST (default "lowest cchspmd")
#   --no-farm       reuse DIR/farm
# Writes, in DIR: farm/ (farm.sh, with traces/), before/, rates/, after/
# (holdout.sh, with traces/), hops.csv (every hop: run, driver, model),
# transfers.md (per topology, policy and driver: hops, MB, and per
# 6.64 MB context the sender's, receiver's and whole time of a hop; each
# run's error, before and after).  About 80 s of farm runs.
set -eu
lb_top=$(cd "$(dirname "$0")/../.." && pwd)
. "$lb_top/scripts/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
die() { echo "$0: $*" >&2; exit 2; }
out=out/transfers seeds=4 after="25 3 pack" farm=1 pols="lowest cchspmd"
while [ $# -gt 0 ]; do
  case $1 in
  -h|--help) sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
  -o|--out) out=${2:?}; shift 2 ;;
  --seeds) seeds=${2:?}; shift 2 ;;
  --after) after=${2:?}; shift 2 ;;
  --no-farm) farm=""; shift ;;
  --policies) pols=${2:?}; shift 2 ;;
  *) die "unknown argument '$1' (--help)" ;;
  esac
done
set -- $after; [ $# = 3 ] || die "--after: three values, set-up ms, ns a byte, MB/s or pack"
aS=$1 aB=$2 aW=$3
lb_init
mkdir -p "$out" || die "cannot create $out"
if [ -n "$farm" ]; then
  "$lb_top/experiments/tournament/farm.sh" --topologies "ring:6 complete:6" --per-host 4 --workloads matmul \
    --starts one --policies "$pols" --seeds "$seeds" --work-ms 400 --traces --out "$out/farm" ||
    lb_die "farm.sh failed"
fi
[ -d "$out/farm/traces" ] || die "no $out/farm/traces (run without --no-farm)"
for m in before rates after; do
  rm -rf "$out/$m/traces"
  if [ $m = before ]; then set -- --known replay --setups 25 --bytes 1 --bandwidths 50
  elif [ $m = rates ]; then set -- --known nominal --setups 25 --bytes 1 --bandwidths 50
  else set -- --known nominal --setups "$aS" --bytes "$aB" --bandwidths "$aW"; fi
  nice -n 10 "$here/holdout.sh" --runs "$out/farm" -o "$out/$m" --shares paused --msg-traces "$out/$m/traces" "$@" ||
    lb_die "holdout.sh ($m) failed"
done
hops() {
  for f in "$out"/farm/traces/*.csv; do
    tag=${f##*/}; tag=${tag%.csv}
    for m in farm before rates after; do
      if [ $m = farm ]; then t=$f; else t=$(ls "$out/$m/traces/$tag"-*.csv); fi
      sort -t, -k1,1g "$t" | awk -F, -f "$here/transfers.awk" | sed "1d; s|^[^,]*,[^,]*,|$tag,$m,|"
    done
  done
}
summary() {
  echo "Hops of started contexts (over 1 MB), per topology, policy and model:"
  echo "farm.sh --traces, then lbsim at holdout.sh's paused replay (before:"
  echo "set-up 25 ms, 1 ns a byte, 50 MB/s, --known replay; rates: the same,"
  echo "--known nominal; after: $after,"
  echo "--known nominal).  Per 6.64 MB context (a started process), ms of"
  echo "wall time at the hosts' 0.30 share:"
  echo
  echo "| topology | policy | model | runs | hops of started contexts | MB | sender | receiver | in flight or waiting | whole hop |"
  echo "|---|---|---|---|---|---|---|---|---|---|"
  awk -F, '$3 == "total" { split($1, a, "-"); k = a[1] "," a[5] "," $2; n[k]++; h[k] += $4 + 0; mb[k] += $6; s[k] += $7; r[k] += $8; w[k] += $9; e[k] += $10 }
    END { for (k in n) { split(k, b, ","); c = mb[k] > 0 ? 6.64 / mb[k] : 0
      o = b[3] == "farm" ? 0 : b[3] == "before" ? 1 : b[3] == "rates" ? 2 : 3
      printf "%s %s %d| %s | %s | %s | %d | %d | %.0f | %.0f | %.0f | %.0f | %.0f |\n", b[1], b[2], o, b[1], b[2], b[3] == "farm" ? "farm" : "lbsim " b[3], n[k], h[k], mb[k], s[k] * c, r[k] * c, w[k] * c, e[k] * c } }' "$out/hops.csv" |
    sort | sed 's/^[^|]*|/|/; s/complete_6/complete:6/; s/ring_6/ring:6/'
  echo
  echo "Each run's error, lbsim / farm - 1 (makespan over the ideal at the received share):"
  echo
  echo "| topology | policy | seed | farm | before | rates | after |"
  echo "|---|---|---|---|---|---|---|"
  awk -F, 'FNR == 1 { f++; next } { k = $1 "," $5 "," $7; if (f == 1) { fr[k] = $13; b[k] = $15; K[++nk] = k } else if (f == 2) r[k] = $15; else a[k] = $15 }
    END { for (i = 1; i <= nk; i++) { k = K[i]; split(k, x, ",")
      printf "| %s | %s | %s | %.3f | %+.1f %% | %+.1f %% | %+.1f %% |\n", x[1], x[2], x[3], fr[k], 100 * b[k], 100 * r[k], 100 * a[k] } }' \
    "$out/before/replay.csv" "$out/rates/replay.csv" "$out/after/replay.csv"
  awk -F, 'FNR == 1 { f++; next } { e = $15 < 0 ? -$15 : $15; if (e <= 0.10) w[f]++; n[f]++ }
    END { printf "\nWithin 10 %%: before %d of %d, rates %d of %d, after %d of %d.\n", w[1], n[1], w[2], n[2], w[3], n[3] }' \
    "$out/before/replay.csv" "$out/rates/replay.csv" "$out/after/replay.csv"
  echo
  echo "What the paused replay (holdout.sh --shares paused) takes for a cgroup's pause, per farm host: its span less"
  echo "its quanta, its messages (msg_s) and its idle time, against the MB of started contexts it took in (its trace):"
  echo
  for f in "$out"/farm/traces/*.csv; do
    tag=${f##*/}; tag=${tag%.csv}
    awk -F, 'FNR == 1 { f++ } f == 1 && !/^#/ && $12 == "recv" && $10 > 0 && $11 > 1e6 { rb[$2] += $11 }
      f == 2 && FNR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
      f == 2 { w = $c["span_s"] - $c["msg_s"] - $c["idle_s"]
        printf "%s %.3f %.3f %.4f %.4f\n", FILENAME, rb[$1] / 1e6, w - $c["busy_s"], $c["share"], (w > $c["busy_s"] && $c["cpu_s"] > 0 ? $c["cpu_s"] / w : $c["share"]) }' \
      "$f" "$out/farm/hosts/$tag.csv"
  done | awk '{ x = $2; y = $3; n++; sx += x; sy += y; sxx += x * x; sxy += x * y; syy += y * y
      if ($2 > 100) { big++; q += $4; p += $5 } }
    END { b = (n * sxy - sx * sy) / (n * sxx - sx * sx); a = (sy - b * sx) / n
      r = (n * sxy - sx * sy) / sqrt((n * sxx - sx * sx) * (n * syy - sy * sy))
      printf "%d hosts: that time = %.0f ms + %.1f ms per MB taken in (least squares, r = %.2f)", n, 1000 * a, 1000 * b, r
      if (big) printf "; the %d hosts that took in more than 100 MB: share in their quanta %.3f, paused share %.3f (means)", big, q / big, p / big
      printf ".\n" }'
  echo
  sed 's/^/    /' "$out/farm/run-info.txt"
}
{ echo "run,model,from,to,procs,MB,sender_ms,receiver_ms,between_ms,hop_ms"; hops; } >"$out/hops.csv.tmp" &&
  mv "$out/hops.csv.tmp" "$out/hops.csv" || lb_die "writing $out/hops.csv failed"
lb_write "$out/transfers.md" summary
echo "$0: wrote $out/hops.csv, $out/transfers.md"
