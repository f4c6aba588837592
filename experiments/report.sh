#!/bin/sh
# One report on the five papers: run every seed's experiments (or, with
# --quick, reuse their cached CSV files and run only what is missing),
# then put the paper's numbers beside ours, seed by seed, with the
# difference, its size relative to the paper's and a note explaining
# each row (experiments/seedNNN/explain.csv), the figures in PNG, SVG
# and PDF, the commands run and the machine they ran on.
#
# Usage: experiments/report.sh [--quick] [--out DIR] [--data DIR] [--doc FILE]
#   --quick      reuse each step's results under DATA when they are there
#                and complete: every product, and the step's
#                provenance-SCRIPT.txt saying "status: complete"; a step
#                whose results are missing, partial or of unknown origin
#                runs again
#   --out DIR    the report (default out/report): report.md, report.html
#                (self-contained), tables.md (each seed's table between
#                <!-- report seedNNN --> markers), fig/seedNNN/*.{png,svg,pdf},
#                rows/ (every comparison row as CSV) and logs/
#   --data DIR   where the experiments write (default out: out/seed000, ...)
#   --doc FILE   also replace the tables between the markers in FILE
#                (docs/SEEDS.md) with tables.md's
# Run from the build directory after make (`make report` does).  A full
# run took 15 min on a shared 2-core machine at a load average of 4-8
# and about twice that at 15-20, mostly the two PVM farm steps, Table 3
# and the numpy cross-check (19 min at 12-16, 15 at 5-8, 2026-11-26); --quick
# with every result cached 3-5 s.
# Each step prints its expected time (at a load of 15-20) as it starts.
# Each seed's section names the commit, times and load of the runs that
# made its data (their provenance files); a step that failed or whose
# results are incomplete is marked there in bold with the command that
# completes it, and the report then exits 1.
set -eu
quick= out=out/report data=out doc=
while [ $# -gt 0 ]; do
  case $1 in
  -h|--help) sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
  --quick) quick=1; shift ;;
  --out|--data|--doc)
    [ $# -ge 2 ] && [ -n "$2" ] || { echo "$0: $1 wants an argument" >&2; exit 2; }
    case $1 in --out) out=$2 ;; --data) data=$2 ;; --doc) doc=$2 ;; esac; shift 2 ;;
  *) echo "$0: unknown argument '$1' (try --help)" >&2; exit 2 ;;
  esac
done
src=$(cd "${LB_TOP_SRCDIR:-$(dirname "$0")/..}" && pwd)
lb_top=$(cd "$(dirname "$0")/.." && pwd)
. "$lb_top/scripts/lib.sh"
lb_init
build=$(cd "${LB_TOP_BUILDDIR:-.}" && pwd)
[ -x "$build/tools/lbdiffuse" ] || { echo "$0: $build/tools/lbdiffuse not found: run from the build directory after make" >&2; exit 2; }
command -v gnuplot >/dev/null || { echo "$0: gnuplot not found" >&2; exit 2; }
[ -z "$doc" ] || [ -w "$doc" ] || { echo "$0: --doc $doc: not a writable file" >&2; exit 2; }
mkdir -p "$out" "$data"
out=$(cd "$out" && pwd); data=$(cd "$data" && pwd)
rm -rf "$out/fig" "$out/rows" "$out/logs"
mkdir -p "$out/fig" "$out/rows" "$out/logs"
ex=$src/experiments
LB_TOP_SRCDIR=$src LB_TOP_BUILDDIR=$build LBMASTER=${LBMASTER:-$build/master/lbmaster}
export LB_TOP_SRCDIR LB_TOP_BUILDDIR LBMASTER
say() { echo "report: $*" >&2; }
human() { if [ "$1" -ge 90 ]; then echo "$(( ($1 + 30) / 60 )) min"; else echo "$1 s"; fi; }
started=$(date +%s)
load_before=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)

