#!/usr/bin/env bash
# scripts/main.sh: set up, build, and run lbfarm's main job, the seed 000
# comparison in small: every policy on the same six emulated hosts (each
# 0.30 of a core, so six busy workers behave like six machines on two
# cores), on ring:6, with all processes starting on host 0.  The
# workload is prime finding up to 2e7 cut into 480 processes of unequal
# cost, C = 8 per host.  It runs on the embedded default: a private
# one-host PVM that lbmaster starts and halts by itself.  About a minute.
#
# Usage: scripts/main.sh [--outdir DIR] [--policies P,Q,...] [LBMASTER-OPTION]...
#
#   --outdir DIR      where main.csv, main.txt and the bar chart go
#                     (default out/ in the source tree; a relative DIR is
#                     taken from the current directory)
#   --policies LIST   the policies to run, comma-separated (default the
#                     seed 000 comparison: none,lowest,dasud,cchspmd,
#                     diffusion,diffusion2,rmtlb; steal, pool and
#                     dasud-ring may be named too)
#   LBMASTER-OPTION   changes the main job: every option is passed to each
#                     lbmaster run after the defaults, so it replaces one
#                     (e.g. --size 40000000, --workload matmul --size 2000
#                     --procs 48, --policy rmtlb to run one policy).
#                     lbmaster --help lists them.
#   -h, --help        show this help
#
# LBMASTER names another lbmaster (default master/lbmaster of this tree);
# LBFARM_SKIP_SETUP=1 skips set-up and build (the tests use both).
#
# Writes DIR/main.csv (lbmaster's columns, a row per policy), DIR/main.txt
# (the table) and DIR/main.png, .svg and .pdf (ratio to the ideal per
# policy), all at the end: the job writes in a directory of its own
# (DIR/.main.XXXXXX) and moves its files into place when every run and
# the chart are done, so a failed, refused or interrupted job leaves the
# files of the last one as they were.  One main job at a time per DIR: a
# second one is refused.  Exit status: 0 every run verified, 1 a run or
# an output failed, 2 bad arguments, 130 interrupted (Ctrl-C), 143
# terminated (SIGTERM).
set -euo pipefail
here=$(pwd)
cd "$(dirname "$0")/.."
top=$(pwd)
. "$top/scripts/lib.sh"
usage() { sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; }
die() { echo "main.sh: $*" >&2; exit 2; }

outdir=$top/out
policies=none,lowest,dasud,cchspmd,diffusion,diffusion2,rmtlb
args=()
while [ $# -gt 0 ]; do
  case $1 in
  -h|--help) usage; exit 0 ;;
  --outdir) [ $# -ge 2 ] || die "--outdir needs a directory"; outdir=$2; shift 2 ;;
  --outdir=*) outdir=${1#*=}; shift ;;
  --policies) [ $# -ge 2 ] || die "--policies needs a list"; policies=$2; shift 2 ;;
  --policies=*) policies=${1#*=}; shift ;;
  --policy) [ $# -ge 2 ] || die "--policy needs a name"; policies=$2; shift 2 ;;
  --policy=*) policies=${1#*=}; shift ;;
  --out|--out=*|--hosts-csv|--hosts-csv=*) die "$1: the main job writes its own files (use --outdir)" ;;
  *) args+=("$1"); shift ;;
  esac
done
IFS=, read -r -a plist <<<"$policies"
[ ${#plist[@]} -gt 0 ] || die "--policies: empty list"
for p in "${plist[@]}"; do
  case $p in none|lowest|dasud|cchspmd|diffusion|diffusion2|rmtlb|steal|pool|dasud-ring) ;;
  *) die "unknown policy '$p' (none, lowest, dasud, cchspmd, diffusion, diffusion2, rmtlb, steal, pool, dasud-ring)" ;; esac
done

