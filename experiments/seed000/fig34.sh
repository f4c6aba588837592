#!/usr/bin/env bash
# Seed 000, Fig. 3 (matrix multiplication) and Fig. 4 (prime finding) on
# six PVM hosts: makespan of LOWEST, DASUD, CCHSPMD and RMTLB (and none
# for reference) against problem size, medians with min-max bars; the
# makespan over the ideal, nominal and at the CPU share the hosts
# received; each policy's messages, migrations (mid-run ones too) and
# RMTLB's placement counts (floods per heavy episode).
#
# The paper gives neither topology, C_i, initial imbalance nor sizes
# (docs/RMTLB.md).  Ours, the same for every policy: ring:6, speed 0.30
# per host (cgroup quota; 1.8 of the 2 cores), 12 processes per host (72)
# all starting on host 0, C = 8 on every host (A = 0.8: a host above 8.8
# is heavy, one below 7.2 light), round-robin hosts (--sched rr),
# messages hop by hop (--route hops), lbmaster's default hop time and
# period, seed = run number.  Results both ways (--results origin, the
# paper's; direct); none moves nothing, so it runs in direct mode only
# and stands for both.  Policies run back to back at each point, in an
# order that rotates with the run number.  Sizes: runs of a few seconds
# to ~30 s on a busy 2-core machine.
#
# Usage: experiments/seed000/fig34.sh [OPTION]...
#   -o, --out DIR        output directory (default out/seed000)
#   -r, --reps N         runs per point (default 3)
#   --results M          origin, direct or both (default both)
#   --matmul "N ..."     matmul sizes (default "2000 3000 4000 5000")
#   --primes "N ..."     primes sizes (default "10000000 20000000 30000000 40000000")
#   --policies "P ..."   default "rmtlb lowest dasud cchspmd none"
#   --none-reps N        runs of none per point (default 1: a reference)
#   --per-host P         processes per host (default 12)
#   --capacity C         C_i of every host (default 8)
#   --timeout S          bound on one run, seconds (default 900)
#   --plot-only          summarise and redraw DIR/runs.csv, run nothing
#   --quick              one run per point, the two smallest sizes
# Uses the lbmaster of this build (LBMASTER overrides it).  Writes, in DIR:
# runs.csv (lbmaster's row per run, then rep, load averages before and
# after, the per-host CSV), hosts/ and traces/ (lbmaster --hosts-csv and
# --trace of each run; experiments/calibrate/ reads them), provenance-fig34.txt
# (command, commit, times, load, and whether every run succeeded),
# summary.csv, floods.csv (RMTLB's floods per run, from the traces),
# fig34.md (the tables), fig3[-direct] and fig4[-direct]
# (.png, .svg, .pdf; without suffix: --results origin).  The runs go to
# a directory of their own (DIR/.run.XXXXXX) that replaces runs.csv,
# hosts/ and traces/ when the last run is done: Ctrl-C or SIGTERM stops
# the run in progress, halts its virtual machine and leaves DIR as it
# was (exit 130 or 143).  Exit status 1 when a run failed (the others
# are kept; provenance-fig34.txt names the failed ones).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../scripts/lib.sh"
out=out/seed000; reps=3; modes="origin direct"; plot_only=; quick=
msizes="2000 3000 4000 5000"; psizes="10000000 20000000 30000000 40000000"
policies="rmtlb lowest dasud cchspmd none"; per_host=12; cap=8; tmo=900; nreps=1
die() { echo "$0: $*" >&2; exit 2; }
posint() { case $2 in ''|*[!0-9]*|0) die "$1 wants a positive integer, got '$2'" ;; esac; }
while [ $# -gt 0 ]; do
  case $1 in
  -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
  -o|--out) out=${2:?}; shift 2 ;;
  -r|--reps) posint "$1" "${2:-}"; reps=$2; shift 2 ;;
  --results) case ${2:-} in origin|direct) modes=$2 ;; both) modes="origin direct" ;;
             *) die "--results: origin, direct or both" ;; esac; shift 2 ;;
  --matmul) msizes=${2?}; shift 2 ;;
  --primes) psizes=${2?}; shift 2 ;;
  --policies) policies=${2:?}; shift 2 ;;
  --none-reps) posint "$1" "${2:-}"; nreps=$2; shift 2 ;;
  --per-host) posint "$1" "${2:-}"; per_host=$2; shift 2 ;;
  --capacity) posint "$1" "${2:-}"; cap=$2; shift 2 ;;
  --timeout) posint "$1" "${2:-}"; tmo=$2; shift 2 ;;
  --plot-only) plot_only=1; shift ;;
  --quick) quick=1; shift ;;
  *) die "unknown argument '$1' (--help)" ;;
  esac
