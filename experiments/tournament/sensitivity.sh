#!/bin/sh
# Sensitivity of the tournament's verdict: every policy at its best
# setting with the message costs (CPU per message and per byte, hop
# latency; bandwidth divided) x1, x4 and x10, and each setting's winner
# with its C and A halved and doubled (policies that have them).  Reads
# DIR/best.csv and DIR/paired.csv of a run.sh run (its settings, same
# seeds 1..K); writes DIR/sensitivity.csv (the runs) and
# DIR/sensitivity.md (the table) and prints their paths.
# --redraw: the table again from DIR/sensitivity.csv, no runs.
# Usage: experiments/tournament/sensitivity.sh DIR [-k SEEDS] [-j JOBS] [--redraw]
set -eu
lb_top=$(cd "$(dirname "$0")/../.." && pwd)
. "$lb_top/scripts/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
case ${1:-} in --help|-h|'') sed -n '2,10p' "$0"; exit 0 ;; esac
dir=$1 seeds=10 jobs=2 redraw=""
shift
while [ $# -gt 0 ]; do
  case $1 in
    -k) seeds=${2:?-k needs a count}; shift ;;
    -j) jobs=${2:?-j needs 1 or 2}; shift ;;
    --redraw) redraw=1 ;;
    *) echo "$0: unknown argument '$1'" >&2; exit 2 ;;
  esac
  shift
done
case $seeds in ''|*[!0-9]*|0) echo "$0: '$seeds' is not a positive count" >&2; exit 2 ;; esac
case $jobs in 1|2) ;; *) echo "$0: -j: 1 or 2" >&2; exit 2 ;; esac
[ -s "$dir/best.csv" ] && [ -s "$dir/paired.csv" ] || { echo "$0: $dir has no best.csv and paired.csv (run.sh)" >&2; exit 2; }
sim=$(lb_built sim/lbsim) || { echo "$0: lbsim not built" >&2; exit 2; }
lb_init
dir=$(cd "$dir" && pwd)
. "$here/common.sh"
work=$(mktemp -d "$dir/.sens.XXXXXX") || lb_die "cannot write in $dir"
lb_on_exit "rm -rf '$work'"
mkdir "$work/traces"
pols="rmtlb rmtlb-drain lowest dasud dasud-ring cchspmd diffusion diffusion2 steal pool"
# the settings of the run, with their winners
awk -F, 'NR > 1 && !seen[$1]++ { split($1, a, " "); sub("/host", "", a[2]); print a[1], a[2], a[3], a[4], $2 }' \
  "$dir/paired.csv" >"$work/settings"
table() {
  awk -F, 'FNR == 1 && f++ == 0 { for (i = 8; i <= NF; i++) c[$i] = i; next }
    FILENAME ~ /settings$/ { split($0, a, " "); s = a[1] " " a[2] "/host " a[3] " " a[4]; S[++ns] = s; W[s] = a[5]; next }
    { s = $2 " " $3 "/host " $4 " " $5; r = $c["ratio"]; if ($c["violations"] != 0 || r == "nan") { bad[s, $1, $6]++; next }
      sum[s, $1, $6] += r; n[s, $1, $6]++ }
    function mean(s, v, p) { return n[s, v, p] ? sum[s, v, p] / n[s, v, p] : "" }
    function winner(s, v,   j, p, b, bm, m) { b = ""; for (j = 1; j <= np; j++) { p = P[j]; m = mean(s, v, p)
        if (m != "" && (b == "" || m < bm)) { b = p; bm = m } } WB = bm; return b }
    BEGIN { np = split("rmtlb rmtlb-drain lowest dasud dasud-ring cchspmd diffusion diffusion2 steal pool", P, " ") }
    END {
      print "| setting | winner (x1) | x4: winner; x1 winner / it | x10: winner; x1 winner / it | winner at C/2, 2C (its ratio / at its best) | at A/2, 2A |"
      print "|---|---|---|---|---|---|"
      for (i = 1; i <= ns; i++) { s = S[i]; w = W[s]; w1 = winner(s, "x1"); b1 = WB
        printf "| %s | %s (%.3f)", s, w1, b1
        for (k = 4; k <= 10; k += 6) { v = "x" k; wk = winner(s, v); bk = WB; mw = mean(s, v, w1)
          printf " | %s (%.3f); %s", wk, bk, wk == w1 ? "same" : sprintf("%.3f", mw / bk) }
        base = mean(s, "x1", w)
        printf " | %s |", (mean(s, "C/2", w) == "" ? "no C" : sprintf("%s: %.3f, %.3f", w, mean(s, "C/2", w) / base, mean(s, "2C", w) / base))
        printf " %s |\n", (mean(s, "A/2", w) == "" ? "no A" : sprintf("%.3f, %.3f", mean(s, "A/2", w) / base, mean(s, "2A", w) / base)) } }' \
    "$1" "$work/settings"
}
if [ -n "$redraw" ]; then
  [ -s "$dir/sensitivity.csv" ] || lb_die "$dir/sensitivity.csv: none to redraw"
  lb_write "$dir/sensitivity.md" table "$dir/sensitivity.csv"
  echo "$dir/sensitivity.md"
  exit 0