# step SEED NAME SECONDS "PRODUCTS" [--stdout FILE] COMMAND...: run one
# experiment from the build directory, or with --quick reuse it when
# every product (relative to DATA) exists and its provenance file (the
# first product's directory, provenance-SCRIPT.txt) says it is complete.
# SECONDS is the time it took on a busy 2-core machine.  A failed step
# is reported, the rest still run.  commands.csv: seed|name|command|
# status|time|provenance file.
nsteps=13 n=0 failed=0
commands=$out/logs/commands.csv
: >"$commands"
step() {
  seed=$1 name=$2 secs=$3 prods=$4; shift 4
  n=$((n + 1)); stdout=
  if [ "$1" = --stdout ]; then stdout=$2; shift 2; fi
  cmd=$(printf '%s ' "$@" | sed "s|$build/||g; s|$build |. |g; s| \$||")
  [ -z "$stdout" ] || cmd="$cmd > ${stdout#"$build/"}"
  first=${prods%% *}
  prov=$data/$(dirname "$first")/provenance-$(basename "$1" .sh).txt
  have=1
  for p in $prods; do [ -s "$data/$p" ] || have=; done
  grep -qx 'status: complete.*' "$prov" 2>/dev/null || have=
  if [ -n "$quick" ] && [ -n "$have" ]; then
    when=$(sed -n 's/^finished: //p' "$prov" | cut -c1-16)
    say "[$n/$nsteps] seed $seed, $name: reusing ${data#"$build/"}/$first of $when"
    echo "$seed|$name|$cmd|reused (results of $when)|-|$prov" >>"$commands"
    return 0
  fi
  if [ -n "$quick" ] && [ -s "$data/$first" ]; then
    if [ -s "$prov" ]; then say "[$n/$nsteps] seed $seed, $name: $first is incomplete ($(sed -n 's/^status: //p' "$prov" | cut -c1-80)): running it again"
    else say "[$n/$nsteps] seed $seed, $name: $first has no provenance (complete or not?): running it again"; fi
  fi
  say "[$n/$nsteps] seed $seed, $name (expect about $(human "$secs"))"
  log=$out/logs/$(echo "seed$seed-$name" | tr -c 'A-Za-z0-9.\n-' '_').log
  t0=$(date +%s) rc=0
  if [ -n "$stdout" ]; then
    t_started=$(date '+%Y-%m-%d %H:%M:%S %z') l_before=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)
    (cd "$build" && "$@") >"$stdout.tmp" 2>"$log" && mv "$stdout.tmp" "$stdout" || rc=$?
    [ "$rc" != 0 ] || printf '%s\n' "command: $cmd" "directory: $build" \
      "commit: $(git -C "$src" describe --always --dirty --abbrev=12 2>/dev/null || echo unknown)" \
      "started: $t_started" "finished: $(date '+%Y-%m-%d %H:%M:%S %z')" "load before: $l_before" \
      "load after: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)" "status: complete" >"$prov"
  elif [ -t 2 ]; then
    (cd "$build" && "$@") >"$log" || rc=$?
  else
    (cd "$build" && "$@") >"$log" 2>&1 || rc=$?
  fi
  t=$(( $(date +%s) - t0 ))
  if [ "$rc" = 0 ]; then
    say "      done in $(human "$t")"
    echo "$seed|$name|$cmd|ran|$(human "$t")|$prov" >>"$commands"
  else
    say "      FAILED (exit $rc) after $(human "$t"); see $log"
    echo "$seed|$name|$cmd|failed (exit $rc), see logs/$(basename "$log")|$(human "$t")|$prov" >>"$commands"
    failed=$((failed + 1))
  fi
}