done
for s in $msizes $psizes; do posint size "$s"; done
for p in $policies; do case $p in rmtlb|lowest|dasud|cchspmd|none) ;; *) die "unknown policy '$p'" ;; esac; done
if [ -n "$quick" ]; then reps=1; msizes=$(echo $msizes | cut -d' ' -f1-2); psizes=$(echo $psizes | cut -d' ' -f1-2); fi
if [ -n "${LBMASTER:-}" ]; then master=$(realpath "$LBMASTER" 2>/dev/null) || master=$LBMASTER
else master=$(lb_built master/lbmaster) || true; fi
command -v gnuplot >/dev/null || die "gnuplot not found"
lb_init
mkdir -p "$out"; out=$(cd "$out" && pwd)
runs=$out/runs.csv
load1() { cut -d' ' -f1 /proc/loadavg; }

if [ -z "$plot_only" ]; then
  [ -x "$master" ] || die "$master: not built (run scripts/setup.sh, or set LBMASTER)"
  lb_lock "$out"
  lb_private_vm fig34
  stage=$(mktemp -d "$out/.run.XXXXXX") || lb_die "cannot write in $out"
  lb_on_exit "rm -rf '$stage'"
  mkdir "$stage/hosts" "$stage/traces" "$stage/failed"
  runs=$stage/runs.csv failed=""
  procs=$((6 * per_host))
  np=$(echo $policies | wc -w); hasnone=0; case " $policies " in *" none "*) hasnone=1 ;; esac
  nm=$(echo $modes | wc -w); ns=$(echo $msizes $psizes | wc -w)
  [ "$nreps" -le "$reps" ] || nreps=$reps
  total=$(( ns * (reps * (np - hasnone) * nm + nreps * hasnone) )); k=0
  one() { # workload size policy mode rep
    local tag=$1-$2-$3-$4-r$5 row=$stage/row.csv l0 l1 rc=0
    l0=$(load1); rm -f "$row"
    lb_run "$tmo" "$master" --workload "$1" --size "$2" --policy "$3" --results "$4" --seed "$5" \
      --procs "$procs" --capacities "$cap" --hosts 6 --topology ring:6 --speeds 0.30 --init one \
      --out "$row" --hosts-csv "$stage/hosts/$tag.csv" --trace "$stage/traces/$tag.csv" >"$stage/last.log" 2>&1 || rc=$?
    if [ $rc != 0 ]; then
      mv "$stage/last.log" "$stage/failed/$tag.log" 2>/dev/null || true
      echo "$lb_prog: failed (exit $rc): $tag (its log: $out/failed/$tag.log once the set is done)" >&2
      failed="$failed $tag"
      return 0
    fi
    l1=$(load1)
    [ -s "$runs" ] || sed -n '1s/$/,rep,load1_before,load1_after,hosts_csv/p' "$row" >"$runs" || lb_die "writing $runs failed"
    sed -n "2s|\$|,$5,$l0,$l1,hosts/$tag.csv|p" "$row" >>"$runs" || lb_die "writing $runs failed"
  }
  echo "six PVM hosts on ring:6, $per_host processes each from host 0, C = $cap" >"$stage/setup.txt" ||
    lb_die "writing $stage/setup.txt failed"
  t0=$(date +%s)
  for rep in $(seq "$reps"); do
    # rotate the policy order with the run number
    set -- $policies; for _ in $(seq $(( (rep - 1) % np ))); do set -- "${@:2}" "$1"; done; order="$*"
    for w in matmul primes; do
      [ $w = matmul ] && sizes=$msizes || sizes=$psizes
      for n in $sizes; do for m in $modes; do for p in $order; do
        [ $p = none ] && { [ $m != "${modes##* }" ] || [ "$rep" -gt "$nreps" ]; } && continue
        one $w "$n" $p "$([ $p = none ] && echo direct || echo $m)" "$rep"; k=$((k + 1))
        [ -t 2 ] && printf '\r%s: %d/%d runs, %d s, load %s   ' "${0##*/}" $k $total $(( $(date +%s) - t0 )) "$(load1)" >&2
      done; done; done
    done
  done
  [ -t 2 ] && echo >&2
  rm -f "$stage/row.csv" "$stage/last.log"
  [ -s "$runs" ] || { ls "$stage"/failed/*.log >/dev/null 2>&1 && tail -n 5 "$stage"/failed/*.log >&2; lb_die "no run succeeded"; }
  nf=$(echo $failed | wc -w)
  if [ "$nf" = 0 ]; then lb_provenance "$stage" complete "$total of $total runs"
  else lb_provenance "$stage" incomplete "$((total - nf)) of $total runs; failed:$failed; run again: $lb_argv"; fi
  # Every run is done: this set replaces the last one.
  rm -rf "$out/hosts" "$out/traces" "$out/failed"
  rmdir "$stage/failed" 2>/dev/null || true
  for f in hosts traces failed setup.txt provenance-fig34.txt runs.csv; do
    [ -e "$stage/$f" ] && lb_commit "$stage/$f" "$out/$f"
  done
  runs=$out/runs.csv
fi
[ -s "$runs" ] || die "no runs in $runs"
lb_write "$out/summary.csv" awk -F, -f "$here/summary.awk" "$runs"
awk -F, -v out="$out" -f "$here/dat.awk" "$out/summary.csv" || lb_die "writing $out/dat/ failed"
# RMTLB's floods, from the traces: run, workload, size, results, rep, then floods.awk's row
floods() {
  echo "tag,workload,size,results,rep,hv,floods,answered,placed_first,placed_first_answered,placed,first_answered"
  for t in "$out"/traces/*-rmtlb-*.csv; do
    [ -s "$t" ] || continue
    b=${t##*/}; b=${b%.csv}; IFS=- read -r w n _ m r <<<"$b"
    # the column line, then the rows by time (past the trace's "#" head)
    { awk '/^#/ { next } { print; exit }' "$t"; grep -v '^#' "$t" | tail -n +2 | sort -t, -k1,1g; } |
      awk -F, -f "$here/floods.awk" | sed "s|^|$b,$w,$n,$m,${r#r},|"
  done
}
lb_write "$out/floods.csv" floods
np_=$(awk -F, 'NR == 2 { print $c } NR == 1 { for (i = 1; i <= NF; i++) if ($i == "procs") c = i }' "$runs")
tables() {
  awk -F, -f "$here/tables.awk" "$out/summary.csv" &&
  awk -F, -v epn="$(awk -v p="$np_" -v c="$cap" 'BEGIN { e = p - 1.1 * c; print (e == int(e) ? e : int(e) + 1) }')" \
    -v room="$(awk -v c="$cap" 'BEGIN { print 5 * int(1.1 * c) }')" -f "$here/floods_report.awk" "$out/floods.csv"
}
lb_write "$out/fig34.md" tables
setup=$(cat "$out/setup.txt" 2>/dev/null || echo "six PVM hosts")
lb_plot "$out" "$here/fig34.gp" "outdir='$out'" "setup='$setup'"
bad=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["verified"] != "yes"' "$runs" | wc -l)
[ "$bad" = 0 ] || echo "$0: $bad run(s) not verified (see $runs)" >&2
echo "$0: wrote $runs, $out/summary.csv, $out/fig34.md"
for f in fig3 fig3-direct fig4 fig4-direct; do
  [ -e "$out/$f.png" ] && echo "$0: wrote $out/$f.png, $out/$f.svg, $out/$f.pdf"
done
if grep -q '^status: incomplete' "$out/provenance-fig34.txt" 2>/dev/null; then
  lb_die "the result set is incomplete: $(sed -n 's/^status: //p' "$out/provenance-fig34.txt")"
fi
exit 0
