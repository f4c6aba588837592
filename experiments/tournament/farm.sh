#!/bin/sh
# The tournament on the PVM farm: six hosts (one worker each, 0.30 of a
# core) on ring:6 and complete:6; 4 and 32 processes per host; primes
# and matmul; the skewed start (host k holds 2^-k of the processes) and
# all-on-one; every policy at its simulator-tuned setting (best.csv of
# `run.sh --six`; a policy's default where there is none), K paired seeds
# (the same seed: the same load and random choices for every policy).
# Beside every farm cell, the simulator's prediction: lbsim --profile
# farm on the same start, process sizes, host speeds, quantum and hop
# time, with the same setting and seeds.  Writes, in OUT (default
# out/tournament-farm): runs.csv (labels, then lbmaster --csv), sim.csv
# (labels, then lbsim --csv), cells.csv (farm against simulator per
# cell), paired.csv (paired t-tests on the farm; Wilcoxon's too),
# paired-sim.csv (the same for the simulator's runs), verdict.md,
# provenance-farm.txt and hosts/ (each run's lbmaster --hosts-csv, named
# by runtag in common.sh: every host's CPU, share, idle and message
# time, which experiments/calibrate/holdout.sh replays host by host); a
# set replaces the last one only when whole.
#   --out DIR     output directory
#   --sim DIR     the simulator tournament whose best.csv gives the
#                 settings (default out/tournament-six, else out/tournament)
#   --seeds K     paired seeds per cell (default 5)
#   --work-ms MS  mean CPU milliseconds of a process (default 50)
#   --topologies, --per-host, --workloads, --starts, --policies LIST
#                 restrict the cells (space-separated lists)
#   --quick       ring:6, 4 per host, primes, all-on-one, 2 seeds, none
#                 rmtlb steal pool (about a minute)
#   --timeout S   a run's limit (default 300)
#   --traces      keep each run's lbmaster --trace too, in traces/ (named
#                 as in hosts/; docs/TRACES.md)
# Usage: experiments/tournament/farm.sh [--out DIR] [--quick] [OPTIONS]
set -eu
lb_top=$(cd "$(dirname "$0")/../.." && pwd)
. "$lb_top/scripts/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
usage() { sed -n '2,/^# Usage/p' "$0"; }
for a in "$@"; do case $a in --help|-h) usage; exit 0 ;; esac; done
die() { echo "$0: $*" >&2; exit 2; }
out=out/tournament-farm sim_dir="" seeds=5 work_ms=50 tmo=300
topos="ring:6 complete:6" Ls="4 32" wls="primes matmul" starts="skewed one"
pols="none rmtlb rmtlb-drain lowest dasud dasud-ring cchspmd diffusion diffusion2 steal pool"
quick="" traces=""
while [ $# -gt 0 ]; do
  case $1 in
    --out) out=${2:?--out needs a directory}; shift ;;
    --sim) sim_dir=${2:?--sim needs a directory}; shift ;;
    --seeds) seeds=${2:-}; shift ;;
    --work-ms) work_ms=${2:-}; shift ;;
    --timeout) tmo=${2:-}; shift ;;
    --topologies) topos=${2:?}; shift ;;
    --per-host) Ls=${2:?}; shift ;;
    --workloads) wls=${2:?}; shift ;;
    --starts) starts=${2:?}; shift ;;
    --policies) pols=${2:?}; shift ;;
    --quick) quick=1 ;;
    --traces) traces=1 ;;
    *) die "unknown argument '$1' (--help)" ;;
  esac
  shift
done
if [ -n "$quick" ]; then
  topos=ring:6 Ls=4 wls=primes starts=one seeds=2 pols="none rmtlb steal pool"