# Seed 000's farm figure: the only line that knows fig34.sh's interface
# (its command, and the file of lbmaster rows it leaves).
fig34_csv=seed000/runs.csv; step 000 "Figs. 3 and 4 on six PVM hosts, one run per point" 900 "$fig34_csv" "$ex/seed000/fig34.sh" -o "$data/seed000" --reps 1
step 000 "few-runs claim (simulator)" 5 proto/claim.csv "$ex/proto/claim.sh" -o "$data/proto" -b "$build"
# The claim that RMTLB beats the other three: the tournament's six-host
# settings with the farm's costs, the paper's four compared by paired
# tests (proto/scale.sh, at unit costs, is docs/SIMULATOR.md's study).
step 000 "the four policies on six hosts, tournament settings (simulator)" 120 seed000-four/four.csv "$ex/seed000/four.sh" -o "$data/seed000-four" -b "$build"
step 001 "first against second order" 2 seed001/speedup.csv "$ex/seed001/convergence.sh" "$data/seed001"
step 002 "Table 1" 25 seed002/table1.csv "$ex/seed002/table1.sh" "$data/seed002"
step 002 "Table 3" 190 seed002/table3.csv "$ex/seed002/table3.sh" "$data/seed002"
step 002 "Fig. 2" 25 "seed002/fig2.csv seed002/fig2_hist.csv" "$ex/seed002/fig2.sh" "$data/seed002"
step 002 "heterogeneous convergence" 1 seed002/convergence.csv "$ex/seed002/convergence.sh" "$data/seed002"
step 002 "Table 1 by numpy" 450 seed002/crosscheck.csv "$ex/seed002/crosscheck.sh" "$data/seed002"
step 003 "Tables 1 and 2, Fig. 2" 2 "seed003/ours.csv seed003/paper.csv" "$ex/seed003/run.sh" "$data/seed003"
mkdir -p "$data/seed003" "$data/seed004"
step 003 "worked example" 1 seed003/example.csv --stdout "$data/seed003/example.csv" "$build/tools/lbtransport" --example --csv
step 004 "Tables 1 and 2 on six PVM hosts" 600 "seed004/table1.csv seed004/table2.csv" "$ex/seed004/tables.sh" "$data/seed004"
step 004 "worked example" 1 seed004/example.csv --stdout "$data/seed004/example.csv" "$build/tools/lbshare" --example --csv
load_after=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)
# Result sets that are not complete (a step that failed, or data whose
# provenance says incomplete or is missing): marked, and the exit is 1.
incomplete=$(awk -F'|' '{ print $6 }' "$commands" | while read -r pf; do
  grep -qx 'status: complete.*' "$pf" 2>/dev/null || echo x; done | wc -l)

# The comparison rows of each seed, and its table (main rows) and all rows.
say "comparing, drawing and writing the report"
compare() {
  s=$1; shift
  awk -f "$ex/report/lib.awk" -f "$ex/seed$s/compare.awk" "$@" >"$out/rows/seed$s.csv" || return 1
  for part in main detail; do
    awk -F, -v part=$part -f "$ex/report/render.awk" "$ex/seed$s/explain.csv" "$out/rows/seed$s.csv" \
      >"$out/rows/seed$s-$part.md" || return 1
  done
}
bad=0
: >"$out/rows/seed000-medians.csv"
compare 000 -v fig34="$data/$fig34_csv" -v claim="$data/proto/claim.csv" \
  -v four="$data/seed000-four/four.csv" -v medians="$out/rows/seed000-medians.csv" || bad=1
compare 001 -v speedup="$data/seed001/speedup.csv" || bad=1
compare 002 -v here="$ex/seed002" -v dir="$data/seed002" || bad=1
compare 003 -v paper="$src/data/seed003-paper.csv" -v ours="$data/seed003/ours.csv" \
  -v example="$data/seed003/example.csv" || bad=1
compare 004 -v here="$ex/seed004" -v dir="$data/seed004" -v example="$data/seed004/example.csv" || bad=1
[ "$bad" = 0 ] || { say "a comparison failed (a note without an explanation?)"; exit 1; }

