# experiments/bench/lib.sh: helpers for the scripts that run.sh runs.
#
# A benchmark script is experiments/bench/NAME.sh.  run.sh runs it from
# the build directory with these set:
#   BENCH_CSV      the CSV to append rows to (header already written)
#   BENCH_OUT      a directory for the script's own files
#   LB_TOP_SRCDIR  the source tree, LB_TOP_BUILDDIR the build tree
# and the script appends one row per figure with bench_row.  Columns:
#   benchmark  what was run
#   metric     what is compared and its unit, e.g. "cpu_s", "gflops"
#   ours       our figure
#   reference  the reference's figure, measured in the same run
#   ratio      how many times better ours is: reference/ours for a time,
#              ours/reference for a rate (so > 1 means ours is ahead)
#   threads    threads given to each side
#   loadavg    /proc/loadavg (1, 5, 15 min) when the row was written
#   command    how to repeat the measurement (quoted; the only field
#              that may hold commas)

# Sourced first: the scripts' common start (scripts/lib.sh: signals,
# whole outputs), lb_top the source tree, here this folder.
lb_top=$(cd "$(dirname "$0")/../.." && pwd)
. "$lb_top/scripts/lib.sh"
lb_init
here=$lb_top/experiments/bench

# bench_start "$@": a benchmark script takes no arguments (run.sh sets its
# environment): --help prints its leading comment and how to run it,
# anything else is bad input (exit 2).  Then `out` is BENCH_OUT (default
# out/bench, created) and BENCH_CSV defaults to stdout.
bench_start() {
  case ${1:-} in
  "") ;;
  -h|--help)
    sed -n '2,/^[^#]/p' "$0" | sed '/^[^#]/d; s/^# \{0,1\}//'
    echo "Usage: make bench, or alone: BENCH_CSV=FILE BENCH_OUT=DIR $0"
    exit 0 ;;
  *) echo "$(basename "$0"): unknown argument '$1' (try --help)" >&2; exit 2 ;;
  esac
  out=${BENCH_OUT:-out/bench}
  : "${BENCH_CSV:=/dev/stdout}"
  mkdir -p "$out"
}

bench_loadavg() { cut -d' ' -f1-3 /proc/loadavg; }

# bench_row BENCHMARK METRIC OURS REFERENCE RATIO THREADS COMMAND
# (commas in the first six become semicolons; the command is quoted)
# (sh has no locals: the helpers' own variables start with _b)
bench_row() {
  _bf=
  for _bv in "$1" "$2" "$3" "$4" "$5" "$6" "$(bench_loadavg)"; do _bf="$_bf$(printf %s "$_bv" | tr , ';'),"; done
  printf '%s"%s"\n' "$_bf" "$(printf %s "$7" | tr -d '"')" >>"$BENCH_CSV"
}

# bench_div A B [FORMAT]: A / B
bench_div() { awk -v a="$1" -v b="$2" -v f="${3:-%.2f}" 'BEGIN { printf f, a / b }'; }

# bench_need_debs PKG...: make sure Debian packages are installed (the
# benchmarks' own dependencies; the library and tests need none of
# them).  Installs them as root; otherwise prints the command and fails.
bench_need_debs() {
  _bm=
  for _bp in "$@"; do
    dpkg-query -W -f='${Status}' "$_bp" 2>/dev/null | grep -q 'install ok installed' || _bm="$_bm $_bp"
  done
  [ -z "$_bm" ] && return 0
  if [ "$(id -u)" = 0 ]; then
    echo "bench: installing$_bm"
    apt-get install -y$_bm >/dev/null || { apt-get update >/dev/null && apt-get install -y$_bm >/dev/null; }
  else
    echo "bench: needs$_bm; run as root: apt-get install -y$_bm" >&2
    return 1
  fi
}

# bench_median V...: the median of numbers
bench_median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
