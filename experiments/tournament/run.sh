#!/bin/sh
# The seed 000 tournament: RMTLB, LOWEST, DASUD (Cortes et al.'s and
# the paper's expanding ring, dasud-ring), CCHSPMD, both diffusions, the
# variant RMTLB-drain, random work stealing and the master-worker pool,
# with `none` as the baseline,
# in the simulator with the farm's costs (--profile farm), on the same
# loads: ring:6, complete:6, torus:8x8, torus:32x32; 4, 32 and 80
# processes per host; primes-like and matmul-like processes; skewed and
# all-on-one starts.  Every policy runs at its default setting and at the
# best of its candidates (common.sh: the same values for every parameter
# policies share), chosen on seeds 101.. that are not reported
# (torus:32x32 takes torus:8x8's choice); the reported seeds are 1..K.
# Writes OUT/tune.csv, OUT/best.csv, OUT/runs.csv, OUT/summary.csv
# (means, sd, 95 % t intervals), OUT/paired.csv (each setting's winner
# against every other policy on the same seeds: Wilcoxon signed-rank,
# Holm-adjusted, median ratio), OUT/fig-*.{png,svg,pdf} (gnuplot) and
# OUT/verdict.md; prints their absolute paths.
#   --quick  ring:6 and torus:8x8, 4 and 32 per host, 3 seeds, 1 tuning
#            seed (about 2 minutes)
#   --six    the farm's settings: ring:6 and complete:6, 4 and 32 per
#            host (farm.sh predicts its cells from this run)
#   --full   also torus:32x32 with 80 per host and all-on-one at 32 per
#            host (33k-82k processes start on one node; some 97 minutes
#            of CPU in all, half of it steal's: docs/TOURNAMENT.md)
# Usage: experiments/tournament/run.sh [--quick|--six|--full] [-o OUTDIR]
#        [-b BUILDDIR] [-k SEEDS] [-t TUNESEEDS] [-j JOBS (1 or 2)]
set -eu
lb_top=$(cd "$(dirname "$0")/../.." && pwd)
. "$lb_top/scripts/lib.sh"
lb_init
here=$(cd "$(dirname "$0")" && pwd)
usage() { sed -n '2,26p' "$0"; }
out=out/tournament build=$(lb_builddir) seeds=10 tune=3 jobs=2 mode=normal
for a in "$@"; do
  case $a in
    --help|-h) usage; exit 0 ;;
  esac
done
while [ $# -gt 0 ]; do
  case $1 in
    --quick) mode=quick; seeds=3; tune=1 ;;
    --full) mode=full ;;
    --six) mode=six ;;
    -o) out=${2:?-o needs a directory}; shift ;;
    -b) build=${2:?-b needs a directory}; shift ;;
    -k) seeds=${2:?-k needs a count}; shift ;;
    -t) tune=${2:?-t needs a count}; shift ;;
    -j) jobs=${2:?-j needs 1 or 2}; shift ;;
    *) echo "$0: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
  esac
  shift
done
for v in "$seeds" "$tune"; do
  case $v in ''|*[!0-9]*|0) echo "$0: '$v' is not a positive count" >&2; exit 2 ;; esac
done
case $jobs in 1|2) ;; *) echo "$0: -j: at most 2 jobs on this machine ('$jobs')" >&2; exit 2 ;; esac
sim=$(cd "$build" 2>/dev/null && pwd)/sim/lbsim
[ -x "$sim" ] || { echo "$0: $sim not built (use -b BUILDDIR)" >&2; exit 2; }
mkdir -p "$out/traces"
out=$(cd "$out" && pwd)
. "$here/common.sh"
t0=$(date +%s)
load0=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?")

topos="ring:6 complete:6 torus:8x8 torus:32x32" Ls="4 32 80"
[ "$mode" = quick ] && topos="ring:6 torus:8x8" Ls="4 32"
[ "$mode" = six ] && topos="ring:6 complete:6" Ls="4 32"
pols="rmtlb rmtlb-drain lowest dasud dasud-ring cchspmd diffusion diffusion2 steal pool"
# The settings, one "TOPO L WL LOAD" per line.  Without --full, torus:32x32
# leaves out 80 per host and the all-on-one start at 32 per host.
settings=$out/settings.txt
for topo in $topos; do
  for L in $Ls; do
    for wl in primes matmul; do
      for load in skew one; do
        if [ "$mode" != full ] && [ "$topo" = torus:32x32 ] &&
           { [ "$L" = 80 ] || { [ "$L" = 32 ] && [ "$load" = one ]; }; }; then continue; fi
        echo "$topo $L $wl $load"
      done
    done
  done
done >"$settings"

# The loads: one file per (nodes, L, workload, start, seed), shared by
# every policy.
seedlist() { awk -v a="$1" -v b="$2" 'BEGIN { for (s = a; s <= b; s++) print s }'; }
# Made once: the job lists below would run an awk for each candidate.
tuneseeds=$(seedlist 101 $((100 + tune))) repseeds=$(seedlist 1 "$seeds")
while read -r topo L wl load; do
  n=$(nodes "$topo")
  for s in $tuneseeds $repseeds; do
    f=$out/traces/$n-$L-$wl-$load-$s.tr
    [ -s "$f" ] || awk -v n="$n" -v np=$((n * L)) -v wl="$wl" -v load="$load" -v seed="$s" -v w=10 \
                      -f "$here/trace.awk" >"$f"
  done
done <"$settings"