# fig SEED NAME SCRIPT "INPUTS" VARS: draw fig/SEED/NAME.{png,svg,pdf}
# when every input exists; VARS are gnuplot assignments.
figs=$out/logs/figures.txt
: >"$figs"
fig() {
  for f in $4; do [ -s "$f" ] || { echo "$1 $2 missing $f" >>"$figs"; return 0; }; done
  mkdir -p "$out/fig/seed$1"
  for e in png svg pdf; do
    # A figure that cannot be drawn whole is reported, not fatal.
    ( lb_plot1 "$out/fig/seed$1/$2.$e" "$3" "$5" ) 2>>"$out/logs/gnuplot.log" ||
      { echo "$1 $2 failed" >>"$figs"; say "figure seed $1 $2.$e failed (logs/gnuplot.log)"; return 0; }
  done
  echo "$1 $2" >>"$figs"
}
sort -t, -k1,1 -k3,3 -k2,2n "$out/rows/seed000-medians.csv" -o "$out/rows/seed000-medians.csv"
fig 000 received "$ex/seed000/received.gp" "$out/rows/seed000-medians.csv" "data='$out/rows/seed000-medians.csv'"
fig 001 speedup "$ex/seed001/speedup.gp" "$data/seed001/speedup.csv" "data='$data/seed001/speedup.csv'"
d2=$data/seed002
p1=$(awk -F, 'NR == 2 { print $4 + 0 }' "$d2/fig2.csv" 2>/dev/null || true)
fig 002 fig2 "$ex/seed002/fig2.gp" "$d2/fig2_hist.csv" "histfile='$d2/fig2_hist.csv'; p1=${p1:-0}"
fig 002 convergence "$ex/seed002/convergence.gp" "$d2/conv_mesh_4x4_first.csv" "dir='$d2'"
fig 003 fig2 "$ex/seed003/fig2.gp" "$data/seed003/ours.csv $data/seed003/paper.csv" \
  "ours='$data/seed003/ours.csv'; paper='$data/seed003/paper.csv'"
scales=$(awk -F, 'NR > 1 && !seen[$1]++ { printf "%s%s", s, $1; s = " " }' "$data/seed004/table1.csv" 2>/dev/null || true)
d4=$data/seed004
if [ -s "$d4/table1.csv" ] && [ -s "$d4/table2.csv" ]; then
  for t in 1 2; do [ -s "$d4/paper_table$t.csv" ] || grep -v '^#' "$ex/seed004/paper_table$t.csv" >"$d4/paper_table$t.csv"; done
  mkdir -p "$out/fig/seed004"; ok=1
  for e in png svg pdf; do
    ( lb_plot "$out/fig/seed004" "$ex/seed004/figs.gp" "outdir='$d4'" "scales='$scales'" "fmt='$e'" ) \
      2>>"$out/logs/gnuplot.log" || ok=
  done
  if [ -n "$ok" ]; then printf '004 fig1\n004 fig2\n' >>"$figs"; fi
fi

# figure SEED NAME CAPTION: a figure drawn above, embedded, with links.
figure() {
  grep -qx "$1 $2" "$figs" || return 0
  echo
  echo "![$3](fig/seed$1/$2.png)"
  echo
  echo "Figure files: [PNG](fig/seed$1/$2.png), [SVG](fig/seed$1/$2.svg), [PDF](fig/seed$1/$2.pdf)."
}
explain() { awk -v k="$2" 'index($0, k ",") == 1 { print substr($0, length(k) + 2) }' "$ex/seed$1/explain.csv"; }
commit=$(git -C "$src" rev-parse --short HEAD 2>/dev/null || echo "not a git checkout")
[ "$commit" = "not a git checkout" ] || git -C "$src" diff --quiet HEAD 2>/dev/null || commit="$commit (with uncommitted changes)"
now=$(date -u '+%Y-%m-%d %H:%M UTC')

