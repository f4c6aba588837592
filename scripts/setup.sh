#!/usr/bin/env bash
# scripts/setup.sh [--bench]: the shared set-up of the README's two
# commands.  Installs the Debian packages that the build, the tests and
# the main job use (as root; otherwise prints the exact apt-get line and
# stops), then builds in this tree: autoreconf and configure the first
# time only, make every time (it rebuilds only what changed, and reruns
# automake or configure itself when configure.ac or a Makefile fragment
# changed).  --bench adds what the benchmarks need.
#
# Usage: scripts/setup.sh [--bench]
# apt-get runs with no terminal input (its progress would stair-step
# across the terminal otherwise): a line per tenth of the packages.
set -euo pipefail
lb_top=$(cd "$(dirname "$0")/.." && pwd)
. "$lb_top/scripts/lib.sh"
lb_init
cd "$(dirname "$0")/.."
say() { echo "setup: $*" >&2; }

# One list, one reason each: docs/DEPENDENCIES.md.
packages=(
  gcc make autoconf automake pkgconf   # toolchain and autotools
  pvm pvm-dev                          # PVM3 daemon, console, libpvm3
  libgsl-dev                           # eigenvalues, RNG, statistics
  libopenblas-dev                      # dgemm kernel of the matmul workload
  libcmocka-dev                        # unit-test framework
  libsodium-dev                        # the MACs of the farm's messages
  gnuplot-nox                          # figures from CSV
  libglpk-dev glpk-utils               # independent LP solver for cross-checks
  iproute2                             # network namespaces for six hosts
  procps                               # pgrep: tests find their own pvmds
  libopenmpi-dev openmpi-bin           # lbmpi, the farm over MPI
  slurmctld slurmd slurm-client munge  # a one-node Slurm cluster: lbmpi under srun (tests/slurm_farm.sh)
  openssh-server openssh-client        # the six-host cluster started by ssh
  clang libclang-rt-dev                # libFuzzer: the fuzz smoke (tests/fuzz)
  clang-format                         # the C layout check (tests/format.sh; .clang-format)
  libsimgrid-dev g++                   # lbsimgrid, the simulator's SimGrid peer (simgrid/)
)
bench_packages=(
  bsdextrautils                        # column: farm-bench.sh tables
  python3-numpy                        # numpy cross-checks of lbarrange
  pajeng                               # pj_dump reads back lbtrace's Paje files (tests/trace_cli.sh, farm_trace.sh); brings R
  nftables                             # 100 % loss on a cluster link where the kernel has no netem (experiments/faults/lease.sh)
)
case ${1:-} in
"") ;;
--bench) packages+=("${bench_packages[@]}") ;;
-h|--help) sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
*) say "unknown argument '$1' (only --bench)"; exit 2 ;;
esac

command -v dpkg-query >/dev/null || {
  say "no dpkg-query: this set-up is for Debian 12; install the equivalents of: ${packages[*]}"
  exit 1
}
missing=()
while read -r p status; do
  [ "$status" = ii ] || missing+=("$p")
done < <(for p in "${packages[@]}"; do
  printf '%s %s\n' "$p" "$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null | tr -d ' ')"
done)

log=$(mktemp "${TMPDIR:-/tmp}/lbfarm-setup.XXXXXX")
lb_on_exit 'rm -f "$log"'
# run_logged WHAT CMD...: CMD's output goes to the log, shown on failure.
run_logged() {
  local what=$1
  shift
  "$@" >"$log" 2>&1 </dev/null && return 0
  tail -n 25 "$log" >&2
  say "$what failed (above: the end of its output)"
  exit 1
}

if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    say "missing Debian packages. Run this, then run me again:"
    echo "  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt=(apt-get -q -o DPkg::Lock::Timeout=120)
  t0=$(date +%s)
  say "installing ${missing[*]} and what they need (a few minutes on a fresh machine)"
  say "apt-get update"
  run_logged "apt-get update" timeout 600 "${apt[@]}" update
  n=$("${apt[@]}" -s install "${missing[@]}" 2>/dev/null </dev/null | grep -c '^Inst ' || true)
  say "downloading and installing $n packages"
  # Progress: a line per tenth of the packages fetched and set up.
  step=$(( n / 10 > 0 ? n / 10 : 1 ))
  "${apt[@]}" install -y "${missing[@]}" 2>&1 </dev/null | tee "$log" |
    awk -v n="$n" -v step="$step" '
      /^Get:/ { if (++g % step == 0 || g == n) { printf "setup:   fetched %d of %d\n", g, n; fflush() } }
      /^Setting up / { if (++s % step == 0 || s == n) { printf "setup:   set up %d of %d\n", s, n; fflush() } }' >&2 ||
    { tail -n 25 "$log" >&2; say "apt-get install failed (above: the end of its output)"; exit 1; }
  say "packages installed in $(( $(date +%s) - t0 )) s"
fi

# pvmd gives up when this host's name does not resolve (a bare root or
# container without its /etc/hosts line); lbmaster then names its private
# pvmd localhost, which is enough for the README's commands.
name=$(uname -n)
if ! getent ahostsv4 "$name" >/dev/null 2>&1; then
  say "note: this host's name '$name' does not resolve; lbmaster names the pvmd it starts"
  say "  localhost instead.  For the PVM console and other hosts, add to /etc/hosts the line"
  say "  127.0.1.1 $name"
fi

# Configured already, here: make takes it from there.
if [ ! -f Makefile ] || ! grep -qxF "ac_pwd='$PWD'" config.status 2>/dev/null; then
  say "autoreconf and configure (first build in $PWD)"
  run_logged autoreconf autoreconf -fi
  run_logged configure ./configure
fi
run_logged make make -j"$(nproc)"
steps=$(grep -cE '^ +(CC|CCLD|AR) ' "$log" || true)
if [ "$steps" -gt 0 ]; then say "built ($steps steps)"; fi