fi
args_of() {   # topo L wl load pol -> "cfg args"
  local cfg
  cfg=$(awk -F, -v k="$1,$2,$3,$4,$5" '$1 "," $2 "," $3 "," $4 "," $5 == k { print $6; exit }' "$dir/best.csv")
  grid "$5" "$2" "$(degree "$1")" | awk -v c="$cfg" 'NR == 1 { d = $0 } $1 == c { print; f = 1; exit } END { if (!f) print d }'
}
costs() {   # multiplier -> lbsim options (the farm profile's costs times m)
  awk -v m="$1" 'BEGIN { printf "--cost-msg %g --cost-byte %g --latency %g --bandwidth %g", 0.005 * m, 1e-8 * m, 0.01 * m, 2e6 / m }'
}
while read -r topo L wl load win; do
  n=$(nodes "$topo")
  for s in $(seq "$seeds"); do
    f=$work/traces/$n-$L-$wl-$load-$s.tr
    [ -s "$f" ] || awk -v n="$n" -v np=$((n * L)) -v wl="$wl" -v load="$load" -v seed="$s" -v w=10 \
                      -f "$here/trace.awk" >"$f"
  done
  for m in 1 4 10; do
    for pol in $pols; do
      set -- $(args_of "$topo" "$L" "$wl" "$load" "$pol"); cfg=$1; shift
      for s in $(seq "$seeds"); do echo "x$m $topo $L $wl $load $s $pol $cfg $* $(costs "$m")"; done
    done
  done
  set -- $(args_of "$topo" "$L" "$wl" "$load" "$win"); cfg=$1; shift; a=$*
  for v in C/2 2C A/2 2A; do
    na=$(echo "$a" | awk -v v="$v" '{ for (i = 1; i <= NF; i++) {
        if ($i == "-C" && v ~ /C/) { $(i + 1) = v == "C/2" ? int(($(i + 1) + 1) / 2) : 2 * $(i + 1); f = 1 }
        if ($i == "-A" && v ~ /A/) { $(i + 1) = v == "A/2" ? $(i + 1) / 2 : 2 * $(i + 1); f = 1 } }
      if (f) print; else print "NONE" }')
    [ "$na" = NONE ] && continue
    for s in $(seq "$seeds"); do echo "$v $topo $L $wl $load $s $win $cfg $na"; done
  done
done <"$work/settings" >"$work/jobs"
TOURN_SIM=$sim TOURN_TRACES=$work/traces
export TOURN_SIM TOURN_TRACES
{ printf 'phase,topology,L,workload,load,policy,cfg,'; "$sim" --csv-header; } >"$work/runs.csv"
xargs -d '\n' -n 1 -P "$jobs" sh "$here/job.sh" <"$work/jobs" >>"$work/runs.csv"
lb_write "$dir/sensitivity.md" table "$work/runs.csv"
lb_commit "$work/runs.csv" "$dir/sensitivity.csv"
echo "$dir/sensitivity.csv"
echo "$dir/sensitivity.md"