# data_of SEED: where a seed's data come from, step by step (command,
# commit, times and load of its provenance file); incomplete sets in bold.
data_of() {
  awk -F'|' -v s="$1" '$1 == s { print $2 "|" $3 "|" $6 }' "$commands" | while IFS='|' read -r nm c pf; do
    st=$(sed -n 's/^status: //p' "$pf" 2>/dev/null | head -1)
    if [ -z "$st" ]; then
      echo "- **$nm: NO RESULTS.** Make them with \`$c\`."
    elif [ "${st%% *}" != complete ]; then
      d=$(printf '%s' "$st" | sed 's/^incomplete *//; s/^(//; s/)$//')
      echo "- **$nm: INCOMPLETE (${d:-$st}).** Its rows and figures are partial; complete them with \`$c\`."
    else
      echo "- $nm: \`$(sed -n 's/^command: //p' "$pf" | sed "s|$build/||g; s|$build\$|.|; s|$build |. |g")\` at commit $(sed -n 's/^commit: //p' "$pf"), $(sed -n 's/^started: //p' "$pf") to $(sed -n 's/^finished: //p' "$pf" | cut -c12-19), load $(sed -n 's/^load before: //p' "$pf") before and $(sed -n 's/^load after: //p' "$pf") after."
    fi
  done
}
# section SEED TITLE: a seed's intro, table, figures and every row.
section() {
  echo
  echo "## Seed $1: $2"
  echo
  explain "$1" intro
  missing=$(awk -F'|' -v s="$1" '$1 == s && $4 ~ /^failed/ { printf "%s%s", n++ ? ", " : "", $2 }' "$commands")
  [ -z "$missing" ] || { echo; echo "**Failed steps: $missing** (see Commands); their rows are missing."; }
  echo
  echo "Data of this section:"
  echo
  data_of "$1"
  echo
  if [ -s "$out/rows/seed$1-main.md" ]; then cat "$out/rows/seed$1-main.md"
  else echo "No results: every step of this seed failed or was not run."; fi
}
details() {
  [ -s "$out/rows/seed$1-detail.md" ] || return 0
  echo
  echo "<details><summary>Seed $1: $2</summary>"
  echo
  cat "$out/rows/seed$1-detail.md"
  echo
  echo "</details>"
}
{
  echo "# lbfarm: the five papers beside our numbers"
  echo
  echo "Generated by \`experiments/report.sh${quick:+ --quick}\` on $now from commit $commit."
  echo "Each section puts the paper's values beside ours: ours - paper, its size"
  echo "relative to the paper's value, and a numbered note explaining each row,"
  echo "from \`experiments/seedNNN/explain.csv\`.  Where the paper prints no number"
  echo "the paper column holds what its text claims or its formulas predict, as"
  echo "the section says.  Figures come in PNG, SVG and PDF (\`fig/\`); every row is"
  echo "also in \`rows/seedNNN.csv\`.  How the numbers were made: [Commands](#commands)"
  echo "and [Machine](#machine) at the end."
  [ "$failed" = 0 ] || { echo; echo "**$failed step(s) failed**: see [Commands](#commands)."; }
  [ "$incomplete" = 0 ] || { echo; echo "**$incomplete result set(s) are missing or incomplete**: each section says which, and the command that completes it."; }
  section 000 "RMTLB (Liu, Shi, Gao)"
  figure 000 received "Figs. 3 and 4 on six PVM hosts: makespan over the ideal at the CPU share received"
  details 000 "every policy's medians"
  section 001 "diffusion, first and second order"
  figure 001 speedup "Steps of first order over steps of second order: predicted by the rates and measured"
  details 001 "real loads below zero"
  section 002 "heterogeneous diffusion and processor arrangement (Jin, Wang)"
  figure 002 fig2 "Fig. 2: p of 100000 random arrangements on the 8x8 grid, and the greedy p1"
  figure 002 convergence "Heterogeneous and homogeneous diffusion from a point load: measured (solid) and rate^step (dashed)"
  details 002 "Table 1's counts and Table 3, every case"
  section 003 "transport-problem balancing (Kurkchi, Ladyzhensky)"
  figure 003 fig2 "Fig. 2: migration level Q per test, ours (solid) and the paper's (dashed)"
  details 003 "Tables 1 and 2, every test"
  section 004 "divisible-load sharing (Zeng, Lu)"
  figure 004 fig1 "Fig. 1: speedup against machines used, bidding and sharing"
  figure 004 fig2 "Fig. 2: speedup against matrix size, balance and sharing"
  echo
  echo "## How this report was made"
  echo
  echo "### Commands"
  echo
  echo "Run from the build directory, in this order$([ -n "$quick" ] && echo "; with --quick, results found under \`${data#"$build/"}\` were reused").  Expected"
  echo "times are printed as each step starts; the whole run took $(human $(( $(date +%s) - started )))."
  echo
  echo "| seed | step | command | status | time |"
  echo "|---|---|---|---|---|"
  awk -F'|' '{ printf "| %s | %s | `%s` | %s | %s |\n", $1, $2, $3, $4, $5 }' "$commands"
  echo
  echo "### Machine"
  echo
  echo "- date: $now; commit $commit"
  echo "- system: $(uname -srmo)"
  echo "- CPU: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -1), $(nproc) cores"
  echo "- load average (1, 5, 15 min) while this report ran: $load_before at its start, $load_after after its steps; each section gives the load of the runs that made its data (reused results keep theirs)"
  echo "- PVM: $(dpkg-query -W -f '${Version}' pvm 2>/dev/null || sed -n 's/^#define PVM_VER[[:space:]]*//p' /usr/include/pvm3.h 2>/dev/null || echo unknown)"
  echo "- compiler: $(${CC:-gcc} --version 2>/dev/null | head -1)"
  echo "- gnuplot: $(gnuplot --version), numpy: $(/usr/bin/python3 -c 'import numpy; print(numpy.__version__)' 2>/dev/null || echo none)"
  echo
  echo "The machine may be shared: the load averages show how busy it was."
  echo "Farm results (seeds 000 and 004) depend on that load; the simulator's"
  echo "and the planners' do not."
} >"$out/report.md"
awk -v dir="$out" -v title="lbfarm: the five papers beside our numbers" -f "$ex/report/md2html.awk" \
  "$out/report.md" >"$out/report.html"

# Each seed's table for docs/SEEDS.md, between markers.
today=$(date '+%Y-%m-%d')
for s in 000 001 002 003 004; do
  echo "<!-- report seed$s -->"
  awk -F'|' -v s="$s" -v today="$today" '$1 == s { d = today; if (sub(/^reused \(results of /, "", $4)) d = substr($4, 1, 10); if (!seen[d]++) ds = ds (ds ? ", " : "") d }
    END { print "Results of " ds " (`experiments/report.sh`), from:"; print "" }' "$commands"
  data_of "$s"
  echo
  cat "$out/rows/seed$s-main.md"
  echo "<!-- end report seed$s -->"
done >"$out/tables.md"
if [ -n "$doc" ]; then
  awk 'FNR == NR { if (/^<!-- report seed[0-9]+ -->$/) k = $0; else if (/^<!-- end report/) k = ""; else if (k != "") t[k] = t[k] $0 "\n"; next }
    skip && /^<!-- end report seed[0-9]+ -->$/ { skip = 0 }
    skip { next }
    { print }
    /^<!-- report seed[0-9]+ -->$/ && ($0 in t) { printf "%s", t[$0]; skip = 1 }' "$out/tables.md" "$doc" >"$doc.tmp"
  mv "$doc.tmp" "$doc"
  if grep -q '^<!-- report seed[0-9]* -->$' "$doc"; then say "replaced the tables in $doc"
  else say "$doc has no <!-- report seedNNN --> markers: nothing replaced"; fi
fi
say "wrote $out/report.md, $out/report.html and $out/tables.md in $(human $(( $(date +%s) - started )))"
[ "$failed" = 0 ] || { say "$failed step(s) failed"; exit 1; }
[ "$incomplete" = 0 ] || { say "$incomplete result set(s) missing or incomplete (marked in the report)"; exit 1; }