case $outdir in /*) ;; *) outdir=$here/$outdir ;; esac
lb_init
[ "${LBFARM_SKIP_SETUP:-0}" = 1 ] || scripts/setup.sh
master=${LBMASTER:-$top/master/lbmaster}
[ -x "$master" ] || die "$master: not built (run scripts/setup.sh)"
mkdir -p "$outdir" || die "cannot create $outdir"
outdir=$(cd "$outdir" && pwd)
# One main job per output directory; the lock goes with this process.
exec 8>>"$outdir/.main.lock" || die "cannot write in $outdir"
flock -n 8 || { echo "main.sh: another main job is writing to $outdir: wait for it, or give this one" \
  "a directory of its own (--outdir DIR); nothing was changed" >&2; exit 1; }
lb_on_exit "rm -f '$outdir/.main.lock'"
stage=$(mktemp -d "$outdir/.main.XXXXXX") || die "cannot write in $outdir"
lb_on_exit "rm -rf '$stage'"
csv=$stage/main.csv
defaults=(--workload primes --size 20000000 --procs 480 --capacities 8 --hosts 6
          --speeds 0.30 --init one --seed 1)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lbfarm-main.XXXXXX")
lb_on_exit "rm -rf '$tmp'"

echo "main job: lbmaster ${defaults[*]} ${args[*]}" >&2
k=0
for p in "${plist[@]}"; do
  k=$((k + 1))
  printf '[%d/%d] %-10s ' "$k" "${#plist[@]}" "$p" >&2
  start=$(date +%s%N)
  rc=0
  lb_run 0 "$master" "${defaults[@]}" "${args[@]}" --policy "$p" --out "$csv" >"$tmp/$p.log" 2>&1 || rc=$?
  if [ $rc -ne 0 ]; then
    echo "failed (exit $rc)" >&2
    cat "$tmp/$p.log" >&2
    echo "main.sh: the files in $outdir were left as they were" >&2
    [ $rc -eq 130 ] && exit 130
    exit $([ $rc -eq 2 ] && echo 2 || echo 1)
  fi
  throttle=$(awk '$1 == "0" && $2 ~ /^t/ { print $5; exit }' "$tmp/$p.log")
  ms=$(( ($(date +%s%N) - start) / 1000000 ))
  ratio=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i } END { printf "%.2f", $c["ratio"] }' "$csv")
  printf '%d.%d s, ratio %s\n' $((ms / 1000)) $((ms % 1000 / 100)) "$ratio" >&2
done

# The table, from the CSV by column name.
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
  { m = 0; for (k in c) if (k ~ /^lb_/) m += $c[k]
    opt = $c["hops_optimal"] == "" ? "-" : $c["hops_optimal"]
    printf "%-10s %10.3f %9.3f %7.2f %9.2f %6d (%4d) %9d %7d / %-7s %s\n", $c["policy"], $c["makespan_s"],
      $c["ideal_s"], $c["ratio"], $c["ratio_received"], $c["migrated"], $c["migrated_started"],
      m, $c["hops"], opt, $c["verified"] }
  BEGIN { printf "%-10s %10s %9s %7s %9s %13s %9s %17s %s\n", "policy", "makespan_s", "ideal_s", "ratio",
            "ratio_cpu", "migr (mid)", "messages", "hops / optimum", "verified" }' "$csv" >"$stage/main.txt" ||
  lb_die "writing $outdir/main.txt failed"
cat "$stage/main.txt"
cat <<EOF

ideal:     the makespan of a perfect balance, the CPU seconds of all the work
           divided by the hosts' summed speeds (ratio_cpu: by the CPU they received).
ratio:     makespan / ideal; 1 is perfect, none shows the cost of not balancing.
migr:      processes moved (mid: had started running, moved with their state).
hops:      process-hops, against the fewest that balance the start (lb_optimum.h).
EOF
case ${throttle:-} in
''|cgroup-v1|cgroup-v2) ;;
*) echo "note: speeds emulated by '$throttle', not a cgroup quota: no cgroup could be made here (docs/FARM.md)." ;;
esac

awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
  { print $c["policy"], $c["ratio"], $c["ratio_received"] }' "$csv" >"$tmp/main.dat" || lb_die "writing $tmp/main.dat failed"
title=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
  NR == 2 { printf "%s %s: %s processes on %s hosts (%s), start %s", $c["workload"], $c["size"],
            $c["procs"], $c["nodes"], $c["topology"], $c["init"] }' "$csv")
for ext in png svg pdf; do
  lb_plot1 "$stage/main.$ext" scripts/main.gp "data='$tmp/main.dat'" "title='$title'"
done
# Every file is whole: into place, the CSV last.
for f in main.txt main.png main.svg main.pdf main.csv; do lb_commit "$stage/$f" "$outdir/$f"; done
csv=$outdir/main.csv
echo
echo "CSV:   $csv"
echo "table: $outdir/main.txt"
echo "chart: $outdir/main.png $outdir/main.svg $outdir/main.pdf"
if grep -q ',no$' "$csv"; then echo "main.sh: a run was not verified" >&2; exit 1; fi