fi
for v in "$seeds" "$work_ms" "$tmo"; do case $v in ''|*[!0-9]*|0) die "'$v' is not a positive count" ;; esac; done
for t in $topos; do case $t in ring:6|complete:6) ;; *) die "topology '$t': ring:6 or complete:6 (six hosts)" ;; esac; done
for s in $starts; do case $s in skewed|one) ;; *) die "start '$s': skewed or one" ;; esac; done
for w in $wls; do case $w in primes|matmul) ;; *) die "workload '$w': primes or matmul" ;; esac; done
for L in $Ls; do case $L in ''|*[!0-9]*|0) die "per host '$L' is not a positive count" ;; esac; done
if [ -n "${LBMASTER:-}" ]; then master=$LBMASTER; else master=$(lb_built master/lbmaster) || true; fi
sim=$(lb_built sim/lbsim) || true
[ -x "$master" ] || die "$master: not built (run scripts/setup.sh, or set LBMASTER)"
[ -x "$sim" ] || die "$sim: not built (run scripts/setup.sh)"
. "$here/common.sh"
lb_init
mkdir -p "$out" || lb_die "cannot create $out"
out=$(cd "$out" && pwd)
if [ -z "$sim_dir" ]; then
  for d in out/tournament-six out/tournament; do [ -s "$d/best.csv" ] && { sim_dir=$d; break; }; done
fi
best=""
[ -n "$sim_dir" ] && [ -s "$sim_dir/best.csv" ] && best=$(cd "$sim_dir" && pwd)/best.csv
lb_lock "$out"
lb_private_vm tfarm
stage=$(mktemp -d "$out/.run.XXXXXX") || lb_die "cannot write in $out"
lb_on_exit "rm -rf '$stage'"
mkdir "$stage/hosts" || lb_die "cannot write in $stage"
[ -z "$traces" ] || mkdir "$stage/traces" || lb_die "cannot write in $stage"

speed=0.30 quantum_ms=10
# Sizes: the mean process takes work_ms of CPU.  Measured here (AMD EPYC,
# lbmaster --policy none): primes below 2 x 10^7 took 4.0 CPU seconds,
# and trial division costs ~ N^1.5 / ln N; matmul of order 1000, 0.108 s,
# as N^3.
size() {   # workload processes -> size
  awk -v w="$1" -v np="$2" -v ms="$work_ms" 'function f(n) { return n ^ 1.5 / log(n) }
    BEGIN { cpu = np * ms / 1000
      if (w == "matmul") { printf "%d\n", 1000 * (cpu / 0.108) ^ (1 / 3) + 0.5; exit }
      t = f(2e7) * cpu / 4.0; lo = 1e3; hi = 1e11
      while (hi - lo > 1) { m = int((lo + hi) / 2); if (f(m) < t) lo = m; else hi = m }
      printf "%d\n", hi }'
}
setting() {   # topo L wl start pol -> "CFG ARGS" (quanta)
  local g cfg=""
  g=$(grid "$5" "$2" "$(degree "$1")")
  [ -n "$best" ] && cfg=$(awk -F, -v k="$1,$2,$3,$4,$5" '$1 "," $2 "," $3 "," $4 "," $5 == k { print $6; exit }' "$best")
  [ -n "$cfg" ] || cfg=$(echo "$g" | head -1 | cut -d' ' -f1)
  echo "$g" | awk -v c="$cfg" '$1 == c { print; exit }'
}
sizes() {   # workload L -> "ctx result" bytes for the simulator
  if [ "$1" = matmul ]; then
    n=$(size matmul $((6 * $2))); echo "$((8 * n * n / (6 * $2))) $((8 * n * n / (6 * $2)))"
  else echo "64 32"; fi
}

hdr_labels='phase,topology,L,workload,load,policy,cfg'
runs=$stage/runs.csv simcsv=$stage/sim.csv
printf '%s,' "$hdr_labels" >"$runs" && "$master" --csv-header >>"$runs" || lb_die "writing $runs failed"
printf '%s,' "$hdr_labels" >"$simcsv" && "$sim" --csv-header >>"$simcsv" || lb_die "writing $simcsv failed"
speeds=$(awk -v s="$speed" 'BEGIN { for (k = 0; k < 6; k++) printf "%s%s", k ? "," : "", s }')
hop_q=$(awk -v s="$speed" -v q="$quantum_ms" 'BEGIN { printf "%g", (q / s + 2) / q }')   # lbmaster's hop time, in quanta
ncell=0 total=0
for t in $topos; do for L in $Ls; do for w in $wls; do for st in $starts; do for p in $pols; do
  total=$((total + seeds)); done; done; done; done; done