# Runs a job list, at most $jobs at a time, appending to a CSV; shows
# progress on a terminal.
runjobs() {
  total=$(wc -l <"$1")
  TOURN_SIM=$sim TOURN_TRACES=$out/traces
  export TOURN_SIM TOURN_TRACES
  xargs -d '\n' -n 1 -P "$jobs" sh "$here/job.sh" <"$1" | {
    done=0 start=$(date +%s)
    while IFS= read -r line; do
      printf '%s\n' "$line" >>"$2"
      done=$((done + 1))
      if [ -t 2 ] && [ $((done % 10)) = 0 ] || [ "$done" = "$total" ]; then
        [ -t 2 ] && printf '\r%s: %d/%d runs, %d s   ' "$3" "$done" "$total" $(( $(date +%s) - start )) >&2
      fi
    done
    [ -t 2 ] && printf '\n' >&2
    true
  }
}
# Seven labels, then lbsim's columns (docs/FORMATS.md), read by name
# from the eighth on.
header() { printf 'phase,topology,L,workload,load,policy,cfg,'; "$sim" --csv-header; }

# 1. Tuning on the held-out seeds (torus:32x32 borrows torus:8x8's).
tunecsv=$out/tune.csv jobsf=$out/jobs.txt
header >"$tunecsv"
while read -r topo L wl load; do
  [ "$topo" = torus:32x32 ] && continue
  for pol in $pols; do
    grid "$pol" "$L" "$(degree "$topo")" | while read -r cfg args; do
      for s in $tuneseeds; do echo "tune $topo $L $wl $load $s $pol $cfg $args"; done
    done
  done
done <"$settings" >"$jobsf"
runjobs "$jobsf" "$tunecsv" tuning

# 2. The best candidate: lowest mean ratio over the tuning seeds (a
# failed run counts as infinitely slow); ties go to fewer messages.
best=$out/best.csv
echo "topology,L,workload,load,policy,cfg,tune_ratio,tune_messages" >"$best"
awk -F, 'NR == 1 { for (i = 8; i <= NF; i++) c[$i] = i; next }
  { k = $2 "," $3 "," $4 "," $5 "," $6 "," $7; n[k]++
    r[k] += ($c["violations"] != 0 || $c["ratio"] == "nan") ? 1e9 : $c["ratio"]; m[k] += $c["messages"] }
  END { for (k in n) { split(k, f, ","); s = f[1] "," f[2] "," f[3] "," f[4] "," f[5]
      v = r[k] / n[k]; mm = m[k] / n[k]
      if (!(s in b) || v < b[s] - 1e-12 || (v < b[s] + 1e-12 && mm < bm[s])) { b[s] = v; bm[s] = mm; bc[s] = f[6] } }
    for (s in b) printf "%s,%s,%.4f,%.0f\n", s, bc[s], b[s], bm[s] }' "$tunecsv" | sort >>"$best"
bestcfg() {   # topo L wl load pol -> cfg name, or empty
  awk -F, -v k="$1,$2,$3,$4,$5" '{ s = $1 "," $2 "," $3 "," $4 "," $5 } s == k { print $6; exit }' "$best"
}

# 3. The reported runs: each policy's default and best settings.
runs=$out/runs.csv
header >"$runs"
while read -r topo L wl load; do
  src=$topo
  [ "$topo" = torus:32x32 ] && src=torus:8x8
  deg=$(degree "$topo")
  for s in $repseeds; do echo "both $topo $L $wl $load $s none default"; done
  for pol in $pols; do
    g=$(grid "$pol" "$L" "$deg")
    d=$(echo "$g" | head -1 | cut -d' ' -f1)
    b=$(bestcfg "$src" "$L" "$wl" "$load" "$pol")
    [ -n "$b" ] || b=$d
    for c in $(echo "$d $b" | tr ' ' '\n' | awk '!seen[$0]++'); do
      ph=both
      [ "$c" != "$b" ] && ph=default
      [ "$c" != "$d" ] && ph=best
      args=$(echo "$g" | awk -v c="$c" '$1 == c { $1 = ""; print; exit }')
      for s in $repseeds; do echo "$ph $topo $L $wl $load $s $pol $c$args"; done
    done
  done
done <"$settings" >"$jobsf"
runjobs "$jobsf" "$runs" reported
rm -f "$jobsf"

# 4. Statistics, figures, verdict.
sum=$out/summary.csv
awk -f "$here/stats.awk" "$runs" | sort_summary "$settings" >"$sum"
sh "$here/paired.sh" "$runs" >"$out/paired.csv"
rm -rf "$out/traces"
t1=$(date +%s)
load1=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?")
times >"$out/times.txt"   # here, not in a subshell: the runs' CPU is ours
cpu=$(tail -1 "$out/times.txt")
rm -f "$out/times.txt"
figs=$(sh "$here/figures.sh" "$out")
# How the run went, for the verdict (verdict.sh OUTDIR redraws it).
info=$out/run-info.txt
{
  echo "command=experiments/tournament/run.sh$(echo " $mode" | sed 's/ normal//; s/ / --/') -k $seeds -t $tune -j $jobs"
  echo "wall_s=$((t1 - t0))"
  echo "load_start=$load0"
  echo "load_end=$load1"
  echo "cpu_user_sys=$cpu"
  echo "settings=$(wc -l <"$settings")"
  echo "runs=$(( $(wc -l <"$tunecsv") + $(wc -l <"$runs") - 2 ))"
} >"$info"
lb_write "$out/verdict.md" sh "$here/verdict.sh" "$out"
for f in "$tunecsv" "$best" "$runs" "$sum" "$out/paired.csv" "$info" $figs "$out/verdict.md"; do echo "$f"; done