failed="" k=0 t0=$(date +%s) load0=$(cut -d' ' -f1-3 /proc/loadavg)
for topo in $topos; do for L in $Ls; do for wl in $wls; do for st in $starts; do
  np=$((6 * L)); n=$(size "$wl" "$np"); sl=$st
  [ "$st" = skewed ] && sl=skew
  lb_tmp "$stage/trace"; tr=$lb_t
  simtrace "$wl" "$st" "$np" "$n" "$(awk -v w="$work_ms" -v q="$quantum_ms" 'BEGIN { print w / q }')" >"$tr" || lb_die "writing $tr failed"
  set -- $(sizes "$wl" "$L"); ctxb=$1 resb=$2
  for s in $(seq "$seeds"); do
    # the policies in a rotating order, so none always runs at the same point of a load swing
    set -- $pols; for _ in $(seq $(( (s - 1) % $# ))); do set -- "$@" "$1"; shift; done
    for pol in "$@"; do
      if [ "$pol" = none ]; then cfg=default args=""
      else set -- $(setting "$topo" "$L" "$wl" "$sl" "$pol"); cfg=$1; shift; args=$*; fi
      fa=$(farmargs "$quantum_ms" $args)
      lab="best,$topo,$L,$wl,$st,$pol,$cfg"
      hcsv=$stage/hosts/$(runtag "$topo" "$L" "$wl" "$st" "$pol" "$cfg" "$s").csv
      targs=""; [ -z "$traces" ] || targs="--trace $stage/traces/${hcsv##*/}"
      rc=0
      # shellcheck disable=SC2046,SC2086
      lb_run "$tmo" "$master" --workload "$wl" --size "$n" --procs "$np" --hosts 6 --topology "$topo" \
        --speeds "$speed" --init "$st" --seed "$s" --quantum "$quantum_ms" --results direct \
        --policy $(polarg "$pol") $fa --hosts-csv "$hcsv" $targs --csv >"$stage/row" 2>"$stage/log" || rc=$?
      if [ $rc = 0 ] && [ "$(sed -n 2p "$stage/row" | grep -c ,)" = 1 ]; then
        printf '%s,%s\n' "$lab" "$(sed -n 2p "$stage/row")" >>"$runs" || lb_die "writing $runs failed"
      else
        failed="$failed $topo/$L/$wl/$st/$pol/$s"; rm -f "$hcsv" "$stage/traces/${hcsv##*/}"
        echo "$lb_prog: failed (exit $rc): $lab seed $s: $(tail -1 "$stage/log")" >&2
      fi
      # shellcheck disable=SC2046,SC2086
      lb_run 120 "$sim" --profile farm --results direct --policy $(polarg "$pol") -t "$topo" -l "trace:$tr" -s "$s" \
        --speeds "$speeds" --quantum "$(awk -v s="$speed" 'BEGIN { printf "%g", 1 / s }')" --hop-time "$hop_q" \
        --ctx-bytes "$ctxb" --result-bytes "$resb" $args --csv >"$stage/srow" 2>/dev/null || true
      sed -n "2s|^|$lab,|p" "$stage/srow" >>"$simcsv" || lb_die "writing $simcsv failed"
      k=$((k + 1))
      [ -t 2 ] && printf '\r%s: %d/%d runs, %d s, load %s   ' "$lb_prog" "$k" "$total" $(( $(date +%s) - t0 )) \
        "$(cut -d' ' -f1 /proc/loadavg)" >&2
    done
  done
  ncell=$((ncell + 1))
done; done; done; done
[ -t 2 ] && echo >&2
rm -f "$stage/row" "$stage/srow" "$stage/log"
[ "$(wc -l <"$runs")" -gt 1 ] || lb_die "no farm run succeeded"
load1=$(cut -d' ' -f1-3 /proc/loadavg)

# Per cell: the farm's mean ratios with their 95 % t intervals beside the
# simulator's.
cells() {
  awk -F, 'BEGIN { split("12.706 4.303 3.182 2.776 2.571 2.447 2.365 2.306 2.262 2.228", T, " ") }
    function tq(df) { return df < 1 ? 0 : df <= 10 ? T[df] : 2.2 }
    FNR == 1 { f++; for (i = 8; i <= NF; i++) c[f, $i] = i; next }
    { k = $2 "," $3 "," $4 "," $5 "," $6 "," $7; if (!(k in seen)) { seen[k] = 1; K[++nk] = k }
      if (f == 1) { v = $c[1, "ratio_received"]; r = $c[1, "ratio"]
        if ($c[1, "verified"] != "yes" || v == "") { bad[k]++; next }
        n[k]++; s[k] += v; ss[k] += v * v; sr[k] += r }
      else if ($c[2, "violations"] == 0 && $c[2, "ratio"] != "nan") { m[k]++; sm[k] += $c[2, "ratio"] } }
    END { print "topology,L,workload,start,policy,cfg,farm_runs,farm_failed,farm_ratio,farm_ratio_nominal,farm_ci95,sim_runs,sim_ratio,sim_over_farm"
      for (i = 1; i <= nk; i++) { k = K[i]; a = n[k] ? s[k] / n[k] : "nan"
        sd = n[k] > 1 ? sqrt((ss[k] - n[k] * a * a) / (n[k] - 1)) : 0; sd = sd == sd ? sd : 0
        b = m[k] ? sm[k] / m[k] : "nan"
        printf "%s,%d,%d,%s,%s,%s,%d,%s,%s\n", k, n[k], bad[k], n[k] ? sprintf("%.4f", a) : "nan",
          n[k] ? sprintf("%.4f", sr[k] / n[k]) : "nan", n[k] ? sprintf("%.4f", tq(n[k] - 1) * sd / sqrt(n[k])) : "nan",
          m[k], m[k] ? sprintf("%.4f", b) : "nan", n[k] && m[k] ? sprintf("%.3f", b / a) : "nan" } }' "$runs" "$simcsv"
}
lb_write "$stage/cells.csv" cells
# few seeds: the paired t-test decides (paired.awk)
lb_write "$stage/paired.csv" sh "$here/paired.sh" "$runs" best ratio_received t
lb_write "$stage/paired-sim.csv" sh "$here/paired.sh" "$simcsv" best ratio t
nf=$(echo $failed | wc -w)
cat >"$stage/run-info.txt" <<EOF || lb_die "writing run-info.txt failed"
command=$lb_argv
settings_from=${best:-none (each policy's default candidate)}
seeds=$seeds
work_ms=$work_ms
sizes=$(for L in $Ls; do for w in $wls; do printf '%s/%s:%s ' "$w" "$L" "$(size "$w" $((6 * L)))"; done; done)
runs=$(( $(wc -l <"$runs") - 1 )) of $total
failed=${failed:- none}
wall_s=$(( $(date +%s) - t0 ))
load_start=$load0
load_end=$load1
cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')
EOF
lb_write "$stage/verdict.md" sh "$here/farm_verdict.sh" "$stage"
if [ "$nf" = 0 ]; then lb_provenance "$stage" complete "$total of $total runs"
else lb_provenance "$stage" incomplete "$((total - nf)) of $total runs; failed:$failed"; fi
rm -rf "$out/hosts" "$out/traces"
for f in runs.csv sim.csv cells.csv paired.csv paired-sim.csv run-info.txt verdict.md provenance-farm.txt hosts ${traces:+traces}; do
  lb_commit "$stage/$f" "$out/$f"
done
for f in runs.csv sim.csv cells.csv paired.csv paired-sim.csv verdict.md; do echo "$out/$f"; done
